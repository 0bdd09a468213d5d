"""Refactoring answers: ``rename:renameRefactoring`` around a ``generic:genericRefactoring``
with the affected objects and their text replacements (docs/protocol/refactoring.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..xmlwriter import DECL, tag, text_tag
from .common import NS_ADTCORE

NS_RENAME = "http://www.sap.com/adt/refactoring/renamerefactoring"
NS_GENERIC = "http://www.sap.com/adt/refactoring/genericrefactoring"
NS_EXTRACT = "http://www.sap.com/adt/refactoring/extractmethodrefactoring"
#: Not recorded: what public clients accept (abap-adt-api ``application/*``, others
#: ``application/xml``).
REFACTORING_TYPE = "application/xml; charset=utf-8"
RENAME_REL = "http://www.sap.com/adt/relations/refactoring/rename"
EXTRACT_REL = "http://www.sap.com/adt/relations/refactoring/extractmethod"


@dataclass(frozen=True)
class Delta:
    """Replace ``old`` from line ``line`` (1-based), column ``start`` to line ``end_line``
    (``line`` when 0), column ``end`` (0-based, exclusive) with ``new``."""

    line: int
    start: int
    end: int
    old: str
    new: str
    end_line: int = 0

    @property
    def last_line(self) -> int:
        return self.end_line or self.line

    @property
    def fragment(self) -> str:
        return f"#start={self.line},{self.start};end={self.last_line},{self.end}"


@dataclass(frozen=True)
class Affected:
    """One source a refactoring changes: its URI, the object it belongs to, its deltas."""

    uri: str
    parent_uri: str
    name: str
    type: str
    deltas: tuple[Delta, ...]


@dataclass(frozen=True)
class Generic:
    """The ``genericRefactoring`` part every refactoring step carries."""

    title: str
    object_uri: str
    affected: Sequence[Affected]
    transport: str = ""
    ignore_errors_allowed: bool = False


def _flag(value: bool) -> str:
    return "true" if value else "false"


def _affected(obj: Affected) -> str:
    deltas = "".join(
        tag(
            "generic:textReplaceDelta",
            (),
            text_tag("generic:rangeFragment", d.fragment)
            + text_tag("generic:contentOld", d.old)
            + text_tag("generic:contentNew", d.new),
        )
        for d in obj.deltas
    )
    attrs = [
        ("adtcore:name", obj.name),
        ("adtcore:parentUri", obj.parent_uri),
        ("adtcore:type", obj.type),
        ("adtcore:uri", obj.uri),
    ]
    body = tag("generic:textReplaceDeltas", (), deltas) + tag("generic:userContent")
    return tag("generic:affectedObject", attrs, body)


def generic_document(generic: Generic, *, declare: bool) -> str:
    """``generic:genericRefactoring`` (declaring its namespaces when it is the root)."""
    attrs = [("xmlns:adtcore", NS_ADTCORE), ("xmlns:generic", NS_GENERIC)] if declare else []
    body = (
        text_tag("generic:title", generic.title)
        + text_tag("generic:adtObjectUri", generic.object_uri)
        + tag("generic:affectedObjects", (), "".join(_affected(a) for a in generic.affected))
        + text_tag("generic:transport", generic.transport)
        + text_tag("generic:ignoreSyntaxErrorsAllowed", _flag(generic.ignore_errors_allowed))
        + text_tag("generic:ignoreSyntaxErrors", "false")
        + tag("generic:userContent")
    )
    return tag("generic:genericRefactoring", attrs, body)


def rename_document(old_name: str, new_name: str, generic: Generic) -> str:
    """``rename:renameRefactoring``: the names, the generic part, the user content."""
    attrs = [
        ("xmlns:adtcore", NS_ADTCORE),
        ("xmlns:generic", NS_GENERIC),
        ("xmlns:rename", NS_RENAME),
    ]
    body = (
        text_tag("rename:oldName", old_name)
        + text_tag("rename:newName", new_name)
        + generic_document(generic, declare=False)
        + tag("rename:userContent")
    )
    return DECL + tag("rename:renameRefactoring", attrs, body)


@dataclass(frozen=True)
class Signature:
    """One parameter of an extract-method proposal (abap-adt-api's ``Parameter``)."""

    name: str
    direction: str
    type_type: str
    type: str


@dataclass(frozen=True)
class ExtractProposal:
    """What extract-method evaluate answers: the new method's name, kind and signature,
    the selected ``content``, and the generic part (no replacements yet)."""

    name: str
    static: bool
    class_name: str
    content: str
    parameters: Sequence[Signature]
    generic: Generic


def _parameter(p: Signature) -> str:
    return tag(
        "extractmethod:parameter",
        (),
        text_tag("extractmethod:id", p.name)
        + text_tag("extractmethod:name", p.name)
        + text_tag("extractmethod:direction", p.direction)
        + text_tag("extractmethod:byValue", "false")
        + text_tag("extractmethod:typeType", p.type_type)
        + text_tag("extractmethod:type", p.type)
        + tag("extractmethod:userContent"),
    )


def extract_document(proposal: ExtractProposal) -> str:
    """``extractmethod:extractMethodRefactoring``, the shape abap-adt-api parses."""
    attrs = [
        ("xmlns:adtcore", NS_ADTCORE),
        ("xmlns:extractmethod", NS_EXTRACT),
        ("xmlns:generic", NS_GENERIC),
    ]
    body = (
        text_tag("extractmethod:name", proposal.name)
        + text_tag("extractmethod:isStatic", _flag(proposal.static))
        + text_tag("extractmethod:visibility", "PRIVATE")
        + text_tag("extractmethod:classBasedExceptions", "true")
        + tag("extractmethod:parameters", (), "".join(_parameter(p) for p in proposal.parameters))
        + tag("extractmethod:exceptions")
        + text_tag("extractmethod:content", proposal.content)
        + generic_document(proposal.generic, declare=False)
        + text_tag("extractmethod:className", proposal.class_name)
        + text_tag("extractmethod:isEventAllowed", "false")
        + text_tag("extractmethod:isEvent", "false")
        + tag("extractmethod:userContent")
    )
    return DECL + tag("extractmethod:extractMethodRefactoring", attrs, body)


def execute_document(generic: Generic) -> str:
    """The answer of ``step=execute``: the generic part as it was applied."""
    return DECL + generic_document(generic, declare=True)


__all__ = [
    "EXTRACT_REL",
    "NS_EXTRACT",
    "NS_GENERIC",
    "NS_RENAME",
    "REFACTORING_TYPE",
    "RENAME_REL",
    "Affected",
    "Delta",
    "ExtractProposal",
    "Generic",
    "Signature",
    "execute_document",
    "extract_document",
    "generic_document",
    "rename_document",
]
