"""Typed results of the transport organizer and their parsers (``client.transports``).

Elements are matched by namespace (``tm`` = ``http://www.sap.com/cts/adt/tm``); the
children of a transport check's ``DATA`` carry no namespace.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from adt._xml import _parse
from adt.errors import UnexpectedResponseError

TM = "http://www.sap.com/cts/adt/tm"
ASX = "http://www.sap.com/abapxml"
CHKRUN = "http://www.sap.com/adt/checkrun"

# --- results --------------------------------------------------------------------------


@dataclass(frozen=True)
class RequestHeader:
    """``REQ_HEADER`` of a transport check: a request as the check lists it."""

    number: str
    function: str
    status: str
    owner: str
    text: str
    date: str = ""
    time: str = ""
    client: str = ""


@dataclass(frozen=True)
class ObjectLock:
    """The request (and its tasks) an object is already locked in."""

    pgmid: str
    object_type: str
    name: str
    request: RequestHeader
    tasks: tuple[RequestHeader, ...]


@dataclass(frozen=True)
class CheckMessage:
    """A ``CTS_MESSAGE`` (severity ``E`` means the change is not possible)."""

    severity: str
    area: str
    number: str
    text: str
    variables: tuple[str, ...] = ()


@dataclass(frozen=True)
class TransportCheck:
    """What ``POST /cts/transportchecks`` says about changing one object in one package."""

    pgmid: str
    object_type: str
    object_name: str
    operation: str
    package: str
    package_text: str
    recorded: bool
    software_component: str
    namespace: str
    result: str
    recording: bool
    existing_only: bool
    messages: tuple[CheckMessage, ...]
    requests: tuple[RequestHeader, ...]
    lock: ObjectLock | None
    uri: str

    @property
    def is_local(self) -> bool:
        """A local (``$``) package: no request is needed and ``corrNr`` is ignored."""
        return self.software_component == "LOCAL" or not self.recorded

    @property
    def locked_in(self) -> str:
        """The request the object is already locked in (it must be used), or ``""``."""
        return self.lock.request.number if self.lock else ""

    @property
    def needs_request(self) -> bool:
        """A change must name a request (unless the object is already locked in one)."""
        return not self.is_local and not self.locked_in


@dataclass(frozen=True)
class TransportObject:
    """An object recorded in a request or task (``tm:abap_object``)."""

    pgmid: str
    type: str
    name: str
    wbtype: str
    info: str
    description: str
    position: str
    locked: bool


@dataclass(frozen=True)
class TransportTask:
    number: str
    parent: str
    owner: str
    description: str
    type: str
    status: str
    objects: tuple[TransportObject, ...]

    @property
    def modifiable(self) -> bool:
        return self.status == "D"


@dataclass(frozen=True)
class TransportRequest:
    """A request with its tasks; ``objects`` are request-level entries (after release)."""

    number: str
    owner: str
    description: str
    type: str
    status: str
    target: str
    tasks: tuple[TransportTask, ...]
    objects: tuple[TransportObject, ...]

    @property
    def modifiable(self) -> bool:
        return self.status == "D"

    @property
    def all_objects(self) -> tuple[TransportObject, ...]:
        """Every object of every task (and of the request itself), without comments."""
        found = [o for t in self.tasks for o in t.objects] + list(self.objects)
        seen: set[tuple[str, str, str]] = set()
        unique = []
        for obj in found:
            key = (obj.pgmid, obj.type, obj.name)
            if obj.pgmid != "CORR" and key not in seen:
                seen.add(key)
                unique.append(obj)
        return tuple(unique)


@dataclass(frozen=True)
class UserRequests:
    """The user's workbench requests, modifiable and recently released."""

    modifiable: tuple[TransportRequest, ...]
    released: tuple[TransportRequest, ...]


@dataclass(frozen=True)
class ReleaseMessage:
    text: str
    type: str
    uri: str


@dataclass(frozen=True)
class ReleaseReport:
    """The release report; ``status`` ``released`` is success (sent with 200 either way)."""

    number: str
    status: str
    status_text: str
    messages: tuple[ReleaseMessage, ...]

    @property
    def released(self) -> bool:
        return self.status == "released"


# --- parsers --------------------------------------------------------------------------


def _text(element: etree._Element | None, name: str) -> str:
    if element is None:
        return ""
    return (element.findtext(name) or "").strip()


def _data(body: bytes) -> etree._Element:
    data = _parse(body).find(f"{{{ASX}}}values/DATA")
    if data is None:
        raise UnexpectedResponseError("no asx:values/DATA in the transport check answer")
    return data


def _header(element: etree._Element | None) -> RequestHeader:
    return RequestHeader(
        number=_text(element, "TRKORR"),
        function=_text(element, "TRFUNCTION"),
        status=_text(element, "TRSTATUS"),
        owner=_text(element, "AS4USER"),
        text=_text(element, "AS4TEXT"),
        date=_text(element, "AS4DATE"),
        time=_text(element, "AS4TIME"),
        client=_text(element, "CLIENT"),
    )


