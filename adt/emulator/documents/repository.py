"""Repository answers: quick search, the package tree, package metadata, discovery."""

from __future__ import annotations

from dataclasses import dataclass

from .. import stamps
from ..model import CLAS, FUGR, INCL, INTF, PROG, Kind, RepoObject, package_uri
from ..xmlwriter import DECL, atom_link, tag, text_tag
from .common import (
    NS_ADTCORE,
    REL,
)


@dataclass(frozen=True)
class Reference:
    """One quick-search hit."""

    uri: str
    type: str
    name: str
    package: str | None
    description: str | None


def object_references(refs: list[Reference]) -> str:
    """``adtcore:objectReferences`` (an empty result is the 109-byte empty root)."""
    body = "".join(
        tag(
            "adtcore:objectReference",
            [
                ("adtcore:uri", ref.uri),
                ("adtcore:type", ref.type),
                ("adtcore:name", ref.name),
                ("adtcore:packageName", ref.package),
                ("adtcore:description", ref.description),
            ],
        )
        for ref in refs
    )
    return DECL + tag("adtcore:objectReferences", [("xmlns:adtcore", NS_ADTCORE)], body)


_CATEGORY_LABEL = {"source_library": "Source Code Library"}


def _tree_node(obj: RepoObject) -> str:
    kind = obj.kind
    tech = f"SAPL{obj.name}" if kind is FUGR else obj.name
    empty_flags = "".join(
        tag(flag)
        for flag in (
            "IS_FINAL",
            "IS_ABSTRACT",
            "IS_FOR_TESTING",
            "IS_EVENT_HANDLER",
            "IS_CONSTRUCTOR",
            "IS_REDEFINITION",
            "IS_STATIC",
            "IS_READ_ONLY",
            "IS_CONSTANT",
        )
    )
    return tag(
        "SEU_ADT_REPOSITORY_OBJ_NODE",
        (),
        text_tag("OBJECT_TYPE", kind.code)
        + text_tag("OBJECT_NAME", obj.name)
        + text_tag("TECH_NAME", tech)
        + text_tag("OBJECT_URI", obj.uri)
        + text_tag(
            "OBJECT_VIT_URI",
            f"/sap/bc/adt/vit/wb/object_type/{kind.code.replace('/', '').lower()}"
            f"/object_name/{obj.name}",
        )
        + text_tag("EXPANDABLE", "X")
        + empty_flags
        + text_tag("VISIBILITY", "0")
        + tag("NODE_ID")
        + tag("PARENT_NAME")
        + text_tag("DESCRIPTION", obj.description)
        + text_tag("DESCRIPTION_TYPE", kind.code.split("/")[1])
        + tag("VERSION")
        + tag("INACTIVE_TYPE"),
    )


def _tree_document(tree: str, kinds: list[Kind], node_offset: int, labels: bool) -> str:
    categories = text_tag("CATEGORY", "source_library") + text_tag(
        "CATEGORY_LABEL", _CATEGORY_LABEL["source_library"]
    )
    types = ""
    for kind in kinds:
        assert kind.tree_node_id is not None
        types += tag(
            "SEU_ADT_OBJECT_TYPE_INFO",
            (),
            text_tag("OBJECT_TYPE", kind.code)
            + text_tag("CATEGORY_TAG", "source_library")
            + text_tag("OBJECT_TYPE_LABEL", kind.tree_label if labels else "")
            + text_tag("NODE_ID", f"{kind.tree_node_id + node_offset:06d}"),
        )
    data = (
        (tag("TREE_CONTENT", (), tree) if tree else tag("TREE_CONTENT"))
        + tag("CATEGORIES", (), tag("SEU_ADT_OBJECT_CATEGORY_INFO", (), categories))
        + tag("OBJECT_TYPES", (), types)
    )
    return (
        DECL
        + '<asx:abap version="1.0" xmlns:asx="http://www.sap.com/abapxml"><asx:values>'
        + tag("DATA", (), data)
        + "</asx:values></asx:abap>"
    )


def tree_root(kinds: list[Kind]) -> str:
    """The package root call: categories and object types with their ``NODE_ID``."""
    return _tree_document("", kinds, 0, True)


def tree_objects(kind: Kind, objects: list[RepoObject]) -> str:
    """The objects of one type node (``node_id=…``)."""
    return _tree_document("".join(_tree_node(o) for o in objects), [kind], 1, False)


