"""Transport answers besides the organizer tree: transport checks, release reports, the
object reference, the user list and the small ``tm:root`` acknowledgements (A4H ``a4h/cts``)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from .. import stamps
from ..cts import ReleaseOutcome, Request, Task
from ..cts_search import DEFAULTS, SearchConfiguration
from ..xmlwriter import ATOM_NS, DECL, atom_link, esc_text, tag, text_tag
from .common import NS_ADTCORE
from .organizer import REL, SAPGUI, TITLE, TM_NS, adt_uri, vit_uri

CHECK_DATA = (
    "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.transport.service.checkData"
)
CHKRUN_NS = "http://www.sap.com/adt/checkrun"
NAMED_ITEMS = "application/vnd.sap.adt.nameditems.v1+xml"
CONFIGURATIONS = "application/vnd.sap.adt.configurations.v1+xml"


@dataclass(frozen=True)
class CtsMessage:
    """A ``CTS_MESSAGE`` of a transport check (``SEVERITY`` E/W/I, T100 area and number)."""

    severity: str
    area: str
    number: str
    variables: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class CheckData:
    """Everything a transport check (``POST /cts/transportchecks``) reports."""

    pgmid: str
    object_type: str
    name: str
    operation: str
    package: str
    package_text: str
    recorded: bool
    package_user: str
    layer: str
    software_component: str
    namespace: str
    uri: str
    tadir_package: str
    recording: bool = False
    existing_only: bool = False
    messages: tuple[CtsMessage, ...] = ()
    requests: Sequence[Request] = ()
    holder: tuple[Request, Sequence[Task]] | None = None
    client: str = "001"

    @property
    def result(self) -> str:
        return "E" if any(m.severity in ("E", "A", "X") for m in self.messages) else "S"


def _day(ts: int) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(ts))


def _clock(ts: int) -> str:
    return time.strftime("%H:%M:%S", time.gmtime(ts))


def _flag(value: bool) -> str:
    return "X" if value else ""


def _req_header(request: Request, client: str) -> str:
    return tag(
        "REQ_HEADER",
        (),
        text_tag("TRKORR", request.number)
        + text_tag("TRFUNCTION", request.function)
        + text_tag("TRSTATUS", request.status)
        + tag("TARSYSTEM")
        + text_tag("AS4USER", request.owner)
        + text_tag("AS4DATE", _day(request.changed))
        + text_tag("AS4TIME", _clock(request.changed))
        + text_tag("AS4TEXT", request.text)
        + text_tag("CLIENT", client),
    )


def _task_header(task: Task) -> str:
    return tag(
        "CTS_TASK_HEADER",
        (),
        text_tag("TRKORR", task.number)
        + text_tag("TRFUNCTION", task.function or "X")
        + text_tag("TRSTATUS", task.status)
        + text_tag("AS4USER", task.owner)
        + text_tag("AS4DATE", _day(task.changed))
        + text_tag("AS4TIME", _clock(task.changed))
        + text_tag("AS4TEXT", task.text),
    )


def _cts_request(request: Request, tasks: Sequence[Task], client: str) -> str:
    headers = "".join(_task_header(t) for t in tasks)
    return _req_header(request, client) + tag("REQ_ATTRS") + tag("TASK_HEADERS", (), headers)


def _message(msg: CtsMessage) -> str:
    variables = "".join(
        tag("CTS_VARIABLE", (), text_tag("VARIABLE", v)) for v in (*msg.variables, "", "", "")[:4]
    )
    return tag(
        "CTS_MESSAGE",
        (),
        text_tag("SEVERITY", msg.severity)
        + text_tag("SPRSL", "E")
        + text_tag("ARBGB", msg.area)
        + text_tag("MSGNR", msg.number)
        + tag("VARIABLES", (), variables)
        + text_tag("TEXT", msg.text),
    )


def _locks(data: CheckData) -> str:
    if data.holder is None:
        return tag("LOCKS")
    request, tasks = data.holder
    key = tag(
        "OBJECT_KEY",
        (),
        text_tag("PGMID", data.pgmid)
        + text_tag("OBJECT", data.object_type)
        + text_tag("OBJ_NAME", data.name),
    )
    holder = tag("LOCK_HOLDER", (), _cts_request(request, tasks, data.client))
    return tag("LOCKS", (), tag("CTS_OBJECT_LOCK", (), key + holder))


def check_data(data: CheckData) -> str:
    """The ``asx:abap`` answer: every element, in A4H's order, empty ones self-closed."""
    fields = (
        text_tag("PGMID", data.pgmid)
        + text_tag("OBJECT", data.object_type)
        + text_tag("OBJECTNAME", data.name)
        + text_tag("OPERATION", data.operation)
        + text_tag("DEVCLASS", data.package)
        + text_tag("CTEXT", data.package_text)
        + text_tag("KORRFLAG", _flag(data.recorded))
        + text_tag("AS4USER", data.package_user)
        + text_tag("PDEVCLASS", data.layer)
        + text_tag("DLVUNIT", data.software_component)
        + text_tag("NAMESPACE", data.namespace)
        + text_tag("RESULT", data.result)
        + text_tag("RECORDING", _flag(data.recording))
        + text_tag("EXISTING_REQ_ONLY", _flag(data.existing_only))
        + tag("MESSAGES", (), "".join(_message(m) for m in data.messages))
        + tag(
            "REQUESTS",
            (),
            "".join(
                tag("CTS_REQUEST", (), _cts_request(r, (), data.client)) for r in data.requests
            ),
        )
        + _locks(data)
        + text_tag("TADIRDEVC", data.tadir_package)
        + text_tag("URI", data.uri)
        + tag("CTS_PROJECTS")
    )
    return (
        DECL
        + '<asx:abap version="1.0" xmlns:asx="http://www.sap.com/abapxml"><asx:values>'
        + tag("DATA", (), fields)
        + "</asx:values></asx:abap>"
    )


