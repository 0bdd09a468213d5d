"""Object lifecycle: validate a new name, create objects in a package, delete them.

Endpoints and shapes: ``docs/protocol/object-lifecycle.md``. A name check answers in one of
two shapes (``CHECK_RESULT`` or ``SEVERITY``) or with a 400 ``exc:exception`` for a taken
class or program name; :class:`NameCheck` folds all three into one verdict. Creating needs
``transport`` in a transportable package (unless the system generates a request itself);
deleting locks the object in the stateful session and sends ``DELETE`` with the handle, as
abap-adt-api does.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from lxml import etree

from adt._xml import parse_document
from adt.areas.base import Area
from adt.areas.transports import transport_error
from adt.errors import AdtError, BadRequestError, T100Key, UnexpectedResponseError
from adt.kinds import KINDS, ObjectKind
from adt.urls import encode_name, object_url, validate_adt_path

ASX = "http://www.sap.com/abapxml"
ADTCORE = "http://www.sap.com/adt/core"


#: Types ``client.objects.create`` can create (every declared kind).
CREATABLE_TYPES = tuple(kind.code for kind in KINDS.kinds)


@dataclass(frozen=True)
class NameCheck:
    """The verdict of a name validation: ``ok``, else the system's reason."""

    ok: bool
    message: str = ""
    t100: T100Key | None = None


@dataclass(frozen=True)
class CreatedObject:
    """Where a new object lives; it starts inactive with the system's generated source."""

    object_type: str
    name: str
    object_url: str
    source_url: str


def _type(object_type: str) -> ObjectKind:
    found = KINDS.get(object_type)
    if found is None or found.code != object_type.upper():
        raise ValueError(
            f"cannot create {object_type!r}; creatable types: {', '.join(CREATABLE_TYPES)}"
        )
    return found


def parse_name_check(body: bytes) -> NameCheck:
    """``CHECK_RESULT=X`` (free) or ``SEVERITY`` ``OK``/``ERROR`` with ``SHORT_TEXT``."""
    data = parse_document(body, ASX, "abap").find(f"{{{ASX}}}values/DATA")
    if data is None:
        raise UnexpectedResponseError("no asx:values/DATA in the validation answer")
    severity = (data.findtext("SEVERITY") or "").strip()
    if severity:
        return NameCheck(severity != "ERROR", (data.findtext("SHORT_TEXT") or "").strip())
    return NameCheck((data.findtext("CHECK_RESULT") or "").strip() == "X")


def creation_body(
    object_type: str,
    name: str,
    description: str,
    *,
    package: str = "",
    responsible: str = "",
    group: str | None = None,
    main_program: str | None = None,
    test_classes: bool = False,
    based_on: str = "",
) -> bytes:
    """The metadata document a create POSTs (root element of the type, a package or, for a
    function module, a container reference; a service binding names the service definition
    ``based_on`` it binds)."""
    code = object_type.upper()
    kind = _type(code)
    prefix = kind.prefix
    root = etree.Element(
        f"{{{kind.namespace}}}{kind.root}", nsmap={prefix: kind.namespace, "adtcore": ADTCORE}
    )
    root.set(f"{{{ADTCORE}}}description", description)
    root.set(f"{{{ADTCORE}}}name", name.upper())
    root.set(f"{{{ADTCORE}}}type", code)
    if kind.nested:
        if not group:
            raise ValueError(f"a {kind.label.lower()} needs its function group (group=...)")
        ref = etree.SubElement(root, f"{{{ADTCORE}}}containerRef")
        ref.set(f"{{{ADTCORE}}}name", group.upper())
        ref.set(f"{{{ADTCORE}}}type", "FUGR/F")
        ref.set(f"{{{ADTCORE}}}uri", object_url("FUGR/F", group))
        return etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    for attribute, value in (("language", "EN"), ("masterLanguage", "EN")):
        root.set(f"{{{ADTCORE}}}{attribute}", value)
    if responsible:
        root.set(f"{{{ADTCORE}}}responsible", responsible.upper())
    etree.SubElement(root, f"{{{ADTCORE}}}packageRef").set(f"{{{ADTCORE}}}name", package.upper())
    if main_program and code == "PROG/I":
        context = etree.SubElement(root, f"{{{kind.namespace}}}contextRef")
        context.set(f"{{{ADTCORE}}}name", main_program.upper())
    if test_classes and code == "CLAS/OC":
        include = etree.SubElement(root, f"{{{kind.namespace}}}include")
        include.set(f"{{{ADTCORE}}}name", "CLAS/OC")
        include.set(f"{{{ADTCORE}}}type", "CLAS/OC")
        include.set(f"{{{kind.namespace}}}includeType", "testclasses")
    extra = _BODY_EXTRAS.get(code)
    if extra is not None and based_on:
        extra(root, kind, name.upper(), based_on.upper())
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def _binding(root: etree._Element, kind: ObjectKind, name: str, definition: str) -> None:
    """What ADT's new service binding wizard sends: the service (named like the binding,
    version 0001) on its service definition, bound as OData V2 for a UI (category 0)."""
    ns = kind.namespace
    services = etree.SubElement(root, f"{{{ns}}}services")
    services.set(f"{{{ns}}}name", name)
    content = etree.SubElement(services, f"{{{ns}}}content")
    content.set(f"{{{ns}}}version", "0001")
    ref = etree.SubElement(content, f"{{{ns}}}serviceDefinition")
    ref.set(f"{{{ADTCORE}}}name", definition)
    ref.set(f"{{{ADTCORE}}}type", "SRVD/SRV")
    ref.set(f"{{{ADTCORE}}}uri", object_url("SRVD/SRV", definition))
    binding = etree.SubElement(root, f"{{{ns}}}binding")
    for attribute, value in (("type", "ODATA"), ("version", "V2"), ("category", "0")):
        binding.set(f"{{{ns}}}{attribute}", value)
    etree.SubElement(binding, f"{{{ns}}}implementation").set(f"{{{ADTCORE}}}name", name)