def package_document(
    name: str, description: str, responsible: str, created_at: int, sid: str, parent: str | None
) -> str:
    """``pak:package`` metadata, trimmed from the trial capture."""
    uri = package_uri(name)
    attrs: list[tuple[str, str | None]] = [
        ("adtcore:responsible", responsible),
        ("adtcore:masterLanguage", "EN"),
        ("adtcore:masterSystem", sid),
        ("adtcore:name", name),
        ("adtcore:type", "DEVC/K"),
        ("adtcore:changedAt", stamps.iso_date(created_at)),
        ("adtcore:version", "active"),
        ("adtcore:createdAt", stamps.iso_date(created_at)),
        ("adtcore:changedBy", responsible),
        ("adtcore:createdBy", responsible),
        ("adtcore:description", description),
        ("adtcore:descriptionTextLimit", "60"),
        ("adtcore:language", "EN"),
        ("xmlns:pak", "http://www.sap.com/adt/packages"),
        ("xmlns:adtcore", NS_ADTCORE),
    ]
    local = name.startswith("$")
    body = (
        atom_link("versions", REL + "versions", title="Historic versions")
        + atom_link(
            f"/sap/bc/adt/vit/wb/object_type/devck/object_name/{name}",
            "self",
            type="application/vnd.sap.sapgui",
            title="Representation in SAP Gui",
        )
        + tag(
            "adtcore:packageRef",
            [
                ("adtcore:uri", uri),
                ("adtcore:type", "DEVC/K"),
                ("adtcore:name", name),
                ("adtcore:description", description),
            ],
        )
        + tag(
            "pak:attributes",
            [
                ("pak:packageType", "development"),
                ("pak:isPackageTypeEditable", "false"),
                ("pak:isAddingObjectsAllowed", "false"),
                ("pak:isAddingObjectsAllowedEditable", "true"),
                ("pak:isEncapsulated", "false"),
                ("pak:isEncapsulationEditable", "true"),
                ("pak:recordChanges", "false" if local else "true"),
                ("pak:isRecordChangesEditable", "false"),
                ("pak:isSwitchVisible", "false"),
            ],
        )
    )
    if parent is not None:
        body += tag(
            "pak:superPackage",
            [
                ("adtcore:uri", package_uri(parent)),
                ("adtcore:type", "DEVC/K"),
                ("adtcore:name", parent),
            ],
        )
    else:
        body += tag("pak:superPackage")
    component = "LOCAL" if local else "HOME"
    body += tag(
        "pak:transport",
        (),
        tag(
            "pak:softwareComponent",
            [("pak:name", component), ("pak:description", ""), ("pak:isVisible", "true")],
        )
        + tag(
            "pak:transportLayer",
            [("pak:name", "" if local else f"Z{sid}"), ("pak:description", "")],
        ),
    )
    body += tag("pak:subPackages")
    return DECL + tag("pak:package", attrs, body)


_COLLECTIONS = [
    ("Classes", "/sap/bc/adt/oo/classes", CLAS),
    ("Interfaces", "/sap/bc/adt/oo/interfaces", INTF),
    ("Programs", "/sap/bc/adt/programs/programs", PROG),
    ("Includes", "/sap/bc/adt/programs/includes", INCL),
    ("Function Groups", "/sap/bc/adt/functions/groups", FUGR),
]


def discovery_document() -> str:
    """A compact ``app:service`` document listing the collections served."""
    collections = ""
    for title, href, kind in _COLLECTIONS:
        accepts = "".join(text_tag("app:accept", mt) for mt in kind.media_types)
        collections += tag(
            "app:collection", [("href", href)], text_tag("atom:title", title) + accepts
        )
    for title, href, accept in [
        ("Activation", "/sap/bc/adt/activation", "application/xml"),
        ("Check Runs", "/sap/bc/adt/checkruns", "application/vnd.sap.adt.checkobjects+xml"),
        ("Search", "/sap/bc/adt/repository/informationsystem/search", "application/xml"),
        ("Node Structure", "/sap/bc/adt/repository/nodestructure", "application/xml"),
        ("Packages", "/sap/bc/adt/packages", "application/vnd.sap.adt.packages.v1+xml"),
    ]:
        collections += tag(
            "app:collection",
            [("href", href)],
            text_tag("atom:title", title) + text_tag("app:accept", accept),
        )
    workspace = tag("app:workspace", (), text_tag("atom:title", "ADT emulator") + collections)
    return DECL + tag(
        "app:service",
        [
            ("xmlns:app", "http://www.w3.org/2007/app"),
            ("xmlns:atom", "http://www.w3.org/2005/Atom"),
        ],
        workspace,
    )


def compatibility_graph() -> str:
    """A minimal compatibility graph; clients use this resource only for the token."""
    return DECL + tag(
        "cgraph:graph",
        [("xmlns:cgraph", "http://www.sap.com/adt/compatibility")],
        tag("nodes") + tag("edges"),
    )
