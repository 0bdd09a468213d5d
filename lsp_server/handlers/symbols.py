"""Document outline, folding ranges and workspace symbols; the outline and the folds stay
right while a document holds merge conflict markers (they follow our side). The outline and
the folds of ABAP documents come from the workspace's :class:`DocumentStructure`, which
rescans only what changed since the last request."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson
from lsprotocol import types

from adt.errors import AdtError
from lsp_server.handlers.requests import source_error
from lsp_server.protocol import Prepared
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints

if TYPE_CHECKING:
    from adt.abap.outline import Symbol
    from lsp_server.merge import MarkedBlock

_SYMBOL_KINDS = {
    "class": types.SymbolKind.Class,
    "interface": types.SymbolKind.Interface,
    "method": types.SymbolKind.Method,
    "function": types.SymbolKind.Function,
    "module": types.SymbolKind.Module,
    # CDS-family outlines (adt.abap.cds.outline)
    "entity": types.SymbolKind.Class,
    "field": types.SymbolKind.Field,
    "association": types.SymbolKind.Property,
    "parameter": types.SymbolKind.Variable,
    "behavior": types.SymbolKind.Class,
    "operation": types.SymbolKind.Method,
    "action": types.SymbolKind.Method,
    "determination": types.SymbolKind.Event,
    "validation": types.SymbolKind.Event,
    "event": types.SymbolKind.Event,
    "exposure": types.SymbolKind.Interface,
    "source": types.SymbolKind.Object,
}
#: The parser (an ADT type of adt.abap.cds.parse) of each CDS-family editor language.
_CDS_LANGUAGES = {"abap-cds": "DDLS", "abap-bdef": "BDEF", "abap-srvd": "SRVD", "abap-ddic": "TABL"}
_CONFLICT = "conflict"  # a merge conflict block: a region, collapsed to its name
_TYPE_KINDS = {
    "CLAS": types.SymbolKind.Class,
    "INTF": types.SymbolKind.Interface,
    "PROG": types.SymbolKind.File,
    "FUGR/FF": types.SymbolKind.Function,
    "FUGR": types.SymbolKind.Package,
}


def _document_symbol(ls: AdtLanguageServer, uri: str, symbol: Symbol) -> types.DocumentSymbol:
    start = (symbol.start[0] - 1, symbol.start[1])
    end = (symbol.end[0] - 1, symbol.end[1])
    first_line_end = (start[0], end[1]) if start[0] == end[0] else (start[0], 1 << 30)
    return types.DocumentSymbol(
        name=symbol.name,
        kind=_SYMBOL_KINDS.get(symbol.kind, types.SymbolKind.Object),
        range=ls.range(uri, start, end),
        selection_range=ls.range(uri, start, min(end, first_line_end)),
        detail=symbol.detail or None,
        children=[_document_symbol(ls, uri, child) for child in symbol.children],
    )


def _folds(
    ranges: list[tuple[int, int, str]], blocks: list[MarkedBlock], ordered: bool = False
) -> list[dict[str, object]]:
    """``FoldingRange`` answers of folds and conflict blocks, in the order editors expect
    (``ordered``: the folds come in it)."""
    if blocks or not ordered:
        ranges = [*ranges, *((block.start, block.end, _CONFLICT) for block in blocks)]
        ranges.sort(key=lambda r: (r[0], -r[1]))
    return [_fold(start, end, kind) for start, end, kind in ranges]


def _fold(start: int, end: int, kind: str) -> dict[str, object]:
    """A ``FoldingRange`` as the specification spells it (CDS folds have no kind)."""
    fold: dict[str, object] = {"startLine": start, "endLine": end}
    if kind == _CONFLICT:
        fold["kind"] = types.FoldingRangeKind.Region.value
        fold["collapsedText"] = "merge conflict"
    elif kind:
        fold["kind"] = kind  # "comment" and "region" are LSP's own kinds
    return fold


def _kind(object_type: str) -> types.SymbolKind:
    return _TYPE_KINDS.get(
        object_type, _TYPE_KINDS.get(object_type.split("/")[0], types.SymbolKind.Object)
    )


def register(server: AdtLanguageServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def document_symbol(
        ls: AdtLanguageServer, params: types.DocumentSymbolParams
    ) -> list[types.DocumentSymbol] | Prepared:
        doc = ls.adt.documents.get(params.text_document.uri)
        if doc is None:
            return []
        if doc.ref.language_id == "xml":  # a metadata object's document
            from adt.areas.document_text import outline as document_outline
            from lsp_server.merge import ours_view

            found = document_outline(ours_view(doc.buffer.lines))
            return [_document_symbol(ls, doc.uri, s) for s in found]
        cds = _CDS_LANGUAGES.get(doc.ref.language_id)
        if cds is not None:
            from adt.abap.cds.outline import outline as cds_outline
            from adt.abap.cds.parse import parse
            from lsp_server.merge import ours_view

            text = ours_view(doc.buffer.lines)
            return [_document_symbol(ls, doc.uri, s) for s in cds_outline(parse(text, cds))]
        return Prepared(orjson.Fragment(ls.adt.structure.outline(doc, ls.encoding)))

    @server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
    def folding_range(ls: AdtLanguageServer, params: types.FoldingRangeParams) -> Prepared:
        doc = ls.adt.documents.get(params.text_document.uri)
        if doc is None:
            return Prepared([])
        lines = doc.buffer.lines
        if doc.ref.language_id in _CDS_LANGUAGES:
            from adt.abap.cds.outline import folds as cds_folds
            from lsp_server.merge import marked_blocks, ours_view

            found = [(start - 1, end - 1, "") for start, end in cds_folds(ours_view(lines))]
            return Prepared(_folds(found, marked_blocks(lines)))
        return Prepared(
            ls.adt.structure.folds(
                doc,
                lambda folds, blocks: orjson.Fragment(orjson.dumps(_folds(folds, blocks, True))),
            )
        )

    @server.feature(types.WORKSPACE_SYMBOL)
    async def workspace_symbol(
        ls: AdtLanguageServer, params: types.WorkspaceSymbolParams
    ) -> list[types.SymbolInformation]:
        query = params.query.strip()
        if not query:
            return []
        pattern = query if "*" in query else f"{query}*"
        try:
            hits = await ls.adt.objects.search(
                pattern, system=None, max_results=50, object_type=None
            )
        except AdtError as exc:
            raise source_error(exc) from exc
        origin = types.Range(
            start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
        )
        return [
            types.SymbolInformation(
                name=hit["name"],
                kind=_kind(hit["type"]),
                location=types.Location(uri=hit["documentUri"], range=origin),
                container_name=hit.get("package") or None,
            )
            for hit in hits
            if "documentUri" in hit
        ]
