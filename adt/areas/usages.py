"""Where-used results: the typed rows of ``usageReferences`` grouped by object, the snippets
of ``usageSnippets``, their parsers and request bodies.

Parsers match the RIS namespace (``http://www.sap.com/adt/ris/usageReferences``) by URI:
A4H and the BTP trial write it with the prefix ``usagereferences:``, S/4 758 with
``usageReferences:``; both parse the same.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from xml.sax.saxutils import escape

from lxml import etree

from adt._xml import XmlFormatError, _parse

NS_RIS = "http://www.sap.com/adt/ris/usageReferences"
NS_ADTCORE = "http://www.sap.com/adt/core"
REQUEST_TYPE = "application/vnd.sap.adt.repository.usagereferences.request.v1+xml"
RESULT_TYPE = "application/vnd.sap.adt.repository.usagereferences.result.v1+xml"
_FRAGMENT = re.compile(r"start=(\d+)(?:,(\d+))?(?:;end=(\d+)(?:,(\d+))?)?")


def _ris(local: str) -> str:
    return f"{{{NS_RIS}}}{local}"


def _core(local: str) -> str:
    return f"{{{NS_ADTCORE}}}{local}"


@dataclass(frozen=True)
class UsageReference:
    """One row of a where-used tree: a package, a using object or a member of one."""

    uri: str
    parent_uri: str
    name: str
    type: str
    responsible: str
    description: str
    package_name: str
    package_uri: str
    usage_information: tuple[str, ...]
    object_identifier: str
    can_have_children: bool
    is_result: bool

    @property
    def is_package(self) -> bool:
        return self.type == "DEVC/K"

    @property
    def is_test(self) -> bool:
        return "includeTest" in self.usage_information


@dataclass(frozen=True)
class UsageObject:
    """A using object and its rows that lead to snippets (its members, or itself)."""

    object: UsageReference
    members: tuple[UsageReference, ...]

    @property
    def identifiers(self) -> tuple[str, ...]:
        return tuple(m.object_identifier for m in self.members if m.object_identifier)


@dataclass(frozen=True)
class UsageResult:
    """A where-used answer: what was searched and who uses it, grouped by object."""

    description: str
    referenced_identifier: str
    number_of_results: int
    display_name: str
    global_type: str
    references: tuple[UsageReference, ...]
    objects: tuple[UsageObject, ...]

    @property
    def identifiers(self) -> tuple[str, ...]:
        """Every ``objectIdentifier`` (what :meth:`Navigation.snippets` takes)."""
        return tuple(i for obj in self.objects for i in obj.identifiers)


@dataclass(frozen=True)
class UsageMatch:
    """One match on a snippet line: columns (0-based, end exclusive), access, grade."""

    start: int
    end: int
    access: str
    grade: str


@dataclass(frozen=True)
class CodeSnippet:
    """One usage line: where (source URL, 1-based line, 0-based columns) and the text."""

    uri: str
    source_url: str
    line: int
    column: int
    end_line: int
    end_column: int
    matches: tuple[UsageMatch, ...]
    content: str
    description: str


@dataclass(frozen=True)
class SnippetGroup:
    """The snippets of one ``objectIdentifier``."""

    object_identifier: str
    snippets: tuple[CodeSnippet, ...]


# request bodies -------------------------------------------------------------------------


def usage_request() -> bytes:
    """The minimal ``usageReferenceRequest`` every SAP-derived client sends."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?><usagereferences:usageReferenceRequest '
        f'xmlns:usagereferences="{NS_RIS}"><usagereferences:affectedObjects/>'
        "</usagereferences:usageReferenceRequest>"
    ).encode()


def snippet_request(identifiers: Iterable[str]) -> bytes:
    items = "".join(
        f'<usagereferences:objectIdentifier optional="false">{escape(i)}'
        "</usagereferences:objectIdentifier>"
        for i in identifiers
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><usagereferences:usageSnippetRequest '
        f'xmlns:usagereferences="{NS_RIS}"><usagereferences:objectIdentifiers>{items}'
        "</usagereferences:objectIdentifiers><usagereferences:affectedObjects/>"
        "</usagereferences:usageSnippetRequest>"
    ).encode()


# parsers --------------------------------------------------------------------------------


def _row(element: etree._Element) -> UsageReference:
    children = _first_children(element)
    adt = children.get(_ADT_OBJECT)
    package = adt.find(_PACKAGE_REF) if adt is not None else None
    identifier = children.get("objectIdentifier")
    uri = element.get("uri") or ""
    info = element.get("usageInformation") or ""
    return UsageReference(
        uri=uri,
        parent_uri=element.get("parentUri") or "",
        name=_get(adt, _CORE_NAME),
        type=_get(adt, _CORE_TYPE) or _fragment_type(uri),
        responsible=_get(adt, _CORE_RESPONSIBLE),
        description=_get(adt, _CORE_DESCRIPTION),
        package_name=_get(package, _CORE_NAME),
        package_uri=_get(package, _CORE_URI),
        usage_information=tuple(t for t in info.split(",") if t),
        object_identifier=((identifier.text or "") if identifier is not None else "").strip(),
        can_have_children=element.get("canHaveChildren") == "true",
        is_result=element.get("isResult") == "true",
    )