#: What a kind's creation body says beyond name, description and package, from its basis.
_BODY_EXTRAS = {"SRVB/SVB": _binding}


class Lifecycle(Area):
    """``client.objects``: name validation, creation and deletion of repository objects
    of every declared kind (``adt.kinds``)."""

    async def validate_name(
        self,
        object_type: str,
        name: str,
        *,
        package: str = "",
        description: str = "",
        group: str | None = None,
    ) -> NameCheck:
        """Is ``name`` free for a new object of ``object_type``? (Function modules name
        their ``group`` instead of a package.)"""
        code = object_type.upper()
        params = {"objtype": code, "objname": name.upper(), "description": description}
        if _type(code).nested:
            params["fugrname"] = (group or "").upper()
        else:
            params["packagename"] = package.upper()
        try:
            response = await self._send(
                "POST", f"/sap/bc/adt/{_type(code).validation}", params=params
            )
        except BadRequestError as exc:
            if exc.type_id in ("InvalidClifName", "InvalidObjName"):
                return NameCheck(False, exc.info.text, exc.t100)
            raise
        return parse_name_check(response.content)

    async def create(
        self,
        object_type: str,
        name: str,
        *,
        description: str,
        package: str = "",
        responsible: str | None = None,
        transport: str | None = None,
        group: str | None = None,
        main_program: str | None = None,
        test_classes: bool = False,
        based_on: str = "",
    ) -> CreatedObject:
        """Create an object (inactive, with the generated skeleton source). ``transport``
        is the request for a transportable package (ignored for ``$`` packages); an include
        may name its ``main_program``; a function module names its ``group``; a service
        binding names the service definition it binds (``based_on``)."""
        code = object_type.upper()
        body = creation_body(
            code,
            name,
            description,
            package=package,
            responsible=responsible or self._client.profile.user,
            group=group,
            main_program=main_program,
            test_classes=test_classes,
            based_on=based_on,
        )
        path = "/sap/bc/adt/" + _type(code).collection.format(group=encode_name(group or "-"))
        params = {"corrNr": transport} if transport else None
        try:
            await self._send(
                "POST", path, params=params, headers={"Content-Type": "application/*"}, content=body
            )
        except AdtError as exc:
            raise transport_error(exc) from None
        url = object_url(code, name, group=group)
        source = f"{url}/source/main" if _type(code).source_based else ""
        return CreatedObject(code, name.upper(), url, source)

    async def delete(
        self, object_url: str, *, transport: str | None = None, lock_handle: str | None = None
    ) -> None:
        """Delete an object: lock it in the stateful session (unless ``lock_handle`` is a
        lock this client already holds), then ``DELETE`` with the handle. Without
        ``transport`` the request the lock result names is used."""
        path = validate_adt_path(object_url)
        corr_nr = transport
        if lock_handle is None:
            lock = await self._client.lock(path)
            lock_handle, corr_nr = lock.handle, transport or lock.corrnr or None
        params = {"lockHandle": lock_handle}
        if corr_nr:
            params["corrNr"] = corr_nr
        try:
            await self._send("DELETE", path, stateful=True, params=params)
        except AdtError as exc:
            with contextlib.suppress(AdtError):
                await self._client.unlock(path, lock_handle)
            raise transport_error(exc) from None
        self._client.forget_lock(path)  # the delete consumed the lock


__all__ = ["CREATABLE_TYPES", "CreatedObject", "Lifecycle", "NameCheck", "creation_body"]
