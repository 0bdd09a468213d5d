"""The transport organizer: requests and tasks, transport checks, and corrNr on lock,
write, create and delete.

The request table lives in :mod:`adt.emulator.cts` (``state.cts``); lock results, writes,
creates and deletes consult it through :mod:`adt.emulator.object_changes`. This module serves
the ``/cts`` resources (``docs/protocol/transports.md``) and ``/system/users``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import unquote

from lxml import etree
from starlette.responses import Response

from adt.emulator import cts_moves, errors, stamps
from adt.emulator.areas import Route
from adt.emulator.cts import Entry, Request, check_key, entry_for, is_customer_name, object_uri
from adt.emulator.cts_search import SearchConfiguration
from adt.emulator.documents import organizer, transports
from adt.emulator.kinds import REGISTRY
from adt.emulator.model import ADT, FINC, FUNC, Kind, RepoObject

if TYPE_CHECKING:
    from adt.emulator.calls import Call
    from adt.emulator.state import SystemState

BASE = f"{ADT}/cts/transportrequests"
TWO_WEEKS = 14 * 86_400
TEXT_PLAIN = "text/plain; charset=utf-8"


def _respond(
    body: str = "", content_type: str | None = None, headers: dict[str, str] | None = None
) -> Response:
    all_headers = dict(headers or {})
    if content_type:
        all_headers["content-type"] = content_type
    return Response(content=body.encode("utf-8"), status_code=200, headers=all_headers)


def _only(call: Call, *methods: str) -> None:
    if call.method not in methods:
        raise errors.method_not_supported(call.method)


def _data_fields(body: bytes) -> dict[str, str]:
    """The children of ``asx:abap/asx:values/DATA`` (any prefix), as text."""
    try:
        root = etree.fromstring(body, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError as exc:
        raise errors.bad_request(f"The request body is not valid XML: {exc}") from None
    data = next((e for e in root.iter() if etree.QName(e).localname == "DATA"), None)
    if data is None:
        raise errors.bad_request("The request has no DATA element")
    return {etree.QName(child).localname: (child.text or "").strip() for child in data}


def _kind_of(key: str) -> Kind:
    kind = REGISTRY.kind_of_uri(key)
    assert kind is not None, key
    return kind


def _package_facts(local: bool, customer: bool, responsible: str) -> dict[str, str]:
    """``AS4USER``, ``PDEVCLASS``, ``DLVUNIT``, ``NAMESPACE`` of a local, customer or SAP
    package, as the A4H checks show them."""
    if local:
        facts = (responsible, "", "LOCAL", "/*/")
    elif customer:
        facts = ("", "", "HOME", "/0CUST/")
    else:
        facts = ("SAP", "SAP", "SAP_BASIS", "/0SAP/")
    keys = ("package_user", "layer", "software_component", "namespace")
    return dict(zip(keys, facts, strict=True))


class Transports:
    """The handlers; they share the state (the pipeline holds its lock)."""

    def __init__(self, state: SystemState) -> None:
        self.state = state
        self.cts = state.cts

    # transport checks -----------------------------------------------------------------
    def _object_for(self, uri: str, package: str) -> RepoObject:
        """The object a URI names, or a stand-in for one that does not exist yet."""
        parsed = self.state.parse_path(uri)
        if parsed is None:
            raise errors.bad_request(f"{uri} is not the URI of a repository object")
        key = parsed[0]
        existing = self.state.objects.get(key)
        if existing is not None:
            return existing
        segments = key.split("/")
        group = unquote(segments[6]).upper() if _kind_of(key) in (FUNC, FINC) else None
        name = unquote(segments[-1]).upper()
        return RepoObject(_kind_of(key), name, package, "", "", 0, group=group)

    def check(self, call: Call, match: re.Match[str]) -> Response:
        """``POST /cts/transportchecks``: package facts, candidate requests, the holder."""
        _only(call, "POST")
        fields = _data_fields(call.body)
        uri = fields.get("URI", "")
        obj = self._object_for(uri, fields.get("DEVCLASS", "").upper())
        name = (fields.get("DEVCLASS") or obj.package).upper()
        package = self.state.packages.get(name)
        if package is None:
            raise errors.package_not_found(name)
        body = transports.check_data(
            self._check(obj, package.name, fields.get("OPERATION", ""), uri)
        )
        return _respond(body, transports.CHECK_DATA)

    def _check(self, obj: RepoObject, name: str, operation: str, uri: str) -> transports.CheckData:
        package = self.state.packages[name]
        local, customer = package.is_local, package.is_local or is_customer_name(package.name)
        messages: tuple[transports.CtsMessage, ...] = ()
        if not customer and is_customer_name(obj.name):
            text = (
                f"Customer object {obj.kind.r3tr} {obj.name} cannot be assigned to package {name}"
            )
            variables = (obj.kind.r3tr, obj.name, name)
            messages = (transports.CtsMessage("E", "TO", "140", variables, text),)
        held = None if local else self.cts.holder(obj)
        needs_request = not (local or held or messages)
        pgmid, object_type = check_key(obj.kind)
        return transports.CheckData(
            pgmid=pgmid,
            object_type=object_type,
            name=obj.name,
            operation=operation,
            package=name,
            package_text=package.description,
            recorded=not local,
            **_package_facts(local, customer, package.responsible),
            uri=uri,
            tadir_package=obj.package or name,
            recording=needs_request,
            existing_only=held is not None and operation.upper() == "U",
            messages=messages,
            requests=self._modifiable() if needs_request else [],
            holder=(held.request, [held.task]) if held else None,
            client=self.state.client,
        )

    def _modifiable(self) -> list[Request]:
        found = [r for r in self.cts.requests.values() if r.modifiable and r.function == "K"]
        return sorted(found, key=lambda r: r.number, reverse=True)

    # requests -------------------------------------------------------------------------
    def create(self, call: Call, match: re.Match[str]) -> Response:
        """``POST /cts/transports``: a new request; the answer is its object-record path."""
        _only(call, "POST")
        fields = _data_fields(call.body)
        request = self.cts.create_request(fields.get("REQUEST_TEXT", ""), call.user)
        return _respond(f"/com.sap.cts/object_record/{request.number}", TEXT_PLAIN)

    def listing(self, call: Call, match: re.Match[str]) -> Response:
        """``GET /cts/transportrequests?user=…&targets=…`` (or ``configUri=…``)."""
        _only(call, "GET")
        config_uri = call.query.get("configUri")
        config = self.cts.configurations.find(config_uri) if config_uri else None
        user, statuses = _filters(call, config)
        targets = (call.query.get("targets") or call.query.get("target") or "").lower() == "true"
        now = stamps.now_seconds()
        mine = [r for r in self.cts.requests.values() if user in r.users()]
        mine.sort(key=lambda r: r.number, reverse=True)
        modifiable = [r for r in mine if r.modifiable and "D" in statuses]
        released = [
            r for r in mine if not r.modifiable and now - r.changed <= TWO_WEEKS and "R" in statuses
        ]
        sections = [
            organizer.TreeSection("modifiable", modifiable),
            organizer.TreeSection("released", released),
        ]
        body = organizer.organizer_tree(
            user, sections, targets=targets, describe=self.cts.description
        )
        return _respond(body, f"{organizer.ORGANIZER_TREE}; charset=utf-8")

    def request(self, call: Call, match: re.Match[str]) -> Response:
        """One request or task: details (GET), delete (DELETE), change owner (PUT)."""
        number = match.group(1).upper()
        if call.method == "GET":
            return self._details(number)
        if call.method == "DELETE":
            self.cts.delete(number)
            return _respond()
        if call.method == "PUT":
            return self._modify(call, number)
        raise errors.method_not_supported(call.method)

    def _modify(self, call: Call, number: str) -> Response:
        """``PUT`` with ``tm:useraction``: ``changeowner`` (also without a body, with
        ``?targetuser=``), ``removeobject`` from a task, ``addobject`` to a request."""
        action = _root_attr(call.body, "useraction", "changeowner")
        if action in ("removeobject", "addobject"):
            keys = _abap_objects(call.body)
            with self.state.lock:
                if action == "removeobject":
                    cts_moves.remove_objects(self.state, number, keys)
                else:
                    cts_moves.add_objects(self.state, number, keys, call.user.upper())
            body = transports.acknowledgement(number, call.user.upper(), action)
            return _respond(body, f"{organizer.ORGANIZER}; charset=utf-8")
        if action != "changeowner":
            raise errors.bad_request(f"User action {action} is not supported")
        user = call.query.get("targetuser") or _root_attr(call.body, "targetuser")
        self.cts.set_owner(number, user.upper())
        body = transports.acknowledgement(number, user.upper(), "changeowner")
        return _respond(body, f"{organizer.ORGANIZER}; charset=utf-8")

    def _details(self, number: str) -> Response:
        found = self.cts.lookup(number)
        if found is None:
            raise errors.AdtException(
                400,
                "ADT_TM_COMMON_EXCEPTION",
                f"Task/request {number} does not exist in system {self.state.sid}",
                namespace="com.sap.adt.tm",
            )
        request, task = found
        body = organizer.request_details(request, task, self.cts.description)
        changed = (task or request).changed
        headers = {"etag": organizer.compact(changed) + "007"}
        return _respond(body, f"{organizer.ORGANIZER}; charset=utf-8", headers)

    def release(self, call: Call, match: re.Match[str]) -> Response:
        """``POST …/<NR>/newreleasejobs`` (and the ignore-locks / ignore-ATC variants)."""
        _only(call, "POST")
        locked = None
        if match.group(2) != "relwithignlock":
            with self.state.lock:
                locked = cts_moves.locked_refusal(self.state, match.group(1))
        outcome = locked or self.cts.release(match.group(1))
        body = transports.release_report(outcome, match.group(2))
        return _respond(body, f"{organizer.ORGANIZER}; charset=utf-8")

    def add_task(self, call: Call, match: re.Match[str]) -> Response:
        """``POST …/<NR>/tasks``: a task for another user (``tm:targetuser``)."""
        _only(call, "POST")
        user = _root_attr(call.body, "targetuser").upper()
        task = self.cts.add_task(match.group(1), user)
        headers = {"location": organizer.adt_uri(task.number)}
        body = transports.new_task(task.number, user)
        return _respond(body, f"{organizer.ORGANIZER}; charset=utf-8", headers)

    def reference(self, call: Call, match: re.Match[str]) -> Response:
        """``GET …/reference?obj_name=&obj_wbtype=&pgmid=``: the object's ADT URI."""
        _only(call, "GET")
        name = (call.query.get("obj_name") or "").upper()
        wanted = Entry(
            (call.query.get("pgmid") or "R3TR").upper(),
            (call.query.get("obj_wbtype") or "").upper(),
            name,
            "",
            "",
        )
        found = next(
            (o for o in self.state.objects.values() if entry_for(o).key == wanted.key), None
        )
        uri = found.uri if found is not None else object_uri(wanted)
        if uri is None:
            raise errors.not_found(None, name)
        return _respond(transports.reference(uri), f"{organizer.ORGANIZER}; charset=utf-8")

    # value helps ----------------------------------------------------------------------
    def users(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "GET")
        body = transports.users_feed(sorted(self.state.users), stamps.iso(stamps.now_seconds()))
        return _respond(body, "application/atom+xml;type=feed")

    def targets(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "GET")
        return _respond(transports.no_targets(), f"{transports.NAMED_ITEMS}; charset=utf-8")

    def configurations(self, call: Call, match: re.Match[str]) -> Response:
        """GET: the caller's saved searches; POST: a new one with the defaults (201)."""
        _only(call, "GET", "POST")
        store = self.cts.configurations
        if call.method == "GET":
            body = transports.configurations(store.of(call.user), self.state.client)
            return _respond(body, f"{transports.CONFIGURATIONS}; charset=utf-8")
        config = store.create(call.user)
        location = f"{transports.CONFIGURATIONS_URI}/{config.id}"
        return self._configuration(config, status=201, headers={"location": location})

    def configuration(self, call: Call, match: re.Match[str]) -> Response:
        """GET one saved search, or PUT its properties (abap-adt-api's setTransportsConfig)."""
        _only(call, "GET", "PUT")
        config = self.cts.configurations.find(match.group(1))
        if config is None:
            raise errors.no_suitable_resource()
        if call.method == "PUT":
            self.cts.configurations.update(config, _properties(call.body))
        return self._configuration(config)

    def _configuration(
        self, config: SearchConfiguration, status: int = 200, headers: dict[str, str] | None = None
    ) -> Response:
        body = transports.configuration(config, self.state.client)
        response = _respond(
            body,
            f"{transports.CONFIGURATION}; charset=utf-8",
            {**(headers or {}), "etag": config.etag},
        )
        response.status_code = status
        return response


