"""Rename across objects from the editor, all or nothing.

ADT plans the rename on the saved sources (evaluate, preview). The plan is placed in the
editor's buffers: an open document's replacements land where its saved lines are now, so
its unsaved edits stay and are written with the rename; an unopened source gets them on its
saved text. The editor confirms and applies the plan (the handler sends it as an annotated
``WorkspaceEdit``); only then :meth:`Renaming.commit` writes every source through
:class:`adt.workbench.renaming.Renaming` — each object locked, each source checked against
the version its buffer was based on, all or none — adopts the written versions as the open
documents' bases and activates the objects together.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adt.source.errors import InvalidArgument, VersionConflict
from adt.workbench.object_renaming import moved_object
from lsp_server.buffer import Edit, apply_edits
from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument
from lsp_server.features import Feature
from lsp_server.features.intelligence import word_at
from lsp_server.features.locks import EditLocks
from lsp_server.features.object_renaming import commit_move, move_request, unsaved_parts
from lsp_server.features.transports import TransportChoices
from lsp_server.uris import make_uri

if TYPE_CHECKING:
    from adt.areas.refactoring import AffectedSource, TextReplacement
    from adt.workbench import Workbench
    from adt.workbench.object_renaming import ObjectMove
    from adt.workbench.renaming import RenameOutcome, SourceEdit

Point = tuple[int, int]

#: How long to wait for the editor's changes after it answered that it applied an edit:
#: Neovim sends them debounced, after its answer.
APPLY_WAIT = 3.0


@dataclass(frozen=True)
class DocumentPlan:
    """The replacements in one document, in the coordinates of ``lines`` (the open
    buffer's, or the saved text's); ``version`` is the open document's version."""

    uri: str
    name: str
    version: int | None
    lines: tuple[str, ...]
    edits: tuple[Edit, ...]
    saved_lines: tuple[int, ...]


@dataclass(frozen=True)
class RenamePlan:
    system: str
    old_name: str
    new_name: str
    documents: tuple[DocumentPlan, ...]
    sources: tuple[SourceEdit, ...]
    move: ObjectMove | None = None  # a class or interface renamed itself

    @property
    def places(self) -> int:
        return sum(len(d.edits) for d in self.documents)

    @property
    def objects(self) -> list[str]:
        return sorted({s.name for s in self.sources})


@dataclass(frozen=True)
class Prepared:
    start: Point
    end: Point
    name: str


