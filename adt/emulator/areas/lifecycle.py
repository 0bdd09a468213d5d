"""Object lifecycle: name validation, creation in a package, deletion.

Validation (``docs/protocol/object-lifecycle.md`` §1): one POST endpoint per family, all input
in the query. Classes, interfaces, programs and includes answer ``CHECK_RESULT=X`` or a 400
``exc:exception`` (``InvalidClifName`` OO/002, ``InvalidObjName`` SWB_TOOL/016); function
groups and modules always answer 200 with ``SEVERITY`` ``OK``/``ERROR``.

Creation (§2): ``POST`` of the metadata document to the type's collection, ``?corrNr=`` for
transportable packages; 200 with an empty body. Deletion (§3, ``DELETE <object>``) is in the
core resource, which calls :func:`~adt.emulator.object_changes.delete_object`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import unquote

from lxml import etree
from starlette.responses import Response

from adt.emulator import errors
from adt.emulator.areas import Route
from adt.emulator.documents import lifecycle as docs
from adt.emulator.documents.lifecycle import DeletionItem
from adt.emulator.kinds import REGISTRY
from adt.emulator.model import ADT, CLAS, FINC, FUGR, FUNC, PROG, Kind
from adt.emulator.object_changes import (
    NewObject,
    create_object,
    delete_unlocked,
    deletion_blocker,
    taken_by,
)

if TYPE_CHECKING:
    from adt.emulator.calls import Call
    from adt.emulator.state import SystemState

NS_ADTCORE = "{http://www.sap.com/adt/core}"
NS_CLASS = "{http://www.sap.com/adt/oo/classes}"
NS_INCLUDE = "{http://www.sap.com/adt/programs/includes}"
NS_DELETION = "{http://www.sap.com/adt/deletion}"


def _respond(body: str = "", content_type: str | None = None) -> Response:
    headers = {"content-type": content_type} if content_type else {}
    return Response(content=body.encode("utf-8"), status_code=200, headers=headers)


def _post_only(call: Call) -> None:
    if call.method != "POST":
        raise errors.method_not_supported(call.method)


def _param(call: Call, name: str) -> str:
    value = call.query.get(name)
    if not value:
        raise errors.parameter_missing(name)
    return value.strip().upper()


class Lifecycle:
    """The handlers; they share the state."""

    def __init__(self, state: SystemState) -> None:
        self.state = state

    # validation -----------------------------------------------------------------------
    def validate_oo(self, call: Call, match: re.Match[str]) -> Response:
        """Classes and interfaces share one name space (SEOCLASS)."""
        _post_only(call)
        name = _param(call, "objname")
        taken = taken_by(self.state, CLAS, name)
        if taken is not None:
            message = f"{taken.kind.label} {name} already exists"
            props = [("LONGTEXT", ""), *errors.t100("OO", "002", taken.kind.label, name)]
            raise errors.AdtException(400, "InvalidClifName", message, props)
        return _respond(docs.name_free(), docs.OO_NAME_CHECK)

    def validate_program(self, call: Call, match: re.Match[str]) -> Response:
        """Programs and includes (the ``InvalidObjName`` shape of the DDIC validations)."""
        _post_only(call)
        name = _param(call, "objname")
        taken = taken_by(self.state, PROG, name)
        if taken is not None:
            label = taken.kind.label
            message = f"{label} with the name {name} already exists"
            props = [("LONGTEXT", ""), *errors.t100("SWB_TOOL", "016", label, name)]
            raise errors.AdtException(400, "InvalidObjName", message, props)
        return _respond(docs.name_free(), docs.WB_NAME_CHECK)

    def validate_dictionary(self, call: Call, match: re.Match[str]) -> Response:
        """Dictionary, CDS and RAP objects: the ``InvalidObjName`` shape of the DDIC
        validations (400 if the name is taken, else ``CHECK_RESULT=X``)."""
        _post_only(call)
        name = _param(call, "objname")
        code = (call.query.get("objtype") or "").upper()
        kind = REGISTRY.by_code(code) or REGISTRY.kind_for_path(call.path[len(ADT) + 1 :])
        taken = taken_by(self.state, kind, name) if kind is not None else None
        if taken is not None:
            label = taken.kind.label
            message = f"{label} with the name {name} already exists"
            props = [("LONGTEXT", ""), *errors.t100("SWB_TOOL", "016", label, name)]
            raise errors.AdtException(400, "InvalidObjName", message, props)
        return _respond(docs.name_free(), docs.WB_NAME_CHECK)

    def validate_function(self, call: Call, match: re.Match[str]) -> Response:
        """Groups, modules, group includes: always 200, the verdict in ``SEVERITY``."""
        _post_only(call)
        name = _param(call, "objname")
        kind = REGISTRY.by_code(call.query.get("objtype") or "FUGR/F") or FUGR
        problem = self._function_problem(call, kind, name)
        if problem:
            return _respond(docs.status_message("ERROR", problem), docs.STATUS_MESSAGE)
        return _respond(docs.status_message("OK"), docs.STATUS_MESSAGE)

    def _function_problem(self, call: Call, kind: Kind, name: str) -> str:
        if kind in (FUNC, FINC):
            group = (call.query.get("fugrname") or "").upper()
            if taken_by(self.state, FUGR, group) is None:
                return f"Function group {group} does not exist"
        taken = taken_by(self.state, kind if kind in (FUNC, FINC) else FUGR, name)
        if taken is None:
            return ""
        noun = {FUNC: "Function module", FINC: "Include"}.get(kind, "Function group")
        return f"{noun} {name} already exists"

    # creation -------------------------------------------------------------------------
    def create(self, call: Call, match: re.Match[str]) -> Response:
        """``POST`` to a collection: the kind is the collection's, the body must agree."""
        _post_only(call)
        kind = next(k for k in REGISTRY.kinds if _same(k.collection, call.path))
        spec = self._read(call, kind, group=None)
        create_object(self.state, spec, call.query.get("corrNr"), call.user)
        return _respond()

    def create_in_group(self, call: Call, match: re.Match[str]) -> Response:
        """``POST …/groups/<group>/fmodules`` or ``…/includes``: the group is in the URL."""
        _post_only(call)
        kind = FUNC if match.group(2).lower() == "fmodules" else FINC
        group = _decode(match.group(1))
        spec = self._read(call, kind, group=group)
        create_object(self.state, spec, call.query.get("corrNr"), call.user)
        return _respond()

    def _read(self, call: Call, kind: Kind, group: str | None) -> NewObject:
        root = _root(call.body)
        if etree.QName(root).namespace != kind.namespace:
            raise errors.bad_request(f"Expected a {kind.root} document")
        name = root.get(f"{NS_ADTCORE}name") or ""
        declared = (root.get(f"{NS_ADTCORE}type") or kind.code).upper()
        if not name or declared != kind.code:
            raise errors.bad_request(f"Name and type {kind.code} are required")
        package = ""
        if group is None:
            ref = root.find(f"{NS_ADTCORE}packageRef")
            package = (ref.get(f"{NS_ADTCORE}name") or "") if ref is not None else ""
            if not package:
                raise errors.bad_request("A package reference (adtcore:packageRef) is required")
        context = root.find(f"{NS_INCLUDE}contextRef")
        superclass = root.find(f"{NS_CLASS}superClassRef")
        return NewObject(
            kind=kind,
            name=name,
            description=root.get(f"{NS_ADTCORE}description") or "",
            responsible=root.get(f"{NS_ADTCORE}responsible") or call.user,
            package=package,
            group=group,
            main_program=_name_of(context),
            final=root.get(f"{NS_CLASS}final", "true") != "false",
            superclass=_name_of(superclass),
            test_classes=any(
                inc.get(f"{NS_CLASS}includeType") == "testclasses"
                for inc in root.iter(f"{NS_CLASS}include")
            ),
            extra=REGISTRY.module(kind).extra_create_fields(root),
        )

    # the deletion service ------------------------------------------------------------
    def deletion_check(self, call: Call, match: re.Match[str]) -> Response:
        """``POST /deletion/check``: may each object be deleted, and which request holds it."""
        _post_only(call)
        items = [self._check_item(uri, call.user) for uri, _ in _deletion_objects(call.body)]
        return _respond(docs.deletion_check(items), docs.DELETION_CHECK)

    def _check_item(self, uri: str, user: str) -> DeletionItem:
        obj = self.state.find(uri)
        if obj is None:
            return _missing(self.state, uri)
        package = self.state.packages.get(obj.package)
        recording = package is not None and not package.is_local
        held = self.state.cts.holder(obj)
        request = (held.request.number, held.request.owner, held.request.text) if held else None
        blocker = deletion_blocker(self.state, obj, user)
        lock_user, text = blocker if blocker is not None else ("", "")
        return DeletionItem(
            obj.uri,
            obj.kind.code,
            obj.name,
            obj.package,
            blocker is None,
            text,
            lock_user,
            recording,
            request or ("", "", ""),
        )

    def deletion_delete(self, call: Call, match: re.Match[str]) -> Response:
        """``POST /deletion/delete``: no lock needed; the verdict is ``del:isDeleted``."""
        _post_only(call)
        items: list[DeletionItem] = []
        for uri, number in _deletion_objects(call.body):
            obj = self.state.find(uri)
            if obj is None:
                items.append(_missing(self.state, uri))
                continue
            text = delete_unlocked(self.state, obj, number or None, call.user)
            items.append(
                DeletionItem(obj.uri, obj.kind.code, obj.name, obj.package, not text, text)
            )
        return _respond(docs.deletion_result(items), docs.DELETION_RESULT)


