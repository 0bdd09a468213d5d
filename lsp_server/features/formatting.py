"""Changing the buffer on request: the system's pretty printer (keyword case, indentation)
for the whole document or some lines, and the quick fixes the system offers at a position.
Each document keeps its last printed form by piece, so after an edit the printer sees only
the pieces around it (:meth:`adt.workbench.code.CodeAssist.format_kept`).

Every answer is a set of edits on the buffer the request was computed for; the editor
applies them (or refuses them when the document moved on meanwhile), and they reach us as
changes like any other. Nothing is saved.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adt.source.linediff import differences
from lsp_server.buffer import Edit, line_edits, split_text
from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument
from lsp_server.features import Feature
from lsp_server.uris import make_uri

if TYPE_CHECKING:
    from adt.areas.fixes import FixProposal
    from adt.workbench import Workbench
    from adt.workbench.printed import PrintedPieces


@dataclass(frozen=True)
class FixOffer:
    """A quick fix the system offers; ``index`` names it in :meth:`Formatting.fix_edits`."""

    index: int
    title: str
    kind: str


@dataclass(frozen=True)
class FixOffers:
    ticket: int
    version: int
    offers: tuple[FixOffer, ...]


@dataclass(frozen=True)
class DocumentEdits:
    """Edits of one document; ``version`` is the one they were computed for (``None``:
    a document the editor may not have open)."""

    uri: str
    version: int | None
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class _Evaluated:
    ticket: int
    version: int
    text: str
    proposals: tuple[FixProposal, ...]


def _key(line: str) -> str:
    """A line as the printer may rewrite it without moving it: case and blanks aside."""
    return " ".join(line.lower().split())


def only_lines(old: list[str], new: list[str], first: int, last: int) -> list[str]:
    """``old`` with only those changes towards ``new`` that lie within lines
    ``first``..``last`` (0-based, inclusive): lines are paired up case- and
    blank-insensitively (the printer recases and re-indents them), so a statement split
    onto two lines there is kept and a change elsewhere is not."""
    blocks = differences([_key(x) for x in old], [_key(x) for x in new])
    result: list[str] = []
    i = j = 0
    for i1, i2, j1, j2 in blocks:
        result.extend(_paired(old, new, i, i1, j, (first, last)))
        inside = first <= i1 and (i2 - 1 <= last if i2 > i1 else i1 <= last + 1)
        result.extend(new[j1:j2] if inside else old[i1:i2])
        i, j = i2, j2
    result.extend(_paired(old, new, i, len(old), j, (first, last)))
    return result


def _paired(
    old: list[str], new: list[str], i: int, stop: int, j: int, lines: tuple[int, int]
) -> list[str]:
    """Old lines ``i..stop`` paired with new lines from ``j``: the printer's where they
    lie within ``lines``."""
    first, last = lines
    return [new[j + k] if first <= i + k <= last else old[i + k] for k in range(stop - i)]


class Formatting(Feature):
    def __init__(self, ctx: WorkspaceContext) -> None:
        super().__init__(ctx)
        self._tickets = itertools.count(1)
        self._evaluated: dict[str, _Evaluated] = {}  # the last quick-fix evaluation
        self._printed: dict[str, PrintedPieces] = {}  # the last printed form, by piece
        self._printing: dict[str, asyncio.Lock] = {}  # a document's format in progress

    def document_closed(self, doc: OpenDocument) -> None:
        self._evaluated.pop(doc.uri, None)
        self._printed.pop(doc.uri, None)
        self._printing.pop(doc.uri, None)

    def _workbench(self, doc: OpenDocument) -> Workbench:
        return self.ctx.connections.workbench(doc.ref.system)

    # --- the pretty printer ---------------------------------------------------------------

    async def format(self, uri: str, lines: tuple[int, int] | None = None) -> DocumentEdits:
        """Edits that turn the buffer into its pretty-printed form; ``lines`` (0-based,
        inclusive) keeps only the changes within those lines (the printer still sees the
        whole text, because indentation depends on the enclosing blocks)."""
        doc = self.ctx.documents.require(uri)
        version, current = doc.version, list(doc.buffer.lines)
        code = self._workbench(doc).code
        kept = self._printed.get(uri)
        if kept is None:
            from adt.workbench.printed import PrintedPieces  # with the first format

            kept = self._printed[uri] = PrintedPieces()
        async with self._printing.setdefault(uri, asyncio.Lock()):  # one at a time
            formatted = split_text(await code.format_kept(current, doc.ref.object_url, kept))
        if lines is not None:
            formatted = only_lines(current, formatted, *lines)
        return DocumentEdits(uri, version, tuple(line_edits(current, formatted)))

    # --- quick fixes ----------------------------------------------------------------------

    async def fixes(self, uri: str, point: tuple[int, int]) -> FixOffers:
        """The quick fixes the system offers at ``point`` of the buffer."""
        doc = self.ctx.documents.require(uri)
        text, version = doc.buffer.text, doc.version
        line, column = point
        proposals = await self._workbench(doc).code.fixes(
            doc.ref.source_url, text, line + 1, column
        )
        evaluated = _Evaluated(next(self._tickets), version, text, tuple(proposals))
        self._evaluated[uri] = evaluated
        offers = tuple(FixOffer(i, p.name or p.kind, p.kind) for i, p in enumerate(proposals))
        return FixOffers(evaluated.ticket, version, offers)

    async def fix_edits(self, uri: str, ticket: int, index: int) -> list[DocumentEdits] | None:
        """The edits of offer ``index`` of evaluation ``ticket``, per document, against the
        text that was evaluated; ``None`` when that evaluation is no longer the last."""
        doc = self.ctx.documents.get(uri)
        evaluated = self._evaluated.get(uri)
        if doc is None or evaluated is None or evaluated.ticket != ticket:
            return None
        if not 0 <= index < len(evaluated.proposals):
            return None
        proposal = evaluated.proposals[index]
        result = await self._workbench(doc).code.apply_fix(proposal, evaluated.text)
        by_uri: dict[str, list[Edit]] = {}
        for edit in result.edits:
            target = make_uri(doc.ref.system, edit.source_url)
            start = (edit.start.line - 1, edit.start.column)
            end = (edit.end.line - 1, edit.end.column)
            by_uri.setdefault(target, []).append(Edit(start, end, edit.text))
        return [
            DocumentEdits(target, evaluated.version if target == uri else None, tuple(edits))
            for target, edits in by_uri.items()
        ]


__all__ = ["DocumentEdits", "FixOffer", "FixOffers", "Formatting"]
