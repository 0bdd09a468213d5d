"""The document of a metadata object (data element, domain, message class, service binding,
table type) as the text the source operations read and patch.

Those kinds have no ``/source/main``: their source is the ADT XML document of the object
itself. Systems send it on one line; it is read indented one element a line, so that an
editor shows it readably, a range read or a line patch touches one field, and a token names
exactly what was read. The stamps the system keeps itself (``changedAt``, ``changedBy``,
``version`` of the root) are left out: they change with every write and activation, and the
text would look changed by someone else after one's own save. Written back as edited
(whitespace between elements means nothing to the system), with the kind's media type,
under the same lock and token check as a source.
"""

from __future__ import annotations

import re

from lxml import etree

from adt.abap.outline import Symbol
from adt.kinds import KINDS
from adt.text import check_line_lengths

ADTCORE = "{http://www.sap.com/adt/core}"
#: Root attributes the system sets on every write and activation (ignored when sent).
STAMPS = tuple(f"{ADTCORE}{name}" for name in ("changedAt", "changedBy", "version"))
_PARSER = etree.XMLParser(remove_blank_text=True, resolve_entities=False, no_network=True)


def document_media(path: str) -> str | None:
    """The media type of a metadata object's document; ``None`` for a source."""
    kind = KINDS.for_url(path)
    return kind.media_type if kind is not None and not kind.source_based else None


def read_accept(path: str) -> str:
    """What a read of ``path`` asks for."""
    return document_media(path) or "text/plain"


def as_text(path: str, body: bytes) -> str:
    """The text of a read: a source as sent, a document indented one element a line."""
    if document_media(path) is None:
        return body.decode("utf-8")
    root = etree.fromstring(body, _PARSER)
    for stamp in STAMPS:
        if stamp in root.attrib:
            del root.attrib[stamp]
    indented = etree.tostring(root, pretty_print=True, encoding="unicode")
    lines = (_wrapped(line) for line in indented.split("\n"))
    return '<?xml version="1.0" encoding="utf-8"?>\n' + "\n".join(lines)


#: A start tag with its attributes (lxml writes every value in double quotes, ``"`` escaped).
_START_TAG = re.compile(
    r'^(?P<indent> *)<(?P<tag>[^\s>/]+)(?P<attrs>(?: [^\s=]+="[^"]*")+)(?P<rest>/?>.*)$'
)
_ATTRIBUTE = re.compile(r' ([^\s=]+="[^"]*")')
#: Longer start tags get one attribute a line (the system's root tags carry a dozen).
WIDTH = 100


def _wrapped(line: str) -> str:
    """A long start tag with one attribute a line after the first (blanks between the
    attributes of a tag mean nothing in XML), so that no line comes near ABAP's 255."""
    found = _START_TAG.match(line) if len(line) > WIDTH else None
    if found is None:
        return line
    attributes = _ATTRIBUTE.findall(found["attrs"])
    indent = found["indent"]
    head = f"{indent}<{found['tag']} {attributes[0]}"
    rest = [f"{indent}    {attribute}" for attribute in attributes[1:]]
    wrapped = [head, *rest]
    wrapped[-1] += found["rest"]
    return "\n".join(wrapped)


def write_headers(path: str, text: str) -> dict[str, str]:
    """The headers of a write of ``text`` to ``path``. A source's lines must fit 255
    characters (refused here, before anything is sent); a document's need not."""
    media = document_media(path)
    if media is not None:
        return {"Content-Type": media, "Accept": media}
    check_line_lengths(text)
    return {"Content-Type": "text/plain; charset=utf-8", "Accept": "text/plain"}


#: Elements that carry links and references, not the object's own facts.
_NOT_FACTS = ("{http://www.w3.org/2005/Atom}link", f"{ADTCORE}packageRef")
#: Attributes that name an element among its siblings (a message's number, a service's name).
_NAMING = ("msgno", "name", "version")
#: Attributes that hold an element's text (a message's text).
_TEXTS = ("msgtext", "description")


def outline(text: str) -> list[Symbol]:
    """The document's facts as an outline: the object (its name, its description), each
    element with its value or naming attribute, nested as in the document. An edit that
    left the text malformed has no outline until it is well formed again."""
    try:
        root = etree.fromstring(text.encode("utf-8"), _PARSER)
    except etree.XMLSyntaxError:
        return []
    lines = text.split("\n")
    top = _symbol(root, lines)
    top.name = root.get(f"{ADTCORE}name") or top.name
    top.detail = root.get(f"{ADTCORE}description") or ""
    return [top]


def _line(element: etree._Element) -> int:
    found = element.sourceline
    return found if isinstance(found, int) else 1


def _start(element: etree._Element, lines: list[str]) -> tuple[int, int]:
    """Where the element's start tag begins (the parser reports the line it ends on: a
    wrapped tag spans several)."""
    prefix = f"{element.prefix}:" if element.prefix else ""
    opening = f"<{prefix}{etree.QName(element).localname}"
    for line in range(min(_line(element), len(lines)), 0, -1):
        column = lines[line - 1].find(opening)
        if column >= 0:
            return line, column
    return _line(element), 0


def _last_line(element: etree._Element) -> int:
    """The line of the element's closing tag (indented: a line of its own after its
    children's)."""
    if len(element) == 0:
        return _line(element)
    return max(_last_line(child) for child in element) + 1


def _symbol(element: etree._Element, lines: list[str]) -> Symbol:
    name = etree.QName(element).localname
    naming = next(
        (element.get(a) for a in element.attrib if etree.QName(a).localname in _NAMING), None
    )
    line, column = _start(element, lines)
    last = min(max(_last_line(element), line), len(lines))
    value = (element.text or "").strip() or next(
        (element.get(a) or "" for a in element.attrib if etree.QName(a).localname in _TEXTS), ""
    )
    symbol = Symbol(
        f"{name} {naming}" if naming else name,
        "field",
        value,
        (line, column),
        (last, len(lines[last - 1])),
    )
    symbol.children = [
        _symbol(child, lines)
        for child in element
        if isinstance(child.tag, str) and child.tag not in _NOT_FACTS
    ]
    if symbol.children:
        symbol.kind = "source"
    return symbol


__all__ = ["as_text", "document_media", "outline", "read_accept", "write_headers"]