def _deletion_objects(body: bytes) -> list[tuple[str, str]]:
    """``(uri, transport number)`` of each ``del:object`` of a deletion request."""
    return [
        (
            element.get(f"{NS_ADTCORE}uri") or "",
            (element.findtext(f"{NS_DELETION}transportNumber") or "").strip(),
        )
        for element in _root(body).iter(f"{NS_DELETION}object")
    ]


def _missing(state: SystemState, uri: str) -> DeletionItem:
    parsed = state.parse_path(uri)
    if parsed is None:
        return DeletionItem(uri, "", "", "", False, "No URI-Mapping defined for URI")
    name = _decode(parsed[0].rsplit("/", 1)[1])
    return DeletionItem(uri, "", name, "", False, f"{name} does not exist")


def _name_of(element: etree._Element | None) -> str | None:
    if element is None:
        return None
    return element.get(f"{NS_ADTCORE}name") or None


def _same(collection: str, path: str) -> bool:
    return path.rstrip("/").lower() == collection.lower()


def _decode(segment: str) -> str:
    return unquote(segment).upper()


def _root(body: bytes) -> etree._Element:
    try:
        parser = etree.XMLParser(resolve_entities=False, no_network=True)
        return etree.fromstring(body, parser)
    except etree.XMLSyntaxError as exc:
        raise errors.bad_request(f"The request body is not valid XML: {exc}") from None


def _collections() -> list[str]:
    """Collections a ``POST`` creates in (function modules and group includes are created
    below their group)."""
    nested = (FUNC, FINC)
    return sorted({kind.collection for kind in REGISTRY.kinds if kind not in nested})


def routes(state: SystemState) -> list[Route]:
    area = Lifecycle(state)
    group_members = re.compile(
        re.escape(FUGR.collection) + r"/([^/]+)/(fmodules|includes)/?", re.IGNORECASE
    )
    return [
        Route.at(f"{ADT}/oo/validation/objectname", area.validate_oo),
        Route.at(f"{ADT}/programs/validation", area.validate_program),
        Route.at(f"{ADT}/includes/validation", area.validate_program),
        Route.at(f"{ADT}/functions/validation", area.validate_function),
        *(Route.at(collection, area.create) for collection in _collections()),
        *(
            Route.at(f"{ADT}/{path}", area.validate_dictionary)
            for module in REGISTRY.modules
            for path in module.validation_paths
        ),
        Route(group_members, area.create_in_group),
        Route.at(f"{ADT}/deletion/check", area.deletion_check),
        Route.at(f"{ADT}/deletion/delete", area.deletion_delete),
    ]