def _properties(body: bytes) -> dict[str, str]:
    """``configuration:property`` key → text of a PUT body."""
    try:
        root = etree.fromstring(body, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        raise errors.bad_request("The request body is not valid XML") from None
    return {
        e.get("key", ""): (e.text or "").strip()
        for e in root.iter()
        if etree.QName(e).localname == "property"
    }


def _filters(call: Call, config: SearchConfiguration | None) -> tuple[str, str]:
    """Whose requests and which statuses (``D``, ``R``) a listing shows."""
    if config is not None:
        user = config.properties.get("User") or call.user
        statuses = ("D" if config.flag("Modifiable") else "") + (
            "R" if config.flag("Released") else ""
        )
        return user.upper(), statuses if config.flag("WorkbenchRequests") else ""
    user = (call.query.get("user") or call.user).upper()
    return user, (call.query.get("requestStatus") or "DR").upper()


def _root(body: bytes) -> etree._Element:
    try:
        return etree.fromstring(body, etree.XMLParser(resolve_entities=False, no_network=True))
    except etree.XMLSyntaxError:
        raise errors.bad_request("The request body is not valid XML") from None


def _root_attr(body: bytes, local: str, default: str | None = None) -> str:
    """An attribute of the ``tm:root`` request body (``tm:targetuser``); ``default`` when
    the body is empty or lacks it."""
    if default is not None and not body.strip():
        return default
    value = _root(body).get(f"{{{organizer.TM_NS}}}{local}") or default
    if not value:
        raise errors.parameter_missing(local)
    return value


def _abap_objects(body: bytes) -> list[tuple[str, str, str]]:
    """``(pgmid, type, name)`` of every ``tm:abap_object`` of a ``tm:root`` body."""
    tm = f"{{{organizer.TM_NS}}}"
    keys = [
        (
            e.get(tm + "pgmid", "R3TR").upper(),
            e.get(tm + "type", "").upper(),
            e.get(tm + "name", ""),
        )
        for e in _root(body).iter(tm + "abap_object")
    ]
    if not keys or not all(k[1] and k[2] for k in keys):
        raise errors.parameter_missing("abap_object")
    return [(p, t, n.upper()) for p, t, n in keys]


def routes(state: SystemState) -> list[Route]:
    area = Transports(state)

    def under(pattern: str) -> re.Pattern[str]:
        return re.compile(re.escape(BASE) + pattern, re.IGNORECASE)

    return [
        Route.at(f"{ADT}/cts/transportchecks", area.check),
        Route.at(f"{ADT}/cts/transports", area.create),
        Route.at(BASE, area.listing),
        Route.at(f"{BASE}/reference", area.reference),
        Route.at(f"{BASE}/valuehelp/target", area.targets),
        Route.at(f"{BASE}/searchconfiguration/configurations", area.configurations),
        Route(under(r"/searchconfiguration/configurations/(\w+)/?"), area.configuration),
        Route(under(r"/(\w+)/(newreleasejobs|relwithignlock|relObjigchkatc)/?"), area.release),
        Route(under(r"/(\w+)/tasks/?"), area.add_task),
        Route(under(r"/(\w+)/?"), area.request),
        Route.at(f"{ADT}/system/users", area.users),
    ]
