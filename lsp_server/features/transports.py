"""Transport requests as the editor meets them: when a change needs a request, the user
picks one of their open requests (or a new one) once per object, and the choice holds for
the rest of the session; ``defaultTransport`` skips the question."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

from adt.source.errors import SourceError, TransportRequired
from lsp_server.context import WorkspaceContext
from lsp_server.features import Feature
from lsp_server.uris import make_uri, parse_uri

if TYPE_CHECKING:
    from adt.workbench import Workbench

NEW_REQUEST = "Create new request…"
_DESCRIPTION_LIMIT = 60


def object_name(object_url: str) -> str:
    """``/sap/bc/adt/programs/programs/zdemo_x`` → ``ZDEMO_X`` (namespaces decoded)."""
    return unquote(object_url.rstrip("/").rsplit("/", 1)[-1]).upper()


def _title(candidate: dict[str, Any]) -> str:
    description = str(candidate.get("description") or "").strip()
    return f"{candidate['number']} {description}".strip()


class TransportChoices(Feature):
    """The request each object's changes go into, per system, for this session."""

    def __init__(self, ctx: WorkspaceContext) -> None:
        super().__init__(ctx)
        self._chosen: dict[tuple[str, str], str] = {}

    def remembered(self, system: str, object_url: str) -> str | None:
        return self._chosen.get((system, object_url))

    def remember(self, system: str, object_url: str, number: str) -> None:
        self._chosen[(system, object_url)] = number

    def forget(self, system: str, object_url: str) -> None:
        self._chosen.pop((system, object_url), None)

    async def choose(
        self,
        system: str,
        object_url: str,
        *,
        package: str = "",
        candidates: Sequence[dict[str, Any]] | None = None,
        ask: bool = False,
    ) -> str | None:
        """The request for a change of ``object_url`` (or a new object there): the one
        chosen earlier, ``defaultTransport``, or the user's answer to a question listing
        their open requests and "Create new request…". ``None``: the user did not choose.
        ``ask``: ask even when a choice is known (the user wants to choose again)."""
        known = None if ask else self.remembered(system, object_url)
        known = known or (None if ask else self.ctx.settings.default_transport)
        if known:
            self.remember(system, object_url, known)
            return known
        workbench = self.ctx.connections.workbench(system)
        if candidates is None:
            need = await workbench.transports.need(object_url, package)
            if need.locked_in:  # the object is on a request already: changes go there
                self.remember(system, object_url, need.locked_in)
                return need.locked_in
            package = package or need.package
            candidates = [c.to_dict() for c in need.candidates]
        if not candidates:
            candidates = [r.to_dict() for r in await workbench.transports.open_requests()]
        titles = {_title(c): str(c["number"]) for c in candidates}
        name = object_name(object_url)
        where = f" in package {package}" if package else ""
        answer = await self.ctx.editor.ask(
            f"{name}{where} needs a transport request. Which one should the change go into?",
            [*titles, NEW_REQUEST],
        )
        if answer is None:
            return None
        number = titles.get(answer)
        if number is None:  # "Create new request…"
            number = await self._create(workbench, name, package, object_url)
        self.remember(system, object_url, number)
        return number

    async def choose_for(self, uri: str) -> dict[str, Any]:
        """``adt.chooseTransport``: the request the document's object is on, or the user's
        choice (asked even when one was chosen before); remembered for the session."""
        ref = parse_uri(uri)
        need = await self.ctx.connections.workbench(ref.system).transports.need(ref.object_url)
        found: dict[str, Any] = {"uri": uri, "objectUrl": ref.object_url, "package": need.package}
        if need.locked_in:
            self.remember(ref.system, ref.object_url, need.locked_in)
            return {**found, "transport": need.locked_in, "required": True, "lockedIn": True}
        if not need.required:
            return {**found, "transport": None, "required": False}
        chosen = await self.choose(
            ref.system,
            ref.object_url,
            package=need.package,
            candidates=[c.to_dict() for c in need.candidates],
            ask=True,
        )
        return {**found, "transport": chosen, "required": True}

    async def choose_after(
        self, system: str, object_url: str, refusal: SourceError, tried: str | None
    ) -> str | None:
        """The user's choice after the system refused a change: no request given
        (``TRANSPORT_REQUIRED``) or ``tried`` cannot take it (``TRANSPORT_INVALID``, then
        the question is asked even when ``tried`` was the default)."""
        self.forget(system, object_url)
        details = refusal.details
        candidates = details.get("candidates")
        return await self.choose(
            system,
            object_url,
            package=str(details.get("package") or ""),
            candidates=candidates if isinstance(candidates, list) else None,
            ask=tried is not None,
        )

    # --- a request's own life (the editor's transports view) ---------------------------

    async def my_requests(self, system: str | None) -> dict[str, Any]:
        """``adt.transportRequests``: the user's open requests, their tasks and objects, each
        object that has a document with its ``documentUri``."""
        service = self.ctx.connections.service(system)
        requests = await self.ctx.connections.workbench(system).organizer.my_requests()
        for request in requests:
            tasks = request["tasks"]
            for entry in [*request["objects"], *(o for t in tasks for o in t["objects"])]:
                if "objectUrl" in entry:
                    entry["documentUri"] = make_uri(service.system, entry["objectUrl"])
        return {"system": service.system, "requests": requests}

    async def check_release(self, number: str, system: str | None) -> dict[str, Any]:
        """``adt.checkRelease``: what a release would release and what stands in its way."""
        workbench = self.ctx.connections.workbench(system)
        return (await workbench.organizer.check_release(number)).to_dict()

    async def object_request(self, uri: str) -> dict[str, Any]:
        """``adt.objectTransport``: the request the document's object is on (``lockedIn``,
        empty when none) and whether a change needs one; asks nothing."""
        ref = parse_uri(uri)
        need = await self.ctx.connections.workbench(ref.system).transports.need(ref.object_url)
        return {"uri": uri, "system": ref.system, **need.to_dict()}

    async def request_objects(self, number: str, system: str | None) -> dict[str, Any]:
        """``adt.transportObjects``: a request's tasks and the objects of each."""
        workbench = self.ctx.connections.workbench(system)
        return (await workbench.organizer.contents(number)).to_dict()

    async def release(self, number: str, system: str | None) -> dict[str, Any]:
        """``adt.releaseTransport``: a task, or a request with the user's open tasks first;
        refused (RELEASE_REFUSED) naming inactive or locked objects."""
        workbench = self.ctx.connections.workbench(system)
        return await workbench.organizer.release(number)

    async def reassign(self, uri: str, number: str) -> dict[str, Any]:
        """``adt.reassignTransport``: move the document's object into request ``number``;
        the document's later saves go there."""
        ref = parse_uri(uri)
        workbench = self.ctx.connections.workbench(ref.system)
        moved = await workbench.organizer.reassign(ref.object_url, number)
        self.remember(ref.system, ref.object_url, moved["to"])
        return {"uri": uri, **moved}

    @staticmethod
    async def _create(workbench: Workbench, name: str, package: str, object_url: str) -> str:
        description = f"Changes to {name}"[:_DESCRIPTION_LIMIT]
        return await workbench.transports.create(description, package, object_url)


def not_chosen(
    name: str, refusal: SourceError, *, creating: bool = False, again: str = "Save again"
) -> TransportRequired:
    """The refusal in the editor's words, when the user chose no request (``again``: what
    the user does to be asked once more)."""
    if creating:
        what = "nothing was created. Create it again and choose a request, pass transport,"
    else:
        what = f"nothing was saved. {again} to choose one, run adt.chooseTransport,"
    return TransportRequired(
        f"{name} needs a transport request and none was chosen; {what} or set defaultTransport.",
        **refusal.details,
    )


__all__ = ["NEW_REQUEST", "TransportChoices", "not_chosen", "object_name"]
