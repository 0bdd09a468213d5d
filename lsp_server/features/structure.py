"""The outline and the folds of open documents, kept between requests: an editor asks for
both after nearly every keystroke, and at 100,000 lines scanning the whole text again takes
seconds. Each document keeps its chunks (:mod:`adt.abap.chunked`), so a request after an edit
scans only the chunks the edit changed. Conflict markers are read as our side
(:func:`lsp_server.merge.ours_lines`). The ABAP scanner loads with the first request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument
from lsp_server.features import Feature

if TYPE_CHECKING:
    from adt.abap.chunked import ChunkedStatements, Scanned
    from adt.abap.folding import Fold
    from adt.abap.outline import Symbol
    from lsp_server.merge import MarkedBlock


class DocumentStructure(Feature):
    """Outline and folds of ABAP documents (CDS-family ones are parsed whole, as before)."""

    def __init__(self, ctx: WorkspaceContext) -> None:
        super().__init__(ctx)
        self._scans: dict[str, ChunkedStatements] = {}

    def document_closed(self, doc: OpenDocument) -> None:
        self._scans.pop(doc.uri, None)

    def scanned(self, doc: OpenDocument) -> tuple[Scanned, list[MarkedBlock]]:
        """The statements the outline and the folds read, with conflicts as our side, and
        the conflict blocks."""
        from adt.abap import folding, outline
        from adt.abap.chunked import ChunkedStatements
        from lsp_server.merge import marked_blocks, ours_lines

        scan = self._scans.get(doc.uri)
        if scan is None:
            scan = self._scans[doc.uri] = ChunkedStatements(outline.HEADS | folding.HEADS)
        lines = doc.buffer.lines
        found = scan.read(lines)
        blocks = marked_blocks(lines) if found.markers else []
        if blocks:
            found = scan.read(ours_lines(lines))
        return found, blocks

    def outline(self, doc: OpenDocument) -> list[Symbol]:
        from adt.abap.outline import outline_of

        return outline_of(self.scanned(doc)[0].statements)

    def folds(self, doc: OpenDocument) -> tuple[list[Fold], list[MarkedBlock]]:
        """The folds, and the conflict blocks (each folds too)."""
        from adt.abap.folding import folds_of

        found, blocks = self.scanned(doc)
        return folds_of(found.statements, found.comments), blocks


__all__ = ["DocumentStructure"]