class Renaming(Feature):
    def __init__(
        self, ctx: WorkspaceContext, locks: EditLocks, transports: TransportChoices
    ) -> None:
        super().__init__(ctx)
        self._locks = locks
        self._transports = transports

    def _workbench(self, doc: OpenDocument) -> Workbench:
        return self.ctx.connections.workbench(doc.ref.system)

    async def prepare(self, uri: str, point: Point) -> Prepared:
        """The name at ``point`` if ADT can rename it (one evaluate; refusals raise)."""
        doc, saved_line, start, end = self._cursor(uri, point)
        evaluated = await self._workbench(doc).source.client.refactorings.rename_evaluate(
            doc.ref.source_url, saved_line + 1, start, end
        )
        return Prepared((point[0], start), (point[0], end), evaluated.old_name)

    def _cursor(self, uri: str, point: Point) -> tuple[OpenDocument, int, int, int]:
        doc = self.ctx.documents.require(uri)
        line, column = point
        text = doc.buffer.lines[line] if 0 <= line < len(doc.buffer.lines) else ""
        start, end = word_at(text, column)
        if start == end:
            raise InvalidArgument("place the cursor on the name to rename")
        saved_line = doc.buffer.base_line(line)
        if saved_line is None:
            raise InvalidArgument(
                "rename works on the saved source, and the line under the cursor has unsaved "
                "changes: save first"
            )
        return doc, saved_line, start, end

    async def plan(self, uri: str, point: Point, new_name: str) -> RenamePlan:
        """Every place of the symbol at ``point``, in the buffers, and the new texts;
        refused before the editor sees anything when a source changed on the server."""
        doc, saved_line, start, end = self._cursor(uri, point)
        await self.require_current(doc)
        renaming = self._workbench(doc).renaming
        transport = self._transports.remembered(doc.ref.system, doc.ref.object_url) or ""
        proposal = await renaming.propose(
            doc.ref.source_url, saved_line + 1, start, end, new_name, transport
        )
        documents, sources = [], []
        for affected in proposal.affected:
            placed, source = await self.place(doc.ref.system, affected)
            documents.append(placed)
            sources.append(source)
        move = moved_object(proposal)
        if move is not None:
            await self._workbench(doc).object_renaming.check_name(move)
            await move_request(self.ctx, self._transports, doc.ref.system, move)
            sources += unsaved_parts(self.ctx, move, {s.source_url for s in sources})
        await renaming.verify(sources)
        return RenamePlan(
            doc.ref.system,
            proposal.old_name,
            proposal.new_name,
            tuple(documents),
            tuple(sources),
            move,
        )

    async def require_current(self, doc: OpenDocument, verb: str = "rename") -> None:
        """ADT plans on the server's source at the buffer's saved line numbers: once the
        source moved on since the buffer was read, those lines are others. Refuse first,
        naming who changed it, instead of planning on the wrong lines."""
        if doc.base_token is None:
            return
        from adt.workbench.renaming import SourceEdit

        ref = doc.ref
        mine = SourceEdit(ref.source_url, ref.object_url, ref.object_name, doc.base_token, "", 0)
        await self._workbench(doc).renaming.verify([mine], verb)

    async def place(self, system: str, affected: AffectedSource) -> tuple[DocumentPlan, SourceEdit]:
        """The replacements of one source in its open buffer (or its saved text), each
        checked to still find its old text there (a replacement may span lines)."""
        from adt.workbench.renaming import SourceEdit

        uri = make_uri(system, affected.source_url)
        doc = self.ctx.documents.get(uri)
        if doc is not None and doc.base_token is not None:
            lines, token, version = list(doc.buffer.lines), doc.base_token, doc.version
        else:
            read = await self.ctx.connections.service(system).get_source_v2(
                object_source_url=affected.source_url, fresh=True
            )
            lines, token, version = read.content.split("\n"), read.token, None
        placed = doc if version is not None else None
        edits = [_placed(placed, lines, r, affected.name) for r in affected.replacements]
        plan = DocumentPlan(
            uri,
            affected.name,
            version,
            tuple(lines),
            tuple(edits),
            tuple(r.line for r in affected.replacements),
        )
        text = apply_edits(lines, edits)
        source = SourceEdit(
            affected.source_url, affected.object_url, affected.name, token, text, len(edits)
        )
        return plan, source

    async def unapplied(self, plan: RenamePlan, within: float = APPLY_WAIT) -> list[str]:
        """The objects whose open buffers do not hold the planned text once the editor's
        changes arrived, waiting up to ``within`` seconds for them. VS Code's refactor
        preview lets the user leave changes out and still answers "applied": writing the
        whole plan then would put on the system what the buffers do not show."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            differing = self._differing(plan)
            remaining = deadline - loop.time()
            if not differing or remaining <= 0:
                return differing
            await self.ctx.documents.next_change(remaining)

    def _differing(self, plan: RenamePlan) -> list[str]:
        # the sources the editor was handed changes of (a class rename also writes the
        # unsaved parts of the old class, which got none)
        handed = {placed.uri for placed in plan.documents}
        names = set()
        for source in plan.sources:
            uri = make_uri(plan.system, source.source_url)
            if uri in handed and _left_out(self.ctx.documents.get(uri), source):
                names.add(source.name)
        return sorted(names)

    async def commit(self, plan: RenamePlan) -> RenameOutcome:
        """Write every source (all or none), adopt the written versions in the open
        documents, then activate the objects together."""
        if not plan.sources:
            raise InvalidArgument("nothing to rename")
        for object_url in {s.object_url for s in plan.sources}:  # onEdit locks the edit began
            await self._locks.wait_for(object_url)
        renaming = self.ctx.connections.workbench(plan.system).renaming
        first = plan.sources[0].object_url
        transport = self._transports.remembered(plan.system, first)
        if plan.move is not None:
            asked = self._transports.remembered(plan.system, plan.move.old_url)
            planned = (plan.system, plan.sources)
            return await commit_move(self.ctx, self._locks, plan.move, planned, asked)
        outcome = await renaming.write_all(plan.sources, transport, activate=False)
        texts = {s.source_url: s.text for s in plan.sources}
        for written in outcome.written:
            doc = self.ctx.documents.get(make_uri(plan.system, written.source_url))
            if doc is not None:
                doc.adopt_base(texts[written.source_url], written.token)
                await self._locks.release_if_unused(doc.ref)
        objects = sorted({s.object_url for s in plan.sources})
        activation, failure = await renaming.activate(objects)
        from adt.workbench.renaming import RenameOutcome

        return RenameOutcome(outcome.written, activation, failure)


def _left_out(doc: OpenDocument | None, source: SourceEdit) -> bool:
    """Whether the editor's buffer lacks some of the source's planned changes."""
    if doc is None:  # editors open a document to change it: this one got nothing
        return True
    # a buffer based on another version (opened after a colleague's change) is the token
    # check's to refuse, with who changed it
    return doc.base_token in (None, source.token) and doc.buffer.text != source.text


def _placed(doc: OpenDocument | None, lines: list[str], r: TextReplacement, name: str) -> Edit:
    """Replacement ``r`` (saved lines) where those lines are in ``doc``'s buffer now (in
    ``lines`` as they are when no document is open)."""
    first: int | None = r.line - 1
    last: int | None = r.last_line - 1
    if doc is not None:
        first = doc.buffer.line_of_base(r.line - 1)
        last = doc.buffer.line_of_base(r.last_line - 1)
    found = None
    if first is not None and last is not None and 0 <= first <= last < len(lines):
        found = "\n".join(lines[first : last + 1])[r.start : r.end + _before(lines, first, last)]
    if first is None or last is None or found is None or found.upper() != r.old.upper():
        said = r.old.strip().split("\n")[0]
        raise VersionConflict(
            f"nothing was changed: line {r.line} of {name} has unsaved changes where the "
            f"refactoring must change {said}: save or undo them first",
            objects=[name],
        )
    return Edit((first, r.start), (last, r.end), r.new)


def _before(lines: list[str], first: int, last: int) -> int:
    """How many characters lines ``first``..``last - 1`` take with their line breaks."""
    return sum(len(line) + 1 for line in lines[first:last])


__all__ = ["DocumentPlan", "Prepared", "RenamePlan", "Renaming"]
