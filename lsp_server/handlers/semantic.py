"""``textDocument/semanticTokens/full`` and ``…/full/delta`` for ABAP documents: keywords,
comments, literals, numbers and names by what they declare (classes, interfaces, methods,
attributes, parameters, local variables, constants, types), so Neovim highlights without a
grammar and VS Code refines its own. The server's reading of the buffer (saved or not); no
ADT service is asked."""

from __future__ import annotations

from lsprotocol import types

from adt.abap.legend import MODIFIERS, TYPES
from lsp_server.features.highlighting import TokensDelta
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints

LEGEND = types.SemanticTokensLegend(token_types=list(TYPES), token_modifiers=list(MODIFIERS))


def register(server: AdtLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
    def full(
        ls: AdtLanguageServer, params: types.SemanticTokensParams
    ) -> types.SemanticTokens | None:
        uri = params.text_document.uri
        if not ls.adt.highlighting.serves(uri):
            return None
        tokens = ls.adt.highlighting.full(uri, ls.encoding)
        return types.SemanticTokens(data=tokens.data, result_id=tokens.result_id)

    @server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL_DELTA, LEGEND)
    def delta(
        ls: AdtLanguageServer, params: types.SemanticTokensDeltaParams
    ) -> types.SemanticTokens | types.SemanticTokensDelta | None:
        uri = params.text_document.uri
        if not ls.adt.highlighting.serves(uri):
            return None
        answer = ls.adt.highlighting.delta(uri, params.previous_result_id, ls.encoding)
        if not isinstance(answer, TokensDelta):
            return types.SemanticTokens(data=answer.data, result_id=answer.result_id)
        edits = [
            types.SemanticTokensEdit(
                start=answer.start, delete_count=answer.delete, data=answer.data
            )
        ]
        return types.SemanticTokensDelta(edits=edits, result_id=answer.result_id)
