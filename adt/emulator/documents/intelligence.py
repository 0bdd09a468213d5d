"""Code intelligence answers: completion proposals (``asx:abap``), element info, navigation
targets, where-used results and usage snippets — SAP's one-line layouts and prefixes.

Where-used documents take the prefix of the RIS namespace as a parameter: A4H and the BTP
trial write ``usagereferences:``, S/4 758 writes ``usageReferences:`` (the only form
abap-adt-api 8.4.3 reads); the namespace URI is the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..xmlwriter import DECL, esc_attr, esc_text, tag, text_tag
from .common import NS_ABAPSOURCE, NS_ADTCORE

NS_RIS = "http://www.sap.com/adt/ris/usageReferences"
NS_ASX = "http://www.sap.com/abapxml"
RIS_LOWER = "usagereferences"
RIS_CAMEL = "usageReferences"

AS_XML = "application/vnd.sap.as+xml; charset=utf-8"
ELEMENT_INFO = "application/vnd.sap.adt.elementinfo+xml; charset=utf-8"
USAGE_RESULT = "application/vnd.sap.adt.repository.usagereferences.result.v1+xml; charset=utf-8"
SNIPPET_RESULT = "application/vnd.sap.adt.repository.usagesnippets.result.v1+xml; charset=utf-8"

#: The fields of one ``SCC_COMPLETION`` record in SAP's order (``IDENTIFIER`` is the text).
COMPLETION_FIELDS = (
    "KIND",
    "IDENTIFIER",
    "ICON",
    "SUBICON",
    "BOLD",
    "COLOR",
    "QUICKINFO_EVENT",
    "INSERT_EVENT",
    "IS_META",
    "PREFIXLENGTH",
    "ROLE",
    "LOCATION",
    "GRADE",
    "VISIBILITY",
    "IS_INHERITED",
    "PROP1",
    "PROP2",
    "PROP3",
    "SYNTCNTXT",
)


@dataclass(frozen=True)
class CompletionRecord:
    """One proposal: the identifier and the numeric fields (missing ones are 0)."""

    identifier: str
    values: dict[str, int] = field(default_factory=dict)


def completion_document(records: Sequence[CompletionRecord]) -> str:
    """``asx:abap/asx:values/DATA/SCC_COMPLETION*`` (an empty ``DATA`` without proposals)."""
    body = ""
    for record in records:
        fields = "".join(
            f"<{name}>{esc_text(record.identifier)}</{name}>"
            if name == "IDENTIFIER"
            else f"<{name}>{record.values.get(name, 0)}</{name}>"
            for name in COMPLETION_FIELDS
        )
        body += f"<SCC_COMPLETION>{fields}</SCC_COMPLETION>"
    data = f"<DATA>{body}</DATA>" if body else "<DATA/>"
    return (
        f'{DECL}<asx:abap version="1.0" xmlns:asx="{NS_ASX}"><asx:values>{data}'
        "</asx:values></asx:abap>"
    )


END_RECORD = CompletionRecord("@end")


# element info ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ElementInfo:
    """One ``abapsource:elementInfo``: type and name (absent for "nothing here"),
    properties in order, documentation (rel, media type, text), nested elements."""

    type: str | None = None
    name: str | None = None
    properties: tuple[tuple[str, str], ...] = ()
    documentation: tuple[tuple[str, str, str], ...] = ()
    children: tuple[ElementInfo, ...] = ()


def _element(info: ElementInfo, *, root: bool) -> str:
    attrs: list[tuple[str, str | None]] = [
        ("adtcore:type", info.type),
        ("adtcore:name", info.name),
    ]
    if root:
        attrs += [("xmlns:abapsource", NS_ABAPSOURCE), ("xmlns:adtcore", NS_ADTCORE)]
    entries = "".join(
        text_tag("abapsource:entry", value, [("abapsource:key", key)])
        for key, value in info.properties
    )
    body = tag("abapsource:properties", (), entries)
    body += "".join(
        text_tag(
            "abapsource:documentation", text, [("abapsource:rel", rel), ("abapsource:type", kind)]
        )
        for rel, kind, text in info.documentation
    )
    body += "".join(_element(child, root=False) for child in info.children)
    return tag("abapsource:elementInfo", attrs, body)


def element_info_document(info: ElementInfo) -> str:
    return DECL + _element(info, root=True)


# navigation -----------------------------------------------------------------------------


def navigation_target(uri: str) -> str:
    """The one-element answer of ``/navigation/target`` (A4H 958)."""
    return DECL + tag(
        "adtcore:objectReference", [("adtcore:uri", uri), ("xmlns:adtcore", NS_ADTCORE)]
    )


# where-used -----------------------------------------------------------------------------


@dataclass(frozen=True)
class UsageRow:
    """One ``referencedObject`` row of the flattened where-used tree."""

    uri: str
    parent_uri: str | None
    can_have_children: bool
    name: str
    package_uri: str
    package_name: str
    responsible: str | None = None
    type: str | None = None
    usage_information: str | None = None
    object_identifier: str | None = None


@dataclass(frozen=True)
class UsageScope:
    """The ``scope`` of a where-used answer: what was searched, the grade, the program."""

    display_name: str
    global_type: str
    definitions: bool = False
    main_program_include: str | None = None


def _row(prefix: str, row: UsageRow) -> str:
    """One ``referencedObject`` (written out rather than through :func:`tag`: an answer has
    thousands, and this is most of what building it costs)."""
    esc = esc_attr
    core = (
        _attr("adtcore:responsible", row.responsible)
        + f' adtcore:name="{esc(row.name)}"'
        + _attr("adtcore:type", row.type)
    )
    package = (
        f'<adtcore:packageRef adtcore:uri="{esc(row.package_uri)}" adtcore:type="DEVC/K"'
        f' adtcore:name="{esc(row.package_name)}"/>'
    )
    body = f'<{prefix}:adtObject{core} xmlns:adtcore="{_NS_ADTCORE}">{package}</{prefix}:adtObject>'
    if row.object_identifier is not None:
        body += text_tag("objectIdentifier", row.object_identifier)
    children = "true" if row.can_have_children else "false"
    head = (
        f'<{prefix}:referencedObject uri="{esc(row.uri)}"'
        + _attr("parentUri", row.parent_uri)
        + f' isResult="false" canHaveChildren="{children}"'
        + _attr("usageInformation", row.usage_information)
    )
    return f"{head}>{body}</{prefix}:referencedObject>"


def _attr(name: str, value: str | None) -> str:
    """`` name="value"`` (escaped), or nothing when the value is None, as :func:`tag` does."""
    return "" if value is None else f' {name}="{esc_attr(value)}"'


_NS_ADTCORE = esc_attr(NS_ADTCORE)


def _text(name: str, value: str) -> str:
    """:func:`text_tag` without attributes, written out (twice per snippet line)."""
    return f"<{name}>{esc_text(value)}</{name}>" if value else f"<{name}/>"


def usage_references_document(
    prefix: str,
    *,
    results: int,
    description: str,
    referenced: str,
    scope: UsageScope,
    rows: Sequence[UsageRow],
) -> str:
    """``usageReferenceResult`` with the scope and the rows (sorted by the caller)."""
    flag = "true" if scope.definitions else "false"
    scope_body = tag(
        f"{prefix}:objectIdentifier",
        [("displayName", scope.display_name), ("globalType", scope.global_type)],
    ) + tag(
        f"{prefix}:grade",
        [("definitions", flag), ("elements", "false"), ("indirectReferences", "false")],
    )
    if scope.main_program_include is not None:
        main = tag(
            f"{prefix}:mainProgram",
            [
                ("name", ""),
                ("type", ""),
                ("isSelected", "false"),
                ("include", scope.main_program_include),
            ],
        )
        scope_body += tag(f"{prefix}:programs", (), main)
    return DECL + tag(
        f"{prefix}:usageReferenceResult",
        [
            ("numberOfResults", str(results)),
            ("resultDescription", description),
            ("referencedObjectIdentifier", referenced),
            (f"xmlns:{prefix}", NS_RIS),
        ],
        tag(f"{prefix}:scope", (), scope_body)
        + tag(f"{prefix}:referencedObjects", (), "".join(_row(prefix, r) for r in rows)),
    )


@dataclass(frozen=True)
class CodeSnippet:
    """One usage line: its URI with ``#start=…;end=…``, the ``matches`` list, the line."""

    uri: str
    matches: str
    content: str
    description: str = ""


def usage_snippets_document(
    prefix: str, objects: Sequence[tuple[str, Sequence[CodeSnippet]]]
) -> str:
    """``usageSnippetResult``: per identifier its echo and its snippets."""
    parts: list[str] = []
    for identifier, snippets in objects:
        inner = "".join(
            f'<{prefix}:codeSnippet uri="{esc_attr(s.uri)}" matches="{esc_attr(s.matches)}">'
            f"{_text('content', s.content)}{_text('description', s.description)}"
            f"</{prefix}:codeSnippet>"
            for s in snippets
        )
        parts.append(
            tag(
                f"{prefix}:codeSnippetObject",
                (),
                text_tag("objectIdentifier", identifier) + tag(f"{prefix}:codeSnippets", (), inner),
            )
        )
    return DECL + tag(
        f"{prefix}:usageSnippetResult",
        [(f"xmlns:{prefix}", NS_RIS)],
        tag(f"{prefix}:codeSnippetObjects", (), "".join(parts)),
    )
