"""The repository tree (``repository/nodestructure``): nodes, categories and type infos.

Field order and the always-present empty flags follow A4H capture 852 and the trial
captures; which nodes an answer holds is decided by :mod:`adt.emulator.areas.tree`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..xmlwriter import DECL, tag, text_tag

_FLAGS = "".join(
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

CATEGORY_LABELS = {
    "packages": "Package",
    "source_library": "Source Code Library",
    "core_data_services": "Core Data Services",
    "dictionary": "Dictionary",
    "business_services": "Business Services",
}


@dataclass(frozen=True)
class TreeNode:
    """One ``SEU_ADT_REPOSITORY_OBJ_NODE``; a folder node has a ``node_id`` and no name."""

    object_type: str
    name: str = ""
    tech_name: str = ""
    uri: str = ""
    vit_uri: str = ""
    expandable: bool = True
    node_id: int | None = None
    description: str = ""
    description_type: str = ""


@dataclass(frozen=True)
class TypeInfo:
    """One ``SEU_ADT_OBJECT_TYPE_INFO``: a type, its category, label and node id."""

    object_type: str
    category: str
    label: str
    node_id: int


def node_id_text(node_id: int) -> str:
    return f"{node_id:06d}"


def _node(node: TreeNode) -> str:
    return tag(
        "SEU_ADT_REPOSITORY_OBJ_NODE",
        (),
        text_tag("OBJECT_TYPE", node.object_type)
        + text_tag("OBJECT_NAME", node.name)
        + text_tag("TECH_NAME", node.tech_name)
        + text_tag("OBJECT_URI", node.uri)
        + text_tag("OBJECT_VIT_URI", node.vit_uri)
        + text_tag("EXPANDABLE", "X" if node.expandable else "")
        + _FLAGS
        + text_tag("VISIBILITY", "0")
        + text_tag("NODE_ID", None if node.node_id is None else node_id_text(node.node_id))
        + tag("PARENT_NAME")
        + text_tag("DESCRIPTION", node.description)
        + text_tag("DESCRIPTION_TYPE", node.description_type)
        + tag("VERSION")
        + tag("INACTIVE_TYPE"),
    )


def _type_info(info: TypeInfo) -> str:
    return tag(
        "SEU_ADT_OBJECT_TYPE_INFO",
        (),
        text_tag("OBJECT_TYPE", info.object_type)
        + text_tag("CATEGORY_TAG", info.category)
        + text_tag("OBJECT_TYPE_LABEL", info.label)
        + text_tag("NODE_ID", node_id_text(info.node_id)),
    )


def tree_document(
    nodes: Sequence[TreeNode], categories: Sequence[str], types: Sequence[TypeInfo]
) -> str:
    """``asx:abap`` with ``TREE_CONTENT``, ``CATEGORIES`` (sorted) and ``OBJECT_TYPES``
    (sorted by type, as SAP lists them)."""
    category_infos = "".join(
        tag(
            "SEU_ADT_OBJECT_CATEGORY_INFO",
            (),
            text_tag("CATEGORY", category) + text_tag("CATEGORY_LABEL", CATEGORY_LABELS[category]),
        )
        for category in sorted(set(categories))
    )
    ordered = sorted(types, key=lambda info: info.object_type)
    data = (
        tag("TREE_CONTENT", (), "".join(_node(node) for node in nodes))
        + tag("CATEGORIES", (), category_infos)
        + tag("OBJECT_TYPES", (), "".join(_type_info(info) for info in ordered))
    )
    return (
        DECL
        + '<asx:abap version="1.0" xmlns:asx="http://www.sap.com/abapxml"><asx:values>'
        + tag("DATA", (), data)
        + "</asx:values></asx:abap>"
    )