def _get(node: etree._Element | None, name: str) -> str:
    return (node.get(name) or "") if node is not None else ""


def _first_children(element: etree._Element) -> dict[str, etree._Element]:
    """The first child element of each tag, in one pass over the children (a ``find`` per
    tag was most of parsing an answer with thousands of rows)."""
    found: dict[str, etree._Element] = {}
    for child in element:
        if isinstance(child.tag, str) and child.tag not in found:
            found[child.tag] = child
    return found


_ADT_OBJECT = _ris("adtObject")
_PACKAGE_REF = _core("packageRef")
_CORE_NAME, _CORE_TYPE, _CORE_URI = _core("name"), _core("type"), _core("uri")
_CORE_RESPONSIBLE, _CORE_DESCRIPTION = _core("responsible"), _core("description")


def _fragment_type(uri: str) -> str:
    """``…#type=CLAS%2FOM;name=RUN`` → ``CLAS/OM`` (member rows carry no ``adtcore:type``)."""
    match = re.search(r"[#;]type=([^;]+)", uri)
    return match.group(1).replace("%2F", "/").replace("%2f", "/") if match else ""


def _group(rows: list[UsageReference]) -> tuple[UsageObject, ...]:
    by_parent: dict[str, list[UsageReference]] = {}
    for row in rows:
        by_parent.setdefault(row.parent_uri, []).append(row)
    objects: list[UsageObject] = []
    parents = {r.uri for r in rows if not r.is_package}
    for row in rows:
        if row.is_package or row.parent_uri in parents:
            continue
        members = tuple(by_parent.get(row.uri, []))
        objects.append(UsageObject(row, members or ((row,) if row.object_identifier else ())))
    return tuple(objects)


def parse_usage_references(body: bytes) -> UsageResult:
    """Parse a ``usageReferenceResult`` (either prefix)."""
    root = _parse(body)
    if root.tag != _ris("usageReferenceResult"):
        raise XmlFormatError(f"<{etree.QName(root).localname}> is no usageReferenceResult")
    scope = root.find(f"{_ris('scope')}/{_ris('objectIdentifier')}")
    rows = [_row(e) for e in root.iter(_ris("referencedObject"))]
    try:
        count = int(root.get("numberOfResults") or "0")
    except ValueError:
        count = 0
    return UsageResult(
        description=root.get("resultDescription") or "",
        referenced_identifier=root.get("referencedObjectIdentifier") or "",
        number_of_results=count,
        display_name=(scope.get("displayName") or "") if scope is not None else "",
        global_type=(scope.get("globalType") or "") if scope is not None else "",
        references=tuple(rows),
        objects=_group(rows),
    )


def _matches(text: str) -> tuple[UsageMatch, ...]:
    """``4-25,accessRead,gradeDirect;…``: items whose columns are not two numbers are left
    out; access and grade may be missing."""
    found: list[UsageMatch] = []
    for item in text.split(";"):
        columns, _, rest = item.partition(",")
        first, dash, last = columns.partition("-")
        first, last = first.strip(), last.strip()
        if not (dash and first.isdigit() and last.isdigit()):
            continue
        access, _, rest = rest.partition(",")
        found.append(UsageMatch(int(first), int(last), access, rest.partition(",")[0]))
    return tuple(found)


def _snippet(element: etree._Element) -> CodeSnippet:
    uri = element.get("uri") or ""
    texts = _texts(element)
    source, _, fragment = uri.partition("#")
    matches = _matches(element.get("matches") or "")
    match = _FRAGMENT.search(fragment)
    line = int(match.group(1)) if match else 0
    column = int(match.group(2)) if match and match.group(2) else 0
    end_line = int(match.group(3)) if match and match.group(3) else line
    end_column = int(match.group(4)) if match and match.group(4) else 0
    if matches and not (match and match.group(2)):
        column, end_column = matches[0].start, matches[0].end  # no columns in the fragment
    return CodeSnippet(
        uri=uri,
        source_url=source,
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        matches=matches,
        content=texts.get("content", ""),
        description=texts.get("description", ""),
    )


def _texts(element: etree._Element) -> dict[str, str]:
    """The text of each child element by its tag, the first of a tag winning: one pass
    over the children (``findtext`` per name was most of parsing thousands of snippets)."""
    found: dict[str, str] = {}
    for child in element:
        if isinstance(child.tag, str) and child.tag not in found:
            found[child.tag] = child.text or ""
    return found


def parse_snippets(body: bytes) -> tuple[SnippetGroup, ...]:
    """Parse a ``usageSnippetResult`` (either prefix)."""
    root = _parse(body)
    if root.tag != _ris("usageSnippetResult"):
        raise XmlFormatError(f"<{etree.QName(root).localname}> is no usageSnippetResult")
    return tuple(
        SnippetGroup(
            (group.findtext("objectIdentifier") or "").strip(),
            tuple(_snippet(s) for s in group.iter(_ris("codeSnippet"))),
        )
        for group in root.iter(_ris("codeSnippetObject"))
    )
