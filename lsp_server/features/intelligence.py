"""Code intelligence on the editor's buffer: completion (and what a proposal inserts and
is), element info for hovers, go to definition and where-used.

Everything but where-used posts the buffer's text, so answers match what the user sees,
saved or not. Positions here are the buffer's: 0-based lines and ``str`` indices (code
points, which is how ADT counts columns); the server converts them to the client's
encoding. Where-used reads the saved sources, so its positions are mapped between the saved
lines and the buffer's.
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cachetools import TTLCache

from adt.source.errors import InvalidArgument
from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument
from lsp_server.features import Feature
from lsp_server.uris import make_uri

if TYPE_CHECKING:
    from adt.workbench import SymbolInfo, Usage, Workbench

Point = tuple[int, int]
#: how long one where-used answer serves the same question again: VS Code asks twice for one
#: "Go to References" when there are two results (once more without the declaration)
USAGES_KEPT_SECONDS = 30.0


def _load_workbench() -> None:
    """Import what the first completion, hover, navigation or format would (nothing is
    used here)."""
    import adt.areas.completion
    import adt.areas.navigation
    import adt.workbench.printed
    import adt.workbench.service  # noqa: F401


@dataclass(frozen=True)
class Proposal:
    """A completion proposal replacing ``start``..``end`` of the cursor's line."""

    label: str
    kind: str
    description: str
    start: Point
    end: Point
    has_insertion: bool


@dataclass(frozen=True)
class ProposalList:
    ticket: int  # names this completion in a later resolve
    proposals: tuple[Proposal, ...]
    complete: bool


@dataclass(frozen=True)
class ProposalDetails:
    """What a resolved proposal is (``info``) and what choosing it inserts."""

    info: SymbolInfo | None
    insertion: str


@dataclass(frozen=True)
class Description:
    """A hover: what the identifier is, and the word it covers."""

    info: SymbolInfo
    start: Point
    end: Point


@dataclass(frozen=True)
class Signature:
    """A call's signature and the parameter named at the cursor (``None``: not named yet)."""

    info: SymbolInfo
    current: str | None


@dataclass(frozen=True)
class Target:
    """A place in a document (``column`` in code points); ``end_column`` marks the end of
    the name when known."""

    uri: str
    line: int
    column: int
    end_column: int | None = None


@dataclass(frozen=True)
class _Asked:
    ticket: int
    text: str
    line: int
    column: int


def is_name_char(char: str) -> bool:
    return char.isalnum() or char in "_/"


def word_at(line: str, index: int) -> tuple[int, int]:
    """The identifier around ``index`` (``start == end`` on none); a field symbol keeps
    its brackets (``<ls_row>``)."""
    start = index
    while start > 0 and is_name_char(line[start - 1]):
        start -= 1
    end = index
    while end < len(line) and is_name_char(line[end]):
        end += 1
    if start < end and start > 0 and line[start - 1] == "<" and line[end : end + 1] == ">":
        return start - 1, end + 1
    return start, end


