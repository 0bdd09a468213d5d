"""Answers about how the repository is organised: the node path of an object, the main
programs of an include, a class's or interface's object structure, the type hierarchy, and
the static catalogues (object types, creatable types, check reporters).

Layouts follow what real systems were seen to send (docs/protocol/repository-structure.md):
the object structure byte for byte like an intercepted S/4 answer; the others in the
elements and attributes their clients read, with SAP's namespaces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..xmlwriter import DECL, tag, text_tag
from .common import NS_ABAPSOURCE, NS_ADTCORE

NS_PROJECTEXPLORER = "http://www.sap.com/adt/projectexplorer"
NS_ATOM = "http://www.w3.org/2005/Atom"
NS_HIERARCHY = "http://www.sap.com/adt/abapsource/typehierarchy"
NS_CHKRUN = "http://www.sap.com/adt/checkrun"
NS_ASX = "http://www.sap.com/abapxml"
SOURCE_REL = "http://www.sap.com/adt/relations/source/"


@dataclass(frozen=True)
class PathStep:
    """One node from the top package down to the object."""

    uri: str
    type: str
    name: str
    category: str


def node_path(steps: Sequence[PathStep]) -> str:
    """``projectexplorer:nodepath`` with one unprefixed ``objectLinkReference`` per step."""
    body = "".join(
        tag(
            "objectLinkReference",
            [
                ("adtcore:uri", step.uri),
                ("adtcore:type", step.type),
                ("adtcore:name", step.name),
                ("projectexplorer:category", step.category),
                ("xmlns:adtcore", NS_ADTCORE),
            ],
        )
        for step in steps
    )
    return DECL + tag(
        "projectexplorer:nodepath",
        [("xmlns:projectexplorer", NS_PROJECTEXPLORER)],
        tag("projectexplorer:objectLinkReferences", (), body),
    )


@dataclass(frozen=True)
class Link:
    """An ``atom:link`` of a structure element (``rel`` without the source prefix)."""

    rel: str
    href: str
    type: str | None = None


@dataclass
class StructureElement:
    """One ``abapsource:objectStructureElement`` and the ones nested in it."""

    type: str
    name: str
    attrs: list[tuple[str, str | None]] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    children: list[StructureElement] = field(default_factory=list)


def _links(links: Sequence[Link]) -> str:
    return "".join(
        tag("atom:link", [("rel", SOURCE_REL + link.rel), ("href", link.href), ("type", link.type)])
        for link in links
    )


def _element(element: StructureElement) -> str:
    attrs: list[tuple[str, str | None]] = [("adtcore:type", element.type)]
    attrs += [(k, v) for k, v in element.attrs if k in ("constant", "clif_name", "description")]
    attrs.append(("adtcore:name", element.name))
    attrs += [(k, v) for k, v in element.attrs if k not in ("constant", "clif_name", "description")]
    body = _links(element.links) + "".join(_element(child) for child in element.children)
    return tag("abapsource:objectStructureElement", attrs, body)


def object_structure(base: str, root: StructureElement) -> str:
    """The root element (namespaces after its own attributes, as SAP writes them), its
    links, then one element per component."""
    attrs: list[tuple[str, str | None]] = [
        ("xmlns:abapsource", NS_ABAPSOURCE),
        ("xml:base", base),
        ("adtcore:name", root.name),
        *root.attrs,
        ("adtcore:type", root.type),
        ("xmlns:adtcore", NS_ADTCORE),
        ("xmlns:atom", NS_ATOM),
    ]
    body = _links(root.links) + "".join(_element(child) for child in root.children)
    return DECL + tag("abapsource:objectStructureElement", attrs, body)


@dataclass(frozen=True)
class HierarchyEntry:
    """One type of a type hierarchy: where it is declared and what it derives from."""

    uri: str
    type: str
    name: str
    parent_uri: str
    description: str
    package: str
    has_def_or_impl: bool = True


def type_hierarchy(origin: str, entries: Sequence[HierarchyEntry]) -> str:
    """``hierarchy:info``: the origin type's name, then every entry (origin included)."""
    rows = "".join(
        tag(
            "entry",
            [
                ("adtcore:uri", entry.uri),
                ("adtcore:type", entry.type),
                ("adtcore:name", entry.name),
                ("adtcore:parentUri", entry.parent_uri),
                ("adtcore:description", entry.description),
                ("hasDefOrImpl", "true" if entry.has_def_or_impl else "false"),
            ],
            tag("package_ref", [("adtcore:name", entry.package)]),
        )
        for entry in entries
    )
    return DECL + tag(
        "hierarchy:info",
        [("xmlns:hierarchy", NS_HIERARCHY), ("xmlns:adtcore", NS_ADTCORE)],
        tag("origin", [("typeName", origin)]) + tag("entries", (), rows),
    )


def check_reporters(reporters: Sequence[tuple[str, Sequence[str]]]) -> str:
    """``chkrun:checkReporters``: each reporter with the type patterns it checks."""
    body = "".join(
        tag(
            "chkrun:reporter",
            [("chkrun:name", name)],
            "".join(text_tag("chkrun:supportedType", t) for t in types),
        )
        for name, types in reporters
    )
    return DECL + tag("chkrun:checkReporters", [("xmlns:chkrun", NS_CHKRUN)], body)


@dataclass(frozen=True)
class TypeDescriptor:
    """One object type of ``repository/typestructure`` (the fields an S/4 answer carries)."""

    object_type: str
    label: str
    category: str
    category_label: str
    parent_type: str
    max_length: int
    uri_template: str
    capabilities: tuple[str, ...]


def type_structure(types: Sequence[TypeDescriptor]) -> str:
    """``asx:abap`` with one ``SEU_ADT_OBJECT_TYPE_DESCRIPTOR`` per type; the user may do
    whatever the type offers (``USER_AUTHORIZATIONS`` repeats ``CAPABILITIES``)."""

    def actions(name: str, values: Sequence[str]) -> str:
        return tag(name, (), "".join(text_tag("SEU_ACTION", value) for value in values))

    rows = "".join(
        tag(
            "SEU_ADT_OBJECT_TYPE_DESCRIPTOR",
            (),
            text_tag("OBJECT_TYPE", t.object_type)
            + text_tag("OBJECT_TYPE_LABEL", t.label)
            + text_tag("CATEGORY", t.category)
            + text_tag("CATEGORY_LABEL", t.category_label)
            + text_tag("URI_TEMPLATE", t.uri_template)
            + text_tag("PARENT_OBJECT_TYPE", t.parent_type)
            + text_tag("OBJNAME_MAXLENGTH", str(t.max_length))
            + actions("CAPABILITIES", t.capabilities)
            + actions("USER_AUTHORIZATIONS", t.capabilities),
        )
        for t in types
    )
    return (
        DECL
        + f'<asx:abap version="1.0" xmlns:asx="{NS_ASX}"><asx:values>'
        + tag("DATA", (), rows)
        + "</asx:values></asx:abap>"
    )
