"""Transport organizer documents: the user's request tree and the details of one request.

Shaped on the A4H captures in ``a4h/cts`` (``user-transports-targets-false``,
``transports-by-config``, ``transport-details-*``): one line, ``tm:`` attributes in SAP's
order, ``xmlns:atom`` on every link. The tree and the details differ on purpose, as on A4H:
the tree's ``tm:uri`` is the SAP GUI (VIT) link and carries neither ``tm:status_text`` nor
``tm:source_client``; the details use the ADT URI and list ``tm:all_objects``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .. import stamps
from ..cts import Entry, Request, Task
from ..xmlwriter import DECL, atom_link, tag
from .common import NS_ADTCORE

TM_NS = "http://www.sap.com/cts/adt/tm"
ORGANIZER = "application/vnd.sap.adt.transportorganizer.v1+xml"
ORGANIZER_TREE = "application/vnd.sap.adt.transportorganizertree.v1+xml"
REQUESTS_TYPE = "application/vnd.sap.adt.transportrequests.v1+xml"
SAPGUI = "application/vnd.sap.sapgui"
REL = "http://www.sap.com/cts/relations/"
TITLE = "Transport Organizer "
LOCAL_TARGET = ("Requests Without Transport Target", "No Target – Release locally only")

#: The system component vector a released request records (A4H, SAP_BASIS 754).
COMPONENTS = (
    "DMIS,2011_1_731,0021",
    "MDG_FND,804,0007",
    "S4FND,104,0007",
    "SAP_ABA,75E,0007",
    "SAP_BASIS,754,0007",
    "SAP_BW,754,0007",
    "SAP_GWFND,754,0007",
    "SAP_UI,754,0011",
    "ST-PI,740,0020",
    "UIBAS001,500,0007",
)

Describe = Callable[[Entry], "str | None"]


def adt_uri(number: str) -> str:
    return f"/sap/bc/adt/cts/transportrequests/{number}"


def vit_uri(number: str) -> str:
    return f"/sap/bc/adt/vit/wb/object_type/%20%20%20%20rq/object_name/{number}"


def compact(ts: int) -> str:
    """``20260801133446``: ``tm:lastchanged_timestamp``."""
    return time.strftime("%Y%m%d%H%M%S", time.gmtime(ts))


def _link(number: str, rel: str, suffix: str = "", title: str = "", typ: str = "xml") -> str:
    kind = {"xml": "application/xml", "adt": REQUESTS_TYPE, "gui": SAPGUI, "": None}[typ]
    return atom_link(adt_uri(number) + suffix, REL + rel, type=kind, title=title)


def _common_links(number: str, release: bool) -> str:
    links = _link(
        number, "consistencycheck", "/consistencychecks", TITLE + "Request/Task Consistency Check"
    )
    if release:
        links += _link(number, "releasejobs", "/releasejobs", TITLE + "Request/Task Release")
    links += (
        _link(number, "newreleasejobs", "/newreleasejobs", TITLE + "Request/Task New Release")
        + _link(
            number,
            "relwithignlock",
            "/relwithignlock",
            TITLE + "Request/Task New Release IgnoreLocks",
        )
        + _link(
            number,
            "relobjigchkatc",
            "/relObjigchkatc",
            TITLE + "Request/Task New Release IgnoreATC",
        )
        + _link(number, "changeowner", "", TITLE + "Change Owner")
        + _link(number, "modify", "", TITLE + "Request/Modify")
        + _link(number, "sortandcompress", "/sortandcompress", TITLE + "Sort and Compress")
    )
    return links


def _head_links(number: str, *, tree: bool) -> str:
    """``adturi`` plus the VIT link (``vituri`` in the tree, ``self`` in the details)."""
    return _link(number, "adturi", "", TITLE + "ADT URI", "adt") + atom_link(
        vit_uri(number),
        "self" if not tree else REL + "vituri",
        type=SAPGUI,
        title=TITLE + "VIT URI",
    )


def _request_links(request: Request, *, tree: bool, asked: bool) -> str:
    number = request.number
    links = _head_links(number, tree=tree) + _common_links(number, release=tree)
    if tree:
        return (
            links
            + _link(number, "newtask", "/tasks", TITLE + "New Task Creation")
            + _link(number, "merge", "/merge", TITLE + "Merge Request")
        )
    links += (
        _link(number, "addobject", "", "Transport Request Editor Add Objects")
        + _link(number, "newtask", "/tasks", TITLE + "New Task Creation")
        + _link(number, "changeproject", "", TITLE + "Change CTS Project")
        + _link(number, "changetarget", "", TITLE + "Change Target")
        + _link(number, "changeattributes", "", "Transport Request Editor Change Attributes")
    )
    if not request.modifiable:
        links += _link(
            number, "transportlogs", "/transportlogs", "Transport Request Editor Transport Logs", ""
        )
    if asked:
        links += _link(number, "checkruns", "/checkruns", TITLE + "Checkruns", "")
    return links


def _task_links(task: Task, *, tree: bool, asked: bool) -> str:
    number = task.number
    links = _head_links(number, tree=tree) + _common_links(number, release=tree)
    if not tree:
        links += _link(number, "addobject", "", "Transport Request Editor Add Objects")
    links += _link(number, "reassign", "/reassign", TITLE + "Reassign Task")
    if asked:
        links += _link(number, "checkruns", "/checkruns", TITLE + "Checkruns", "")
    return links


@dataclass(frozen=True)
class _View:
    """How one document renders: the tree or the details, and object descriptions."""

    tree: bool
    describe: Describe


def _object(entry: Entry, position: int, container: str, locked: bool, view: _View) -> str:
    comment = entry.pgmid == "CORR"
    dummy = (
        "/sap/bc/adt/cts/transportrequests/reference?obj_name="
        + entry.name.replace(" ", "%20")
        + f"&obj_wbtype={entry.type}&pgmid={entry.pgmid}"
    )
    attrs: list[tuple[str, str | None]] = [
        ("tm:pgmid", entry.pgmid),
        ("tm:type", entry.type),
        ("tm:name", entry.name),
        ("tm:wbtype", None if comment else entry.wbtype),
        ("tm:dummy_uri", dummy),
        ("tm:obj_info", entry.info),
        ("tm:obj_desc", None if comment else view.describe(entry)),
        ("tm:position", f"{position:06d}"),
        ("tm:lock_status", "X" if locked else ""),
        ("tm:img_activity", ""),
    ]
    links = ""
    if not (comment and view.tree):
        links = _link(container, "removeobject", "", TITLE + "Remove Locked Object")
        if not view.tree:
            links += _link(
                container, "lockobject", "/lockobject", "Transport Request Editor Lock Objects"
            )
    return tag("tm:abap_object", attrs, links)


def _attrs(
    item: Request | Task, parent: str, typ: str, target_desc: str, tree: bool
) -> list[tuple[str, str | None]]:
    status_text = "Modifiable" if item.status == "D" else "Released"
    return [
        ("tm:number", item.number),
        ("tm:parent", parent),
        ("tm:owner", item.owner),
        ("tm:desc", item.text),
        ("tm:type", typ),
        ("tm:status", item.status),
        ("tm:status_text", None if tree else status_text),
        ("tm:target", ""),
        ("tm:target_desc", "" if tree else target_desc),
        ("tm:cts_project", ""),
        ("tm:cts_project_desc", ""),
        ("tm:source_client", None if tree else "001"),
        ("tm:lastchanged_timestamp", compact(item.changed)),
        ("tm:uri", vit_uri(item.number) if tree else adt_uri(item.number)),
    ]


def task_element(task: Task, request: Request, view: _View, *, asked: bool = False) -> str:
    locked = task.modifiable and request.modifiable
    objects = "".join(
        _object(entry, index, task.number, locked, view)
        for index, entry in enumerate(task.entries, start=1)
    )
    body = tag("tm:long_desc") + _task_links(task, tree=view.tree, asked=asked) + objects
    return tag("tm:task", _attrs(task, request.number, task.type_text, "", view.tree), body)


def _all_objects(request: Request, view: _View) -> str:
    if not request.modifiable:
        rows = [
            (e, i, request.number, False)
            for i, e in enumerate(request.entries, 1)
            if e.pgmid != "CORR"
        ]
    else:
        rows = [
            (e, i, t.number, t.modifiable)
            for t in request.tasks
            for i, e in enumerate(t.entries, 1)
        ]
    if not rows:
        return ""
    return tag("tm:all_objects", (), "".join(_object(*row, view) for row in rows))


def request_element(
    request: Request, view: _View, *, tasks: bool = True, asked: bool = False
) -> str:
    body = tag("tm:long_desc") + _request_links(request, tree=view.tree, asked=asked)
    if not view.tree and not request.modifiable:
        body += "".join(
            tag(
                "tm:attributes",
                [
                    ("tm:attribute", "SAPCOMPONENT"),
                    ("tm:description", "Single Component of System Component Vector"),
                    ("tm:value", value),
                    ("tm:position", f"{index:06d}"),
                ],
            )
            for index, value in enumerate(COMPONENTS, start=1)
        )
    body += "".join(
        _object(entry, index, request.number, False, view)
        for index, entry in enumerate(request.entries, start=1)
    )
    if tasks:
        if not view.tree:
            body += _all_objects(request, view)
        body += "".join(task_element(task, request, view) for task in request.tasks)
    attrs = _attrs(request, "", request.function, "Local Change Requests", view.tree)
    return tag("tm:request", attrs, body)


def request_details(request: Request, task: Task | None, describe: Describe) -> str:
    """``GET …/transportrequests/<NR>``; a task number shows its parent and the task."""
    view = _View(tree=False, describe=describe)
    asked = task or request
    attrs: list[tuple[str, str | None]] = [
        ("tm:object_type", "T" if task is not None else "R"),
        ("adtcore:name", asked.number),
        ("adtcore:type", "RQRQ"),
        ("adtcore:changedAt", stamps.iso(asked.changed)),
        ("adtcore:changedBy", asked.owner),
        ("adtcore:createdBy", asked.owner),
        ("xmlns:tm", TM_NS),
        ("xmlns:adtcore", NS_ADTCORE),
    ]
    body = _head_links(asked.number, tree=False)
    if task is None:
        body += request_element(request, view, asked=True)
    else:
        body += request_element(request, view, tasks=False)
        body += task_element(task, request, view, asked=True)
    return DECL + tag("tm:root", attrs, body)


@dataclass(frozen=True)
class TreeSection:
    """The user's requests of one status (``modifiable`` or ``released``)."""

    status: str
    requests: Sequence[Request]


