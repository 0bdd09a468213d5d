"""Go to definition, element info (hover) and usage references (where-used) with snippets.

Positions are those of ADT: lines 1-based, columns 0-based. Definition and element info
send the editor's current text (saved or not) with the position in the ``uri`` fragment;
where-used works on the stored sources.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import quote

from lxml import etree

from adt._xml import XmlFormatError, _parse
from adt.areas.base import Area
from adt.areas.usages import (
    REQUEST_TYPE,
    RESULT_TYPE,
    CodeSnippet,
    SnippetGroup,
    UsageMatch,
    UsageObject,
    UsageReference,
    UsageResult,
    parse_snippets,
    parse_usage_references,
    snippet_request,
    usage_request,
)
from adt.urls import check_adt_path

NS_ADTCORE = "http://www.sap.com/adt/core"
NS_ABAPSOURCE = "http://www.sap.com/adt/abapsource"
NS_ATOM = "http://www.w3.org/2005/Atom"
_TARGET = re.compile(r"^([^#]+)#start=(\d+),(\d+)")
_SOURCE_SUFFIX = re.compile(r"/(source/main|includes/[a-z]+)$")


@dataclass(frozen=True)
class DefinitionTarget:
    """Where a symbol is declared (or implemented): source URL, line, column."""

    uri: str
    source_url: str
    object_url: str
    line: int
    column: int


@dataclass(frozen=True)
class ElementInfo:
    """What an identifier is: its workbench type and name, properties, documentation
    (``rel`` → text: ``shorttext``, ``abapdoc``) and components (parameters, fields)."""

    type: str
    name: str
    properties: Mapping[str, str] = field(default_factory=dict)
    documentation: Mapping[str, str] = field(default_factory=dict)
    components: tuple[ElementInfo, ...] = ()
    link: str = ""

    @property
    def description(self) -> str:
        """The short text, else the ABAP Doc."""
        return self.documentation.get("shorttext") or self.documentation.get("abapdoc", "")

    @property
    def parameters(self) -> tuple[ElementInfo, ...]:
        return tuple(c for c in self.components if "paramType" in c.properties)


def position_uri(
    source_url: str,
    line: int,
    column: int,
    *,
    end_column: int | None = None,
    main_program: str | None = None,
) -> str:
    """``<source>[?context=<main>]#start=L,C[;end=L,C2]`` (the value of the ``uri`` parameter)."""
    if line < 1 or column < 0:
        raise ValueError("lines are 1-based and columns 0-based")
    uri = check_adt_path(source_url)
    if main_program is not None:
        uri += "?context=" + quote(check_adt_path(main_program), safe="")
    uri += f"#start={line},{column}"
    if end_column is not None:
        uri += f";end={line},{end_column}"
    return uri


def parse_definition(body: bytes) -> DefinitionTarget | None:
    """``adtcore:objectReference/@adtcore:uri`` → the target (``None`` without a URI)."""
    root = _parse(body)
    uri = root.get(f"{{{NS_ADTCORE}}}uri") or ""
    if etree.QName(root).localname != "objectReference" or not uri:
        return None
    match = _TARGET.match(uri)
    source, line, column = (
        (match.group(1), int(match.group(2)), int(match.group(3)))
        if match
        else (uri.split("#")[0], 0, 0)
    )
    return DefinitionTarget(uri, source, _SOURCE_SUFFIX.sub("", source), line, column)


def _element(element: etree._Element) -> ElementInfo:
    ns = f"{{{NS_ABAPSOURCE}}}"
    properties = {
        entry.get(f"{ns}key") or "": entry.text or ""
        for entry in element.findall(f"{ns}properties/{ns}entry")
    }
    documentation = {
        doc.get(f"{ns}rel") or "": doc.text or "" for doc in element.findall(f"{ns}documentation")
    }
    link = element.find(f"{{{NS_ATOM}}}link")
    return ElementInfo(
        type=element.get(f"{{{NS_ADTCORE}}}type") or "",
        name=element.get(f"{{{NS_ADTCORE}}}name") or "",
        properties=properties,
        documentation=documentation,
        components=tuple(_element(child) for child in element.findall(f"{ns}elementInfo")),
        link=(link.get("href") or "") if link is not None else "",
    )


