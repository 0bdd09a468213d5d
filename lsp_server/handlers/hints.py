"""``textDocument/inlayHint``: parameter names before positional call arguments, when the
``inlayHints`` setting is on (lsp_server.features.hints)."""

from __future__ import annotations

from lsprotocol import types

from adt.errors import AdtError
from lsp_server.handlers.requests import source_error
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints


def register(server: AdtLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=False))
    async def inlay_hints(
        ls: AdtLanguageServer, params: types.InlayHintParams
    ) -> list[types.InlayHint] | None:
        uri = params.text_document.uri
        if uri not in ls.adt.documents:
            return None
        first = ls.point(uri, params.range.start)[0]
        last = ls.point(uri, params.range.end)[0]
        try:
            found = await ls.adt.hints.hints(uri, first, last)
        except AdtError as exc:
            raise source_error(exc) from exc
        return [
            types.InlayHint(
                position=ls.position(uri, (hint.line, hint.column)),
                label=hint.label,
                kind=types.InlayHintKind.Parameter,
                padding_right=True,
            )
            for hint in found
        ]
