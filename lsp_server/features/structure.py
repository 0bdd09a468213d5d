"""The outline and the folds of open documents, kept between requests: an editor asks for
both after nearly every keystroke, and at 100,000 lines scanning the whole text again takes
seconds. Each document keeps its chunks (:mod:`adt.abap.chunked`), so a request after an edit
scans only the chunks the edit changed, and an answer is built again only when what it
shows changed (typing inside a statement the outline passes over changes nothing in it).
Conflict markers are read as our side
(:func:`lsp_server.merge.ours_lines`). The ABAP scanner loads with the first request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar, cast

from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument
from lsp_server.features import Feature

if TYPE_CHECKING:
    from adt.abap.chunked import ChunkedStatements, Scanned
    from adt.abap.folding import KeptFolds
    from lsp_server.merge import MarkedBlock
    from lsp_server.outline_answer import OutlineWriter

T = TypeVar("T")


class DocumentStructure(Feature):
    """Outline and folds of ABAP documents (CDS-family ones are parsed whole, as before)."""

    def __init__(self, ctx: WorkspaceContext) -> None:
        super().__init__(ctx)
        self._scans: dict[str, ChunkedStatements] = {}
        self._read: dict[str, tuple[tuple[int, int], Scanned, list[MarkedBlock]]] = {}
        self._lines_read: dict[str, int] = {}  # uri → change count of the lines last read
        self._writers: dict[str, OutlineWriter] = {}  # what the outline answers are made of
        self._answers: dict[tuple[str, str], tuple[object, Any]] = {}  # (uri, what) → key, answer
        self._folds: dict[str, KeptFolds] = {}  # what the folds are made of

    def document_closed(self, doc: OpenDocument) -> None:
        self._scans.pop(doc.uri, None)
        self._read.pop(doc.uri, None)
        self._lines_read.pop(doc.uri, None)
        self._writers.pop(doc.uri, None)
        self._folds.pop(doc.uri, None)
        for what in ("outline", "folds"):
            self._answers.pop((doc.uri, what), None)

    def scanned(self, doc: OpenDocument) -> tuple[Scanned, list[MarkedBlock]]:
        """The statements the outline and the folds read, with conflicts as our side, and
        the conflict blocks."""
        from adt.abap import folding, outline
        from adt.abap.chunked import ChunkedStatements
        from lsp_server.merge import marked_blocks, ours_lines

        buffer = doc.buffer
        lines = buffer.line_list()  # the chunks keep lines: share the buffer's strings
        seen = (buffer.changes, id(lines))
        last = self._read.get(doc.uri)
        if last is not None and last[0] == seen:
            return last[1], last[2]  # not changed since: the folds after the outline
        scan = self._scans.get(doc.uri)
        if scan is None:
            scan = self._scans[doc.uri] = ChunkedStatements(outline.HEADS | folding.HEADS)
        since = self._lines_read.pop(doc.uri, None)
        found = scan.read(lines, None if since is None else buffer.changed_since(since))
        blocks = marked_blocks(lines) if found.markers else []
        if blocks:
            found = scan.read(ours_lines(lines))  # the next read cannot start from this one
        else:
            self._lines_read[doc.uri] = buffer.changes
        self._read[doc.uri] = (seen, found, blocks)
        return found, blocks

    def outline(self, doc: OpenDocument, encoding: str) -> bytes:
        """The JSON of the document's outline, positions in ``encoding`` (the last one, when
        the outline has not changed since)."""
        from lsp_server.outline_answer import OutlineWriter

        def build(found: Scanned, _: list[MarkedBlock]) -> bytes:
            writer = self._writers.get(doc.uri)
            if writer is None or writer.encoding != encoding:
                writer = self._writers[doc.uri] = OutlineWriter(encoding)
            return writer.write(doc.buffer.lines, found.placed())

        return self._answer(doc, "outline", build)

    def folds(
        self,
        doc: OpenDocument,
        answer: Callable[[list[tuple[int, int, str]], list[MarkedBlock]], T],
    ) -> T:
        """``answer`` of the folds as ``(start, end, kind)`` and the conflict blocks (each
        folds too); the last one, when they have not changed since."""
        from adt.abap.folding import KeptFolds

        def build(found: Scanned, blocks: list[MarkedBlock]) -> T:
            kept = self._folds.get(doc.uri)
            if kept is None:
                kept = self._folds[doc.uri] = KeptFolds()
            return answer(kept.ranges(found.placed(), found.comments), blocks)

        return self._answer(doc, "folds", build)

    def _answer(
        self,
        doc: OpenDocument,
        what: str,
        build: Callable[[Scanned, list[MarkedBlock]], T],
    ) -> T:
        found, blocks = self.scanned(doc)
        key = (found.key, tuple((b.start, b.split, b.end) for b in blocks))
        kept = self._answers.get((doc.uri, what))
        if kept is not None and kept[0] == key:
            return cast(T, kept[1])
        value = build(found, blocks)
        self._answers[(doc.uri, what)] = (key, value)
        return value


__all__ = ["DocumentStructure"]