def _longtext(area: str, number: str, variables: tuple[str, ...]) -> str:
    query = "&".join(f"msgv{i}={v}" for i, v in enumerate(variables, start=1))
    return f"/sap/bc/adt/messageclass/{area}/messages/{number}/longtext?language=E&{query}"


def release_report(outcome: ReleaseOutcome, action: str) -> str:
    """``tm:root`` with one ``chkrun:checkReport`` (always sent with 200, also on failure)."""
    number = outcome.number
    started = f"{time.strftime('%Y%m%d%H%M%S', time.gmtime(outcome.started))} "
    if outcome.released:
        status_text = f"Transport request/task {number} was successfully released"
    else:
        status_text = f"Release of transport request/task {number} has failed\n See Problems view"
    messages = "".join(
        tag(
            "chkrun:checkMessage",
            [("chkrun:uri", adt_uri(number)), ("chkrun:type", "E"), ("chkrun:shortText", m.text)],
            atom_link(
                _longtext(m.area, m.number, m.variables),
                "http://www.sap.com/adt/relations/longtext",
                type="text/html",
            ),
        )
        for m in outcome.messages
    )
    report = tag(
        "chkrun:checkReport",
        [
            ("chkrun:reporter", "transportrelease"),
            ("chkrun:triggeringUri", adt_uri(number)),
            ("chkrun:status", outcome.status),
            ("chkrun:statusText", status_text),
            ("xmlns:chkrun", CHKRUN_NS),
        ],
        tag("chkrun:checkMessageList", (), messages) if messages else None,
    ).replace("&#10;", "\n")  # A4H writes the newline of the status text literally
    findings = atom_link(
        f"{adt_uri(number)}/displayatcfindings",
        REL + "displayatcfindings",
        type="application/xml",
        title="Diplay ATC Findings",
    )
    attrs = [
        ("tm:useraction", action),
        ("tm:releasetimestamp", started if outcome.started is not None else "0 "),
        ("tm:number", number),
        ("xmlns:tm", TM_NS),
    ]
    return DECL + tag("tm:root", attrs, findings + tag("tm:releasereports", (), report))


def reference(uri: str) -> str:
    """``GET …/transportrequests/reference``: the object's ADT URI in one link."""
    link = atom_link(uri, REL + "objecturi")
    attrs = [("adtcore:name", ""), ("xmlns:tm", TM_NS), ("xmlns:adtcore", NS_ADTCORE)]
    return DECL + tag("tm:root", attrs, link)


