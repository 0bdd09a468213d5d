"""The repository beyond objects: discovery, the compatibility graph, packages and their
value helps, and the repository tree (docs/protocol/discovery-and-packages.md)."""

from __future__ import annotations

import fnmatch
import re
from typing import TYPE_CHECKING
from urllib.parse import unquote

from starlette.responses import Response

from .. import errors
from ..calls import respond
from ..documents.discovery import (
    CORE_WORKSPACES,
    VALUE_HELP_TITLES,
    WORKSPACES,
    compatibility_graph,
    service_document,
)
from ..documents.packages import NAMED_ITEMS, NamedItem, named_item_list, package_document
from ..model import ADT, Package
from ..negotiation import choose
from . import Route, tree

if TYPE_CHECKING:
    from ..calls import Call
    from ..state import SystemState

ATOMSVC = "application/atomsvc+xml"
TREE_CONTENT = (
    "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.RepositoryObjectTreeContent"
)
PACKAGE_TYPES = [
    "application/vnd.sap.adt.packages.v2+xml",
    "application/vnd.sap.adt.packages.v1+xml",
]


def _only(call: Call, method: str) -> None:
    if call.method != method:
        raise errors.method_not_supported(call.method)


def _negotiate(call: Call, offers: list[str], *, strict: bool) -> str:
    chosen = choose(call.headers.get("accept"), offers, strict_params=strict)
    if chosen is None:
        raise errors.not_acceptable([offer.split(";")[0] for offer in offers])
    return chosen


def value_help(kind: str, sid: str) -> list[NamedItem]:
    """The values the emulator's system offers (invented, in the shape real systems use)."""
    values = {
        "softwarecomponents": [
            NamedItem("HOME", "Customer developments"),
            NamedItem("LOCAL", "Local developments (no automatic transport)"),
        ],
        "transportlayers": [
            NamedItem("", "Transport layer for local developments (no transport)"),
            NamedItem("SAP", "SAP transport layer"),
            NamedItem(f"Z{sid}", f"Customer transport layer of {sid}"),
        ],
        "applicationcomponents": [
            NamedItem("BC", "Basis components"),
            NamedItem("BC-ABA", "ABAP runtime environment"),
            NamedItem("BC-DWB", "ABAP Workbench"),
        ],
        "translationrelevances": [
            NamedItem("1", "Relevant for translation"),
            NamedItem("2", "Not relevant for translation"),
        ],
    }
    return values[kind]


class RepositoryArea:
    """Handlers over one system state."""

    def __init__(self, state: SystemState) -> None:
        self.state = state

    def routes(self) -> list[Route]:
        packages = re.escape(f"{ADT}/packages/")
        return [
            Route.at(f"{ADT}/core/discovery", self.core_discovery),
            Route.at(f"{ADT}/discovery", self.discovery),
            Route.at(f"{ADT}/compatibility/graph", self.graph),
            Route.at(f"{ADT}/repository/nodestructure", self.nodestructure),
            Route(re.compile(packages + r"valuehelps/(?P<help>[^/]+)/?", re.I), self.value_help),
            Route(
                re.compile(packages + r"(?!(?:valuehelps|validation)/?$)(?P<name>[^/]+)/?", re.I),
                self.package,
            ),
        ]

    # discovery -------------------------------------------------------------------------
    def core_discovery(self, call: Call, match: re.Match[str]) -> Response:
        return self._service(call, service_document(CORE_WORKSPACES))

    def discovery(self, call: Call, match: re.Match[str]) -> Response:
        return self._service(call, service_document(WORKSPACES))

    def _service(self, call: Call, body: str) -> Response:
        _only(call, "GET")
        _negotiate(call, [ATOMSVC, "application/xml"], strict=False)
        return respond(body, content_type=ATOMSVC)

    def graph(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "GET")
        return respond(compatibility_graph(), content_type="application/xml; charset=utf-8")

    # packages --------------------------------------------------------------------------
    def package(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "GET")
        name = unquote(match.group("name")).upper()
        package = self.state.packages.get(name)
        if package is None:
            raise errors.package_not_found(name)
        chosen = _negotiate(call, PACKAGE_TYPES, strict=True)
        parent = None
        if package.parent is not None:
            parent = self.state.packages.get(package.parent) or Package(package.parent)
        body = package_document(
            package, self.state.sid, parent, tree.sub_packages(self.state, name)
        )
        return respond(body, content_type=f"{chosen}; charset=utf-8")

    def value_help(self, call: Call, match: re.Match[str]) -> Response:
        kind = match.group("help").lower()
        if kind not in VALUE_HELP_TITLES:
            raise errors.no_suitable_resource()
        _only(call, "GET")
        _negotiate(call, [NAMED_ITEMS, "application/xml"], strict=False)
        pattern = (call.query.get("name") or "*").upper()
        items = [
            item
            for item in value_help(kind, self.state.sid)
            if fnmatch.fnmatchcase(item.name.upper(), pattern.replace("[", "[[]"))
        ]
        limit = call.query.get("maxItemCount") or ""
        if limit.isdigit():
            items = items[: int(limit)]
        return respond(named_item_list(items), content_type=f"{NAMED_ITEMS}; charset=utf-8")

    # the repository tree ---------------------------------------------------------------
    def nodestructure(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "POST")
        request = tree.read_request(
            call.query.get("parent_type") or "",
            call.query.get("parent_name") or "",
            call.query.get("node_id"),
            call.body,
        )
        body = tree.answer(self.state, request)
        if body is None:
            return respond()  # SAP: an empty or unknown parent is a zero-byte 200
        return respond(body, content_type=TREE_CONTENT)


def routes(state: SystemState) -> list[Route]:
    return RepositoryArea(state).routes()