def parse_element_info(body: bytes) -> ElementInfo | None:
    """An ``abapsource:elementInfo``; ``None`` for "nothing here" (zero bytes, or a root
    without type and name)."""
    if not body.strip():
        return None
    root = _parse(body)
    if root.tag != f"{{{NS_ABAPSOURCE}}}elementInfo":
        raise XmlFormatError(f"<{etree.QName(root).localname}> is no elementInfo")
    info = _element(root)
    return info if info.type or info.name else None


class Navigation(Area):
    """Definition, element info and where-used of one system."""

    async def definition(
        self,
        source_url: str,
        text: str,
        line: int,
        column: int,
        *,
        end_column: int | None = None,
        implementation: bool = False,
        main_program: str | None = None,
    ) -> DefinitionTarget:
        """Where the identifier at (line, column) of ``text`` is declared (``implementation``:
        implemented). Raises :class:`~adt.errors.BadRequestError` when there is nothing to
        go to (``ED/263`` on a declaration itself)."""
        uri = position_uri(
            source_url, line, column, end_column=end_column, main_program=main_program
        )
        response = await self._send(
            "POST",
            "/sap/bc/adt/navigation/target",
            params={"uri": uri, "filter": "implementation" if implementation else "definition"},
            headers={"Content-Type": "text/plain; charset=utf-8", "Accept": "application/xml"},
            content=text.encode("utf-8"),
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        target = parse_definition(response.content)
        if target is None:
            raise XmlFormatError("the navigation answer names no target")
        return target

    async def element_info(
        self, source_url: str, text: str, line: int, column: int
    ) -> ElementInfo | None:
        """What the identifier at (line, column) is; ``None`` on a keyword or blank."""
        response = await self._send(
            "POST",
            "/sap/bc/adt/abapsource/codecompletion/elementinfo",
            params={"uri": position_uri(source_url, line, column)},
            headers={"Content-Type": "text/plain; charset=utf-8", "Accept": "application/*"},
            content=text.encode("utf-8"),
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        return parse_element_info(response.content)

    async def usages(
        self, object_url: str, line: int | None = None, column: int | None = None
    ) -> UsageResult:
        """Who uses an object (``object_url``), or the symbol at (line, column) of a
        source URL, grouped by using object."""
        uri = check_adt_path(object_url)
        if line is not None:
            uri = position_uri(object_url, line, column or 0)
        response = await self._send(
            "POST",
            "/sap/bc/adt/repository/informationsystem/usageReferences",
            params={"uri": uri},
            headers={"Content-Type": REQUEST_TYPE, "Accept": RESULT_TYPE},
            content=usage_request(),
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        return parse_usage_references(response.content)

    async def snippets(self, usages: UsageResult | Iterable[str]) -> tuple[SnippetGroup, ...]:
        """The source lines behind the rows of a where-used result (or identifiers)."""
        identifiers = usages.identifiers if isinstance(usages, UsageResult) else tuple(usages)
        if not identifiers:
            return ()
        response = await self._send(
            "POST",
            "/sap/bc/adt/repository/informationsystem/usageSnippets",
            headers={"Content-Type": "application/*", "Accept": "application/*"},
            content=snippet_request(identifiers),
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        return parse_snippets(response.content)


__all__ = [
    "CodeSnippet",
    "DefinitionTarget",
    "ElementInfo",
    "Navigation",
    "SnippetGroup",
    "UsageMatch",
    "UsageObject",
    "UsageReference",
    "UsageResult",
    "parse_definition",
    "parse_element_info",
    "position_uri",
]