class CodeIntelligence(Feature):
    def __init__(self, ctx: WorkspaceContext) -> None:
        super().__init__(ctx)
        self._tickets = itertools.count(1)
        self._asked: dict[str, _Asked] = {}  # the last completion per document
        # (uri, base token, saved line, column) → the where-used search, shared while it runs
        self._usages: TTLCache[tuple[str, str | None, int, int], asyncio.Task[tuple[Usage, ...]]]
        self._usages = TTLCache(maxsize=16, ttl=USAGES_KEPT_SECONDS)
        self._loading: asyncio.Future[None] | None = None  # see document_opened

    def document_opened(self, doc: OpenDocument) -> None:
        """Load the system's development-loop operations in a thread when the first document
        opens: the first completion, hover or navigation paid their import (about 0.2 s of
        CPU, whatever the document's size), which the server's start leaves out."""
        if self._loading is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._loading = loop.run_in_executor(None, _load_workbench)

    def document_closed(self, doc: OpenDocument) -> None:
        self._asked.pop(doc.uri, None)

    def workbench_of(self, doc: OpenDocument) -> Workbench:
        return self.ctx.connections.workbench(doc.ref.system)

    # --- completion -----------------------------------------------------------------------

    async def complete(self, uri: str, point: Point) -> ProposalList:
        """The system's proposals at ``point`` of the buffer."""
        doc = self.ctx.documents.require(uri)
        line, column = point
        text = doc.buffer.text
        found = await self.workbench_of(doc).code.completions(
            doc.ref.source_url, text, line + 1, column
        )
        asked = _Asked(next(self._tickets), text, line, column)
        self._asked[uri] = asked
        proposals = tuple(
            Proposal(
                item.label,
                item.kind,
                item.description,
                (line, max(0, column - item.prefix_length)),
                point,
                item.has_insertion,
            )
            for item in found.items
        )
        return ProposalList(asked.ticket, proposals, found.complete)

    async def proposal_details(
        self, uri: str, ticket: int, label: str, has_insertion: bool
    ) -> ProposalDetails | None:
        """What proposal ``label`` of completion ``ticket`` is (element info with the
        proposal written out in the text it was asked for) and its insertion (a call
        pattern). ``None`` when that completion is no longer the document's last one."""
        doc = self.ctx.documents.get(uri)
        asked = self._asked.get(uri)
        if doc is None or asked is None or asked.ticket != ticket:
            return None
        code = self.workbench_of(doc).code
        source_url = doc.ref.source_url
        lines = asked.text.split("\n")
        typed = lines[asked.line]
        start, _ = word_at(typed, asked.column)
        lines[asked.line] = typed[:start] + label + typed[asked.column :]
        written = "\n".join(lines)
        info = await code.symbol_info(source_url, written, asked.line + 1, start + 1)
        insertion = label
        if has_insertion:
            insertion = await code.insertion(
                source_url, asked.text, asked.line + 1, asked.column, label
            )
        return ProposalDetails(info, insertion)

    # --- element info, definitions --------------------------------------------------------

    async def describe(self, uri: str, point: Point) -> Description | None:
        """Element info of the identifier at ``point`` (``None`` on blanks and keywords)."""
        doc = self.ctx.documents.require(uri)
        line, column = point
        start, end = word_at(doc.buffer.lines[line], column)
        if start == end:
            return None
        inside = max(start, min(column, end - 1))  # the cursor may sit just after the word
        info = await self.workbench_of(doc).code.symbol_info(
            doc.ref.source_url, doc.buffer.text, line + 1, inside
        )
        return Description(info, (line, start), (line, end)) if info is not None else None

    async def signature(self, uri: str, point: Point) -> Signature | None:
        """The method or function called around ``point`` (element info of its name) and
        the parameter being written; ``None`` outside a call or for one without
        parameters."""
        from adt.abap.callsite import call_at

        doc = self.ctx.documents.require(uri)
        line, column = point
        text = doc.buffer.text
        site = call_at(text, line + 1, column)
        if site is None:
            return None
        info = await self.workbench_of(doc).code.symbol_info(
            doc.ref.source_url, text, site.line, site.column
        )
        if info is None or not info.parameters:
            return None
        return Signature(info, site.current)

    async def definition(self, uri: str, point: Point, *, implementation: bool) -> Target | None:
        """Where the identifier at ``point`` is declared (or implemented); another object
        or include opens as its ``adt://`` document."""
        doc = self.ctx.documents.require(uri)
        line, column = point
        found = await self.workbench_of(doc).code.definition(
            doc.ref.source_url, doc.buffer.text, line + 1, column, implementation=implementation
        )
        if found is None:
            return None
        target = make_uri(doc.ref.system, found.source_url)
        return Target(target, max(found.line - 1, 0), found.column)

    async def highlights(self, uri: str, point: Point) -> list[tuple[int, int, int, str]]:
        """Where the symbol at ``point`` occurs in this buffer (saved or not): (line,
        start, end, kind) with ADT's kinds (``definition``, ``implementation``, ``read``,
        ``write``)."""
        doc = self.ctx.documents.require(uri)
        line, column = point
        markers = await self.workbench_of(doc).code.occurrences(
            doc.ref.source_url, doc.buffer.text, line + 1, column
        )
        return [(m.line - 1, m.start, m.end, m.kind) for m in markers]

    # --- where-used -----------------------------------------------------------------------

    async def references(self, uri: str, point: Point) -> list[Target]:
        """Every use of the identifier at ``point``, from the saved sources, placed in the
        buffers of open documents. The same question on the same saved version within
        :data:`USAGES_KEPT_SECONDS` is answered from the first search (one where-used)."""
        doc = self.ctx.documents.require(uri)
        line, column = point
        saved_line = self._saved_line(doc, line)
        key = (uri, doc.base_token, saved_line, column)
        search = self._usages.get(key)
        if search is None or (search.done() and (search.cancelled() or search.exception())):
            search = asyncio.ensure_future(
                self.workbench_of(doc).usages.all(
                    doc.ref.source_url, line=saved_line + 1, column=column
                )
            )
            self._usages[key] = search
        usages = await asyncio.shield(search)
        targets = []
        for usage in usages:
            target_uri = make_uri(doc.ref.system, usage.source_url)
            at = self._buffer_line(target_uri, usage.line - 1)
            targets.append(Target(target_uri, at, usage.column, usage.end_column))
        return targets

    @staticmethod
    def _saved_line(doc: OpenDocument, line: int) -> int:
        """The saved line the buffer's ``line`` is; refused when it has unsaved changes
        (where-used would search another line)."""
        base = doc.buffer.base_line(line)
        if base is not None:
            return base
        raise InvalidArgument(
            "where-used searches the saved source, and the line under the cursor has unsaved "
            "changes: save first"
        )

    def _buffer_line(self, uri: str, saved_line: int) -> int:
        doc = self.ctx.documents.get(uri)
        if doc is None:
            return saved_line
        moved = doc.buffer.line_of_base(saved_line)
        return moved if moved is not None else saved_line


__all__ = [
    "CodeIntelligence",
    "Description",
    "Proposal",
    "ProposalDetails",
    "ProposalList",
    "Signature",
    "Target",
    "word_at",
]
