"""Extract method from the editor, all or nothing, over ADT's extract-method refactoring.

The selection must be saved lines (ADT reads the saved source). ADT proposes the method
and its signature and answers the replacements (declaration, call, implementation); they
are placed in the buffers as a rename's are (:meth:`Renaming.place`: an open document keeps
its unsaved edits elsewhere) and, once the editor applied them, written by
:meth:`Renaming.commit` — locked, token-checked, every source or none, then activated.
"""

from __future__ import annotations

from dataclasses import dataclass

from adt.source.errors import InvalidArgument
from lsp_server.context import WorkspaceContext
from lsp_server.features import Feature
from lsp_server.features.renaming import RenamePlan, Renaming
from lsp_server.features.transports import TransportChoices

Point = tuple[int, int]

__all__ = ["ExtractPlan", "Extracting"]


@dataclass(frozen=True)
class ExtractPlan:
    """The edit to show (a rename's plan: every document and source) and what ADT
    proposed: the method's name and its signature."""

    plan: RenamePlan
    method: str
    signature: str


class Extracting(Feature):
    def __init__(
        self, ctx: WorkspaceContext, renaming: Renaming, transports: TransportChoices
    ) -> None:
        super().__init__(ctx)
        self._renaming = renaming
        self._transports = transports

    def _saved_lines(self, uri: str, start: Point, end: Point) -> tuple[int, int]:
        """The saved lines (0-based) of the selection; a selection ending at the start of
        a line leaves that line out."""
        doc = self.ctx.documents.require(uri)
        last = end[0] - 1 if end[1] == 0 and end[0] > start[0] else end[0]
        first_saved, last_saved = doc.buffer.base_line(start[0]), doc.buffer.base_line(last)
        if first_saved is None or last_saved is None or last_saved - first_saved != last - start[0]:
            raise InvalidArgument(
                "extract method works on the saved source, and the selection has unsaved "
                "changes: save first"
            )
        return first_saved, last_saved

    async def plan(self, uri: str, start: Point, end: Point, name: str = "") -> ExtractPlan:
        """ADT's proposal for the selected statements, placed in the buffers; refused
        before the editor sees anything when a source changed on the server."""
        if start >= end:
            raise InvalidArgument("select the statements to extract")
        doc = self.ctx.documents.require(uri)
        first, last = self._saved_lines(uri, start, end)
        await self._renaming.require_current(doc, "extract")
        workbench = self.ctx.connections.workbench(doc.ref.system)
        transport = self._transports.remembered(doc.ref.system, doc.ref.object_url) or ""
        last_text = doc.buffer.lines[end[0] - 1 if end[1] == 0 and end[0] > start[0] else end[0]]
        extracted = await workbench.extraction.propose(
            doc.ref.source_url, (first + 1, 0), (last + 1, len(last_text)), name, transport
        )
        documents, sources = [], []
        for affected in extracted.changes.affected:
            placed, source = await self._renaming.place(doc.ref.system, affected)
            documents.append(placed)
            sources.append(source)
        await workbench.renaming.verify(sources, "extract")
        plan = RenamePlan(
            doc.ref.system,
            "the selected statements",
            f"{extracted.name}( )",
            tuple(documents),
            tuple(sources),
        )
        return ExtractPlan(plan, extracted.name, extracted.proposal.signature())
