"""Activation of a document's object; its messages become diagnostics."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from lsp_server.context import WorkspaceContext
from lsp_server.features import Feature
from lsp_server.features.diagnostics import Diagnostics
from lsp_server.features.locks import EditLocks
from lsp_server.results import ActivateResult
from lsp_server.uris import parse_uri

if TYPE_CHECKING:
    from adt.workbench import InactiveEntry


class Activation(Feature):
    def __init__(self, ctx: WorkspaceContext, locks: EditLocks, diagnostics: Diagnostics) -> None:
        super().__init__(ctx)
        self._locks = locks
        self._diagnostics = diagnostics

    async def activate(
        self,
        uri: str,
        report: Callable[[str], None] | None = None,
        together: Sequence[str] = (),
    ) -> ActivateResult:
        """Activate the object behind a document (saved changes only: SAP activates what is
        stored), with ``together`` (``adt://`` URIs or object URLs of the inactive objects
        it builds on, e.g. the table under a CDS view: one run, in dependency order). The
        editor's own lock is released first, as SAP refuses activation under a lock. A
        refusal names the inactive objects the object builds on (not yet in ``together``):
        the editor offers to activate them with it."""
        doc = self.ctx.documents.get(uri)
        ref = doc.ref if doc is not None else parse_uri(uri)
        dirty = [d.uri for d in self.ctx.documents.of_object(ref.object_url) if d.dirty]
        if dirty:
            return ActivateResult(uri, reason=f"unsaved changes in {', '.join(dirty)}: save first")
        if self._locks.holds(ref.object_url):
            await self._locks.release(ref)
        if report:
            report(f"Activating {ref.object_url}")
        others = [parse_uri(u).object_url if u.startswith("adt://") else u for u in together]
        outcome = await self.ctx.service_for(ref).activate(ref.object_url, others)
        self._diagnostics.publish_findings(ref.object_url, outcome.findings)
        for opened in self.ctx.documents.of_object(ref.object_url):
            self.ctx.documents.tell_base(opened)  # active now (or still not): the editor follows
        if report:
            report("done" if outcome.success else "failed")
        if outcome.success:
            return ActivateResult(uri, outcome)
        waiting = await self._inactive_under(ref.system, ref.object_url, others)
        return ActivateResult(uri, outcome, inactive_dependencies=waiting)

    async def _inactive_under(
        self, system: str, object_url: str, passed: Sequence[str]
    ) -> tuple[InactiveEntry, ...]:
        """The inactive objects an object builds on that were not passed with it."""
        bench = self.ctx.connections.workbench(system)
        under = await bench.dependencies.inactive_under(object_url)
        return tuple(entry for entry in under if entry.object_url not in passed)