def _lock(data: etree._Element) -> ObjectLock | None:
    lock = data.find("LOCKS/CTS_OBJECT_LOCK")
    if lock is None:
        return None
    key = lock.find("OBJECT_KEY")
    holder = lock.find("LOCK_HOLDER")
    tasks = holder.findall("TASK_HEADERS/CTS_TASK_HEADER") if holder is not None else []
    return ObjectLock(
        pgmid=_text(key, "PGMID"),
        object_type=_text(key, "OBJECT"),
        name=_text(key, "OBJ_NAME"),
        request=_header(holder.find("REQ_HEADER") if holder is not None else None),
        tasks=tuple(_header(task) for task in tasks),
    )


def _message(element: etree._Element) -> CheckMessage:
    return CheckMessage(
        severity=_text(element, "SEVERITY"),
        area=_text(element, "ARBGB"),
        number=_text(element, "MSGNR"),
        text=_text(element, "TEXT"),
        variables=tuple(
            (v.text or "").strip() for v in element.findall("VARIABLES/CTS_VARIABLE/VARIABLE")
        ),
    )


def parse_check(body: bytes) -> TransportCheck:
    """The ``asx:abap`` answer of a transport check."""
    data = _data(body)
    return TransportCheck(
        pgmid=_text(data, "PGMID"),
        object_type=_text(data, "OBJECT"),
        object_name=_text(data, "OBJECTNAME"),
        operation=_text(data, "OPERATION"),
        package=_text(data, "DEVCLASS"),
        package_text=_text(data, "CTEXT"),
        recorded=_text(data, "KORRFLAG") == "X",
        software_component=_text(data, "DLVUNIT"),
        namespace=_text(data, "NAMESPACE"),
        result=_text(data, "RESULT"),
        recording=_text(data, "RECORDING") == "X",
        existing_only=_text(data, "EXISTING_REQ_ONLY") == "X",
        messages=tuple(_message(m) for m in data.findall("MESSAGES/CTS_MESSAGE")),
        requests=tuple(_header(r) for r in data.findall("REQUESTS/CTS_REQUEST/REQ_HEADER")),
        lock=_lock(data),
        uri=_text(data, "URI"),
    )


def _tm(element: etree._Element, name: str) -> str:
    return element.get(f"{{{TM}}}{name}", "")


def _objects(element: etree._Element) -> tuple[TransportObject, ...]:
    return tuple(
        TransportObject(
            pgmid=_tm(o, "pgmid"),
            type=_tm(o, "type"),
            name=_tm(o, "name"),
            wbtype=_tm(o, "wbtype"),
            info=_tm(o, "obj_info"),
            description=_tm(o, "obj_desc"),
            position=_tm(o, "position"),
            locked=_tm(o, "lock_status") == "X",
        )
        for o in element.findall(f"{{{TM}}}abap_object")
    )


def _task(element: etree._Element) -> TransportTask:
    return TransportTask(
        number=_tm(element, "number"),
        parent=_tm(element, "parent"),
        owner=_tm(element, "owner"),
        description=_tm(element, "desc"),
        type=_tm(element, "type"),
        status=_tm(element, "status"),
        objects=_objects(element),
    )


def _request(
    element: etree._Element, extra: list[etree._Element] | None = None
) -> TransportRequest:
    tasks = element.findall(f"{{{TM}}}task") + list(extra or [])
    return TransportRequest(
        number=_tm(element, "number"),
        owner=_tm(element, "owner"),
        description=_tm(element, "desc"),
        type=_tm(element, "type"),
        status=_tm(element, "status"),
        target=_tm(element, "target"),
        tasks=tuple(_task(t) for t in tasks),
        objects=_objects(element),
    )


def parse_user_requests(body: bytes) -> UserRequests:
    """The organizer tree, with or without the ``tm:target`` level."""
    root = _parse(body)
    modifiable = root.iterfind(f".//{{{TM}}}modifiable/{{{TM}}}request")
    released = root.iterfind(f".//{{{TM}}}released/{{{TM}}}request")
    return UserRequests(
        modifiable=tuple(_request(r) for r in modifiable),
        released=tuple(_request(r) for r in released),
    )


def parse_details(body: bytes) -> TransportRequest:
    """Request details; for a task number the asked task (a sibling of the request in the
    answer) is put back into the request's tasks."""
    root = _parse(body)
    request = root.find(f"{{{TM}}}request")
    if request is None:
        raise UnexpectedResponseError("no tm:request in the transport details")
    return _request(request, root.findall(f"{{{TM}}}task"))


def parse_release(body: bytes) -> ReleaseReport:
    root = _parse(body)
    report = root.find(f"{{{TM}}}releasereports/{{{CHKRUN}}}checkReport")
    if report is None:
        raise UnexpectedResponseError("no chkrun:checkReport in the release answer")

    def attr(element: etree._Element, name: str) -> str:
        return element.get(f"{{{CHKRUN}}}{name}", "")

    messages = report.iterfind(f"{{{CHKRUN}}}checkMessageList/{{{CHKRUN}}}checkMessage")
    return ReleaseReport(
        number=root.get(f"{{{TM}}}number", ""),
        status=attr(report, "status"),
        status_text=attr(report, "statusText"),
        messages=tuple(
            ReleaseMessage(attr(m, "shortText"), attr(m, "type"), attr(m, "uri")) for m in messages
        ),
    )
