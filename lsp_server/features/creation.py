"""New objects from the editor: a class … function module, or a CDS-family object from its
template (a view over the table or view named ``basedOn``, a behavior definition for its
root entity, a service definition exposing ``basedOn``), with the transport question asked
as on save; the answer names the document the editor opens next."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from adt.source.errors import InvalidArgument, TransportRequired
from adt.urls import object_url
from lsp_server.context import WorkspaceContext
from lsp_server.features import Feature
from lsp_server.features.transports import TransportChoices, not_chosen
from lsp_server.uris import make_uri

if TYPE_CHECKING:
    from adt.workbench import CreatedObject, NewObject, Workbench


def _text(spec: dict[str, Any], key: str) -> str:
    value = spec.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise InvalidArgument(f"{key} must be a string, not {value!r}")
    return value.strip()


def new_object(spec: dict[str, Any]) -> NewObject:
    """The ``adt.createObject`` argument as a :class:`~adt.workbench.NewObject`."""
    from adt.workbench import NewObject

    return NewObject(
        kind=_text(spec, "kind"),
        name=_text(spec, "name").upper(),
        description=_text(spec, "description"),
        package=_text(spec, "package").upper(),
        transport=_text(spec, "transport").upper() or None,
        function_group=_text(spec, "functionGroup").upper() or None,
        template=True,  # the editor's wizard: a CDS-family object starts from its template
        based_on=_text(spec, "basedOn").upper(),
    )


class ObjectCreation(Feature):
    def __init__(self, ctx: WorkspaceContext, transports: TransportChoices) -> None:
        super().__init__(ctx)
        self._transports = transports

    async def create(self, spec: dict[str, Any]) -> dict[str, Any]:
        """Create the object ``spec`` describes; when its package needs a request and none
        is given, the user chooses one (or ``defaultTransport`` applies)."""
        new = new_object(spec)
        new.check()  # a wrong kind, a missing name: refused before any question
        workbench = self.ctx.connections.workbench(_text(spec, "system") or None)
        created = await self._create(workbench, new)
        system = workbench.system
        if created.transport:
            self._transports.remember(system, created.object_url, created.transport)
        result = {
            "uri": make_uri(system, created.object_url),
            "objectUrl": created.object_url,
            "name": created.name,
            "kind": created.kind,
            "system": system,
        }
        if created.transport:
            result["transport"] = created.transport
        return result

    async def _create(self, workbench: Workbench, new: NewObject) -> CreatedObject:
        try:
            return await workbench.objects.create(new)
        except TransportRequired as refusal:
            target = object_url(new.type_code, new.name, group=new.function_group)
            chosen = await self._transports.choose_after(workbench.system, target, refusal, None)
            if chosen is None:
                raise not_chosen(new.name, refusal, creating=True) from refusal
            return await workbench.objects.create(replace(new, transport=chosen))


__all__ = ["ObjectCreation", "new_object"]