def acknowledgement(number: str, user: str, action: str) -> str:
    """``tm:root`` echoing a change of owner."""
    attrs = [
        ("tm:targetuser", user),
        ("tm:useraction", action),
        ("tm:number", number),
        ("xmlns:tm", TM_NS),
    ]
    return DECL + tag("tm:root", attrs)


def new_task(number: str, user: str) -> str:
    """``tm:root`` of ``POST …/<NR>/tasks`` (A4H ``task-create-adduser``)."""
    attrs = [
        ("tm:targetuser", user),
        ("tm:useraction", "tasks"),
        ("tm:number", number),
        ("tm:uri", adt_uri(number)),
        ("xmlns:tm", TM_NS),
    ]

    def link(rel: str, suffix: str, title: str) -> str:
        return atom_link(adt_uri(number) + suffix, REL + rel, type="application/xml", title=title)

    links = (
        atom_link(
            adt_uri(number),
            REL + "adturi",
            type="application/vnd.sap.adt.transportrequests.v1+xml",
            title=TITLE + "ADT URI",
        )
        + atom_link(vit_uri(number), REL + "vituri", type=SAPGUI, title=TITLE + "VIT URI")
        + link("consistencycheck", "/consistencychecks", TITLE + "Request/Task Consistency Check")
        + link("releasejobs", "/releasejobs", TITLE + "Request/Task Release")
        + link("modify", "", TITLE + "Request/Modify")
    )
    return DECL + tag("tm:root", attrs, links)


def users_feed(users: Sequence[str], updated: str) -> str:
    """``GET /system/users``: an Atom feed, id and title per user."""
    entries = "".join(
        f"<atom:entry><atom:id>{esc_text(u)}</atom:id><atom:title>{esc_text(u)}</atom:title>"
        "</atom:entry>"
        for u in users
    )
    return (
        DECL
        + f'<atom:feed xmlns:atom="{ATOM_NS}"><atom:author><atom:name>SAP AG</atom:name>'
        + f"</atom:author><atom:title>Users</atom:title><atom:updated>{updated}</atom:updated>"
        + entries
        + "</atom:feed>"
    )


def no_targets() -> str:
    """The target value help of a system without transport routes (A4H: none)."""
    count = text_tag("nameditem:totalItemCount", "0")
    ns = [("xmlns:nameditem", "http://www.sap.com/adt/nameditem")]
    return DECL + tag("nameditem:namedItemList", ns, count)


CONFIGURATION = "application/vnd.sap.adt.configuration.v1+xml"
CONFIGURATIONS_URI = "/sap/bc/adt/cts/transportrequests/searchconfiguration/configurations"
_CONFIG_NS = "http://www.sap.com/adt/configuration"


def _config_attrs(config: SearchConfiguration, client: str) -> list[tuple[str, str | None]]:
    return [
        ("createdBy", config.user),
        ("createdAt", stamps.iso(config.created)),
        ("changedBy", config.user),
        ("changedAt", stamps.iso(config.changed)),
        ("client", client),
        ("xmlns:configuration", _CONFIG_NS),
    ]


def configurations(items: Sequence[SearchConfiguration], client: str) -> str:
    """The user's saved searches (A4H ``transport-search-configurations-list``)."""
    body = "".join(
        tag(
            "configuration:configuration",
            _config_attrs(c, client),
            atom_link(
                f"{CONFIGURATIONS_URI}/{c.id}",
                "http://www.sap.com/adt/categories/configurations",
                type=CONFIGURATION,
                etag=c.etag,
            ),
        )
        for c in items
    )
    ns = [("xmlns:configurations", "http://www.sap.com/adt/configurations")]
    return DECL + tag("configurations:configurations", ns, body)


def configuration(config: SearchConfiguration, client: str) -> str:
    """One saved search with its properties (A4H ``transport-search-configuration-created``)."""
    mandatory = {key: required for key, _, required in DEFAULTS}
    properties = "".join(
        text_tag(
            "configuration:property",
            value,
            [("key", key), ("isMandatory", "true" if mandatory.get(key, True) else "false")],
        )
        for key, value in config.properties.items()
    )
    link = atom_link(
        f"{CONFIGURATIONS_URI}/{config.id}", "self", type=CONFIGURATION, etag=config.etag
    )
    body = tag("configuration:properties", (), properties) + link
    return DECL + tag("configuration:configuration", _config_attrs(config, client), body)
