"""How code is organised: where an object sits in the package tree (node path), which main
programs include an include, what a class or interface declares and where (object
structure), and how types derive from each other (type hierarchy).

Positions are ADT's: lines 1-based, columns 0-based; a span's end is exclusive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urljoin

from lxml import etree

from adt._xml import XmlFormatError, _parse
from adt.areas.base import Area
from adt.areas.navigation import position_uri
from adt.models import ObjectRef
from adt.urls import check_adt_path

NS_ADTCORE = "http://www.sap.com/adt/core"
NS_ABAPSOURCE = "http://www.sap.com/adt/abapsource"
NS_ATOM = "http://www.w3.org/2005/Atom"
NS_PROJECTEXPLORER = "http://www.sap.com/adt/projectexplorer"
SOURCE_REL = "http://www.sap.com/adt/relations/source/"
OBJECT_STRUCTURE_ACCEPT = (
    "application/vnd.sap.adt.objectstructure.v2+xml, "
    "application/vnd.sap.adt.objectstructure+xml;q=0.9, application/xml;q=0.8"
)
_SPAN = re.compile(r"^([^#]*)#start=(\d+),(\d+)(?:;end=(\d+),(\d+))?")


def _a(element: etree._Element, name: str) -> str:
    return element.get(f"{{{NS_ADTCORE}}}{name}") or ""


@dataclass(frozen=True)
class PathStep:
    """One node of an object's place in the tree: a package, a group, the object itself."""

    uri: str
    type: str
    name: str
    category: str


def parse_node_path(body: bytes) -> tuple[PathStep, ...]:
    """``projectexplorer:nodepath`` → its steps, top package first."""
    root = _parse(body)
    if root.tag != f"{{{NS_PROJECTEXPLORER}}}nodepath":
        raise XmlFormatError(f"<{etree.QName(root).localname}> is no nodepath")
    return tuple(
        PathStep(
            _a(e, "uri"),
            _a(e, "type"),
            _a(e, "name"),
            e.get(f"{{{NS_PROJECTEXPLORER}}}category") or "",
        )
        for e in root.iter("objectLinkReference")
    )


def parse_object_references(body: bytes) -> tuple[ObjectRef, ...]:
    """``adtcore:objectReferences`` → one :class:`~adt.models.ObjectRef` per reference."""
    root = _parse(body)
    if root.tag != f"{{{NS_ADTCORE}}}objectReferences":
        raise XmlFormatError(f"<{etree.QName(root).localname}> is no objectReferences")
    return tuple(
        ObjectRef(_a(e, "uri"), _a(e, "type"), _a(e, "name"), _a(e, "packageName"))
        for e in root.iter(f"{{{NS_ADTCORE}}}objectReference")
    )


@dataclass(frozen=True)
class SourceSpan:
    """A stretch of a source: its URL (absolute), start and end (exclusive)."""

    source_url: str
    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class StructureElement:
    """A class, interface or component with its spans (``definition_identifier``, …,
    keyed by the relation's last word) and the components it holds."""

    type: str
    name: str
    visibility: str
    level: str
    description: str
    spans: dict[str, SourceSpan]
    components: tuple[StructureElement, ...]
    flags: frozenset[str] = frozenset()

    def component(self, name: str) -> StructureElement | None:
        return next((c for c in self.components if c.name == name.upper()), None)

    @property
    def definition(self) -> SourceSpan | None:
        """Where the name is declared (``definitionIdentifier``)."""
        return self.spans.get("definitionIdentifier")

    @property
    def implementation(self) -> SourceSpan | None:
        """Where it is implemented (``implementationIdentifier``), for methods and classes."""
        return self.spans.get("implementationIdentifier")


def _span(href: str, base: str) -> SourceSpan | None:
    match = _SPAN.match(urljoin(base, href))
    if match is None:
        return None
    line, column = int(match.group(2)), int(match.group(3))
    end_line = int(match.group(4)) if match.group(4) else line
    end_column = int(match.group(5)) if match.group(5) else column
    return SourceSpan(match.group(1), line, column, end_line, end_column)


_FLAGS = ("final", "abstract", "constant", "readOnly", "redefinition", "testmethod", "constructor")


