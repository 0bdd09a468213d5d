"""Fixed catalogues a client reads once: the object types of the repository information
system, the object type descriptors of ``repository/typestructure`` and the check reporters
(docs/protocol/repository-structure.md). They list exactly the types the emulator models."""

from __future__ import annotations

import fnmatch
import re
from typing import TYPE_CHECKING

from starlette.responses import Response

from .. import errors
from ..calls import respond
from ..documents.packages import NAMED_ITEMS, NamedItem, named_item_list
from ..documents.structure import TypeDescriptor, check_reporters, type_structure
from ..documents.tree import CATEGORY_LABELS
from ..kinds import REGISTRY
from ..model import ADT
from . import Route

if TYPE_CHECKING:
    from ..calls import Call
    from ..state import SystemState

REPORTERS = "application/vnd.sap.adt.reporters+xml; charset=utf-8"
TYPE_LIST = "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.RepositoryTypeList"
#: What the emulator's checker and check runs read: every source type it serves.
CHECKED_TYPES = ("CLAS*", "INTF*", "PROG*", "FUGR*")
#: The repository providers that offer a type (quick search and the package tree).
PROVIDERS = "quick_search,virtual_folders"
ACTIONS = ("CREATE", "DELETE", "DISPLAY", "EDIT")
#: How long a name of each type may be (SAP's limits: TADIR 40 for programs, 30 for classes).
MAX_NAME = {
    "CLAS/OC": 30,
    "INTF/OI": 30,
    "PROG/P": 40,
    "PROG/I": 40,
    "FUGR/F": 26,
    "TABL/DT": 16,
    "MSAG/N": 20,
    "SRVB/SVB": 26,
}


def _only(call: Call, method: str) -> None:
    if call.method != method:
        raise errors.method_not_supported(call.method)


def object_types() -> list[NamedItem]:
    """One item per modelled type: ``name`` the TADIR type, ``data`` type and providers."""
    items = [
        NamedItem(kind.code.split("/")[0], kind.tree_label, f"type:{kind.code};usedBy:{PROVIDERS}")
        for kind in REGISTRY.kinds
    ]
    items.append(NamedItem("DEVC", "Packages", f"type:DEVC/K;usedBy:{PROVIDERS}"))
    return items


def descriptors() -> list[TypeDescriptor]:
    rows = [
        TypeDescriptor(
            kind.code,
            kind.label,
            kind.tree_category,
            CATEGORY_LABELS[kind.tree_category],
            "FUGR/F" if kind.code in ("FUGR/FF", "FUGR/I") else "DEVC/K",
            MAX_NAME.get(kind.code, 30),
            f"{ADT}/vit/wb/object_type/{kind.vit}/object_name/{{name}}",
            ACTIONS,
        )
        for kind in REGISTRY.kinds
    ]
    rows.append(
        TypeDescriptor(
            "DEVC/K",
            "Package",
            "packages",
            "Package",
            "",
            30,
            f"{ADT}/vit/wb/object_type/devck/object_name/{{name}}",
            ("CREATE", "DISPLAY"),
        )
    )
    return rows


def routes(state: SystemState) -> list[Route]:
    def objecttypes(call: Call, match: re.Match[str]) -> Response:
        _only(call, "GET")
        pattern = (call.query.get("name") or "*").upper()
        items = [i for i in object_types() if fnmatch.fnmatchcase(i.name, pattern)]
        limit = call.query.get("maxItemCount") or ""
        if limit.isdigit():
            items = items[: int(limit)]
        return respond(named_item_list(items), content_type=f"{NAMED_ITEMS}; charset=utf-8")

    def typestructure(call: Call, match: re.Match[str]) -> Response:
        _only(call, "POST")
        return respond(type_structure(descriptors()), content_type=TYPE_LIST)

    def reporters(call: Call, match: re.Match[str]) -> Response:
        _only(call, "GET")
        return respond(check_reporters([("abapCheckRun", CHECKED_TYPES)]), content_type=REPORTERS)

    return [
        Route.at(f"{ADT}/repository/informationsystem/objecttypes", objecttypes),
        Route.at(f"{ADT}/repository/typestructure", typestructure),
        Route.at(f"{ADT}/checkruns/reporters", reporters),
    ]
