"""ADT's extract-method refactoring: the proposal evaluate answers and the preview request.

Evaluate (``rel=…/extractmethod``, the selection in the ``uri``'s fragment) answers an
``extractMethodRefactoring``: the proposed name, whether the method is static, its
visibility, the inferred parameters, the selected text and the generic part. The preview
request sends it back with the chosen name; its answer is a bare ``genericRefactoring``
with the replacements, read by :func:`adt.areas.refactoring.parse_rename`. Matched by local
names, like the rename. See docs/protocol/refactoring.md.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml import etree

from adt._xml import _parse
from adt.errors import UnexpectedResponseError

EXTRACT_REL = "http://www.sap.com/adt/relations/refactoring/extractmethod"
NS_EXTRACT = "http://www.sap.com/adt/refactoring/extractmethodrefactoring"
NS_GENERIC = "http://www.sap.com/adt/refactoring/genericrefactoring"
NS_ADTCORE = "http://www.sap.com/adt/core"

__all__ = [
    "EXTRACT_REL",
    "ExtractParameter",
    "ExtractProposal",
    "extract_request",
    "parse_extract",
]


@dataclass(frozen=True)
class ExtractParameter:
    """One inferred parameter: ``direction`` is ``IMPORTING``, ``EXPORTING`` or
    ``CHANGING``; ``type_type`` ``TYPE`` or ``TYPE REF TO``."""

    id: str
    name: str
    direction: str
    type_type: str
    type: str
    by_value: bool = False


@dataclass(frozen=True)
class ExtractProposal:
    """What evaluate proposed. ``object_uri`` is where it was asked (with the selection);
    ``affected`` the sources it names (``(source URL, object URL, name, type)``)."""

    name: str
    static: bool
    visibility: str
    class_name: str
    content: str
    parameters: tuple[ExtractParameter, ...]
    object_uri: str
    transport: str
    affected: tuple[tuple[str, str, str, str], ...]

    def signature(self) -> str:
        """The parameters as one line a user reads (``IMPORTING iv_a TYPE i …``)."""
        parts = []
        for direction in ("IMPORTING", "EXPORTING", "CHANGING"):
            group = [p for p in self.parameters if p.direction == direction]
            if group:
                typed = " ".join(f"{p.name} {p.type_type} {p.type}" for p in group)
                parts.append(f"{direction} {typed}")
        return " ".join(parts)


def _local(element: etree._Element) -> str:
    return etree.QName(element).localname


def _child(element: etree._Element, name: str) -> etree._Element | None:
    for child in element:
        if isinstance(child.tag, str) and _local(child) == name:
            return child
    return None


def _text(element: etree._Element | None, name: str, *, strip: bool = True) -> str:
    found = _child(element, name) if element is not None else None
    text = found.text or "" if found is not None else ""
    return text.strip() if strip else text


def _parameter(element: etree._Element) -> ExtractParameter:
    return ExtractParameter(
        _text(element, "id"),
        _text(element, "name"),
        _text(element, "direction").upper(),
        _text(element, "typeType"),
        _text(element, "type"),
        _text(element, "byValue") == "true",
    )


def parse_extract(body: bytes) -> ExtractProposal:
    """An ``extractMethodRefactoring`` → the proposal."""
    root = _parse(body)
    if _local(root) != "extractMethodRefactoring":
        raise UnexpectedResponseError(f"not an extract-method refactoring: <{_local(root)}>")
    parameters = _child(root, "parameters")
    generic = _child(root, "genericRefactoring")
    objects = _child(generic, "affectedObjects") if generic is not None else None
    core = f"{{{NS_ADTCORE}}}"
    affected = tuple(
        (
            o.get(f"{core}uri", ""),
            o.get(f"{core}parentUri", ""),
            o.get(f"{core}name", ""),
            o.get(f"{core}type", ""),
        )
        for o in (objects if objects is not None else [])
        if isinstance(o.tag, str)
    )
    return ExtractProposal(
        name=_text(root, "name"),
        static=_text(root, "isStatic") == "true",
        visibility=_text(root, "visibility") or "PRIVATE",
        class_name=_text(root, "className"),
        content=_text(root, "content", strip=False),
        parameters=tuple(
            _parameter(p)
            for p in (parameters if parameters is not None else [])
            if isinstance(p.tag, str)
        ),
        object_uri=_text(generic, "adtObjectUri"),
        transport=_text(generic, "transport"),
        affected=affected,
    )


def _sub(
    parent: etree._Element, namespace: str, name: str, text: str | None = None
) -> etree._Element:
    element = etree.SubElement(parent, f"{{{namespace}}}{name}")
    if text is not None:
        element.text = text
    return element


def extract_request(proposal: ExtractProposal) -> bytes:
    """The preview body: the proposal as evaluate answered it, with the chosen name."""
    e, g = NS_EXTRACT, NS_GENERIC
    nsmap = {"extractmethod": e, "generic": g, "adtcore": NS_ADTCORE}
    root = etree.Element(f"{{{e}}}extractMethodRefactoring", nsmap=nsmap)
    _sub(root, e, "name", proposal.name)
    _sub(root, e, "isStatic", "true" if proposal.static else "false")
    _sub(root, e, "visibility", proposal.visibility)
    _sub(root, e, "classBasedExceptions", "true")
    parameters = _sub(root, e, "parameters")
    for p in proposal.parameters:
        element = _sub(parameters, e, "parameter")
        for name, value in (
            ("id", p.id),
            ("name", p.name),
            ("direction", p.direction),
            ("byValue", "true" if p.by_value else "false"),
            ("typeType", p.type_type),
            ("type", p.type),
            ("userContent", ""),
        ):
            _sub(element, e, name, value)
    _sub(root, e, "exceptions")
    _sub(root, e, "content", proposal.content)
    generic = _sub(root, g, "genericRefactoring")
    _sub(generic, g, "title", "Extract Method")
    _sub(generic, g, "adtObjectUri", proposal.object_uri)
    objects = _sub(generic, g, "affectedObjects")
    for uri, parent, name, kind in proposal.affected:
        obj = _sub(objects, g, "affectedObject")
        for attribute, value in (
            ("name", name),
            ("parentUri", parent),
            ("type", kind),
            ("uri", uri),
        ):
            obj.set(f"{{{NS_ADTCORE}}}{attribute}", value)
        _sub(obj, g, "userContent", "")
    _sub(generic, g, "transport", proposal.transport)
    _sub(generic, g, "ignoreSyntaxErrorsAllowed", "false")
    _sub(generic, g, "ignoreSyntaxErrors", "false")
    _sub(generic, g, "userContent", "")
    _sub(root, e, "className", proposal.class_name)
    _sub(root, e, "isEventAllowed", "false")
    _sub(root, e, "isEvent", "false")
    _sub(root, e, "userContent", "")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")