def _structure_element(element: etree._Element, base: str) -> StructureElement:
    spans: dict[str, SourceSpan] = {}
    for link in element.findall(f"{{{NS_ATOM}}}link"):
        rel = link.get("rel") or ""
        span = _span(link.get("href") or "", base)
        if rel.startswith(SOURCE_REL) and span is not None:
            spans.setdefault(rel[len(SOURCE_REL) :], span)
    children = element.findall(f"{{{NS_ABAPSOURCE}}}objectStructureElement")
    return StructureElement(
        type=_a(element, "type"),
        name=_a(element, "name"),
        visibility=element.get("visibility") or "",
        level=element.get("level") or "",
        description=element.get("description") or _a(element, "description"),
        spans=spans,
        components=tuple(_structure_element(child, base) for child in children),
        flags=frozenset(flag for flag in _FLAGS if element.get(flag) == "true"),
    )


def parse_object_structure(body: bytes, object_url: str) -> StructureElement:
    """``abapsource:objectStructureElement`` → the tree; hrefs are resolved against the
    object (``./source/main#…`` → ``<object>/source/main``)."""
    root = _parse(body)
    if root.tag != f"{{{NS_ABAPSOURCE}}}objectStructureElement":
        raise XmlFormatError(f"<{etree.QName(root).localname}> is no objectStructureElement")
    return _structure_element(root, object_url.rstrip("/") + "/")


@dataclass(frozen=True)
class HierarchyEntry:
    """One type of a type hierarchy: where it is declared (``line`` 0 when the system does
    not know), the type it derives from or is derived by (``parent_uri``)."""

    uri: str
    line: int
    column: int
    type: str
    name: str
    parent_uri: str
    description: str
    package: str


def parse_type_hierarchy(body: bytes) -> tuple[HierarchyEntry, ...]:
    """``hierarchy:info`` → its entries, the origin type first."""
    root = _parse(body)
    if etree.QName(root).localname != "info":
        raise XmlFormatError(f"<{etree.QName(root).localname}> is no type hierarchy")
    entries: list[HierarchyEntry] = []
    for entry in root.iter("entry"):
        match = _SPAN.match(_a(entry, "uri"))
        uri, line, column = (
            (match.group(1), int(match.group(2)), int(match.group(3)))
            if match
            else (_a(entry, "uri"), 0, 0)
        )
        package = entry.find("package_ref")
        entries.append(
            HierarchyEntry(
                uri,
                line,
                column,
                _a(entry, "type"),
                _a(entry, "name"),
                _a(entry, "parentUri"),
                _a(entry, "description"),
                _a(package, "name") if package is not None else "",
            )
        )
    return tuple(entries)


class Structure(Area):
    """Node paths, main programs, object structures and type hierarchies of one system."""

    async def node_path(self, object_url: str) -> tuple[PathStep, ...]:
        """The packages from the top down to the object, then the object (a function module
        comes after its group)."""
        response = await self._send(
            "POST",
            "/sap/bc/adt/repository/nodepath",
            params={"uri": check_adt_path(object_url)},
            headers={"Accept": "application/*"},
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        return parse_node_path(response.content)

    async def main_programs(self, include_url: str) -> tuple[ObjectRef, ...]:
        """The programs that include an include (what a check or activation of it needs as
        ``context``)."""
        path = check_adt_path(include_url).rstrip("/")
        response = await self._send(
            "GET", f"{path}/mainprograms", headers={"Accept": "application/*"}
        )
        return parse_object_references(response.content)

    async def object_structure(
        self, object_url: str, *, version: str = "active"
    ) -> StructureElement:
        """What a class or interface declares, with the spans of each declaration and
        implementation (``version`` ``active`` or ``inactive``)."""
        path = check_adt_path(object_url).rstrip("/")
        response = await self._send(
            "GET",
            f"{path}/objectstructure",
            params={"version": version, "withShortDescriptions": "true"},
            headers={"Accept": OBJECT_STRUCTURE_ACCEPT},
        )
        return parse_object_structure(response.content, path)

    async def type_hierarchy(
        self, source_url: str, text: str, line: int, column: int, *, super_types: bool = False
    ) -> tuple[HierarchyEntry, ...]:
        """The type at (line, column) of ``text`` and its sub types (or super types)."""
        response = await self._send(
            "POST",
            "/sap/bc/adt/abapsource/typehierarchy",
            params={
                "uri": position_uri(source_url, line, column),
                "type": "superTypes" if super_types else "subTypes",
            },
            headers={"Content-Type": "text/plain; charset=utf-8", "Accept": "application/*"},
            content=text.encode("utf-8"),
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        return parse_type_hierarchy(response.content)


__all__ = [
    "HierarchyEntry",
    "PathStep",
    "SourceSpan",
    "Structure",
    "StructureElement",
    "parse_node_path",
    "parse_object_references",
    "parse_object_structure",
    "parse_type_hierarchy",
]
