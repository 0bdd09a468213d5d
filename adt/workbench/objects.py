"""Creating and deleting objects, with the name check and the transport question first.

A creation runs the system's name validation (a taken or invalid name is
:class:`NameRefused` before anything is created), then asks whether the package needs a
request: a transportable package without ``transport`` is :class:`TransportRequired` naming
the candidates. Nothing is created in either case.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adt.kinds import KINDS as ALL_KINDS
from adt.source.errors import InvalidArgument, NameRefused, as_source_error
from adt.source.transports import is_transport_refusal, transport_check, transport_required
from adt.urls import object_url as url_of

if TYPE_CHECKING:
    from adt.client import AdtClient

KINDS = {name: code for name, code in ALL_KINDS.by_face_name().items() if code != "FUGR/I"}
"""The kinds of object the development loop creates, by the names both faces use: ``class``
… ``functionModule``, ``dataDefinition``, ``metadataExtension``, ``accessControl``,
``behaviorDefinition``, ``serviceDefinition``, ``table``, ``structure``, and the metadata
kinds ``dataElement``, ``domain``, ``tableType``, ``messageClass``, ``serviceBinding`` (one
XML document each, opened and changed as that document)."""

#: Kinds whose creation needs the object they build on (``basedOn``), by the types it has.
BASIS_REQUIRED = {"SRVB/SVB": ("SRVD/SRV",)}


@dataclass(frozen=True)
class NewObject:
    """What to create. ``function_group`` is the group of a function module (which has no
    package of its own); ``test_classes`` also creates a class's test-class include."""

    kind: str
    name: str
    description: str
    package: str = ""
    transport: str | None = None
    function_group: str | None = None
    test_classes: bool = False
    template: bool = False
    """Write the editor wizard's first text (:mod:`adt.workbench.templates`) into a new
    CDS-family object, which a system creates empty."""
    based_on: str = ""
    """What the template builds on: a view's data source, the entity a service definition
    exposes or an access control protects (a behavior definition: its own name); the
    service definition a service binding binds."""

    @property
    def type_code(self) -> str:
        code = KINDS.get(self.kind)
        if code is None:
            raise InvalidArgument(
                f"cannot create a {self.kind!r}; kinds: {', '.join(KINDS)}", kinds=list(KINDS)
            )
        return code

    def check(self) -> None:
        """Refuse what is wrong before any request."""
        code = self.type_code
        if not self.name.strip():
            raise InvalidArgument("a new object needs a name")
        if not self.description.strip():
            raise InvalidArgument("a new object needs a description")
        if code == "FUGR/FF" and not self.function_group:
            raise InvalidArgument("a function module needs its functionGroup")
        if code != "FUGR/FF" and not self.package:
            raise InvalidArgument("a new object needs a package")
        if self.test_classes and code != "CLAS/OC":
            raise InvalidArgument("only a class has a test-class include")
        if code in BASIS_REQUIRED and not self.based_on.strip():
            raise InvalidArgument(
                "a service binding needs basedOn: the service definition it binds"
            )


@dataclass(frozen=True)
class CreatedObject:
    kind: str
    name: str
    object_url: str
    source_url: str
    transport: str
    test_classes_url: str = ""

    def to_dict(self) -> dict[str, Any]:
        found = {
            "kind": self.kind,
            "name": self.name,
            "objectUrl": self.object_url,
            "sourceUrl": self.source_url,
            "transport": self.transport,
        }
        if self.test_classes_url:
            found["testClassesUrl"] = self.test_classes_url
        return found


class ObjectLifecycle:
    """Create and delete objects of one system; ``forget`` drops what the source operations
    cached of an object that was created or deleted."""

    def __init__(self, client: AdtClient, *, forget: Callable[[str], None]) -> None:
        self._client = client
        self._forget = forget

    async def create(self, new: NewObject) -> CreatedObject:
        new.check()
        code = new.type_code
        objects = self._client.objects
        verdict = await objects.validate_name(
            code,
            new.name,
            package=new.package,
            description=new.description,
            group=new.function_group,
        )
        if not verdict.ok:
            raise NameRefused(
                verdict.message or f"{new.name.upper()} cannot be used", name=new.name.upper()
            )
        first = await self._first_text(new) if new.template else None
        await self._check_basis(new)
        target = url_of(code, new.name, group=new.function_group)
        transport = new.transport or await self._transport_for(target, new.package)
        try:
            created = await objects.create(
                code,
                new.name,
                description=new.description,
                package=new.package,
                transport=transport or None,
                group=new.function_group,
                test_classes=new.test_classes,
                based_on=new.based_on if code in BASIS_REQUIRED else "",
            )
        except Exception as exc:
            if is_transport_refusal(exc):
                raise await transport_required(self._client, target, new.package) from exc
            raise as_source_error(exc) from exc
        if first is not None:
            await self._write_first(created.source_url, created.object_url, first, transport)
        self._forget(created.object_url)
        tests = f"{created.object_url}/includes/testclasses" if new.test_classes else ""
        return CreatedObject(
            new.kind, created.name, created.object_url, created.source_url, transport, tests
        )

    async def _check_basis(self, new: NewObject) -> None:
        """A binding on a service definition that does not exist is refused before
        anything is created (the system would create a binding that cannot activate)."""
        types = BASIS_REQUIRED.get(new.type_code)
        if types is None:
            return
        from adt.workbench.templates import find_basis

        try:
            await find_basis(self._client, new.based_on, types)
        except Exception as exc:
            raise as_source_error(exc) from exc

    async def _first_text(self, new: NewObject) -> str | None:
        """The template's text, or a refusal (an unknown basis) before anything is created."""
        from adt.workbench.templates import first_text

        try:
            return await first_text(
                self._client, new.type_code, new.name, new.description, new.based_on
            )
        except Exception as exc:
            raise as_source_error(exc) from exc

    async def _write_first(
        self, source_url: str, object_url: str, text: str, transport: str
    ) -> None:
        """Write the first text under a lock, only into the empty source just created
        (a system that generated a frame keeps it)."""
        try:
            async with self._client.locked(object_url) as held:
                current = await self._client.read_source(source_url, stateful=True)
                if current.text.strip():
                    return
                await self._client.write_source(
                    source_url, text, lock_handle=held.handle, corr_nr=transport or None
                )
        except Exception as exc:
            raise as_source_error(exc) from exc

    async def _transport_for(self, target: str, package: str) -> str:
        """``""`` when no request is needed; a refusal naming the candidates otherwise."""
        if not package:  # a function module: its group's request applies
            return ""
        check = await transport_check(self._client, target, package)
        if check is None or not check.needs_request:
            return check.locked_in if check is not None else ""
        raise await transport_required(self._client, target, package)

    async def delete(self, object_url: str, *, transport: str | None = None) -> None:
        """Delete an object (locks it for the deletion; the lock ends with the object)."""
        try:
            await self._client.objects.delete(object_url, transport=transport)
        except Exception as exc:
            if is_transport_refusal(exc):
                raise await transport_required(self._client, object_url) from exc
            raise as_source_error(exc) from exc
        finally:
            self._forget(object_url)


__all__ = ["BASIS_REQUIRED", "KINDS", "CreatedObject", "NewObject", "ObjectLifecycle"]