def organizer_tree(
    user: str, sections: Sequence[TreeSection], *, targets: bool, describe: Describe
) -> str:
    """``GET …/transportrequests?user=…``: workbench requests by status, under a
    ``tm:target`` when ``targets`` (what abap-adt-api reads), flat otherwise (A4H's
    ``targets=false`` shape)."""
    view = _View(tree=True, describe=describe)
    now = stamps.iso(stamps.now_seconds())
    labels = {"modifiable": "Modifiable", "released": "Released (From Last 2 Weeks)"}
    groups = "".join(
        tag(
            f"tm:{section.status}",
            [("tm:status", labels[section.status])],
            "".join(request_element(r, view) for r in section.requests),
        )
        for section in sections
        if section.requests
    )
    if groups and targets:
        groups = tag(
            "tm:target", [("tm:name", LOCAL_TARGET[0]), ("tm:desc", LOCAL_TARGET[1])], groups
        )
    body = tag("tm:workbench", [("tm:category", "Workbench")], groups) if groups else ""
    attrs: list[tuple[str, str | None]] = [
        ("adtcore:name", user),
        ("adtcore:changedAt", now),
        ("adtcore:createdAt", now),
        ("adtcore:changedBy", user),
        ("adtcore:createdBy", user),
        ("xmlns:tm", TM_NS),
        ("xmlns:adtcore", NS_ADTCORE),
    ]
    return DECL + tag("tm:root", attrs, body)
