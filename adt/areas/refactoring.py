"""ADT's rename refactoring: ``/sap/bc/adt/refactorings`` in three steps.

:meth:`Refactorings.rename_evaluate` names the symbol at a position and every place that
changes with it; :meth:`Refactorings.rename_preview` answers the replacements for a new
name (nothing changes yet); :meth:`Refactorings.rename_execute` lets the server apply them.
The language server and the agents apply the preview themselves instead (token-checked,
under their own locks; see :mod:`adt.workbench.renaming`). Positions are 1-based lines and
0-based columns of the saved source. See docs/protocol/refactoring.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from lxml import etree

from adt._xml import _parse
from adt.areas.base import Area
from adt.areas.extraction import EXTRACT_REL, ExtractProposal, extract_request, parse_extract
from adt.errors import UnexpectedResponseError

PATH = "/sap/bc/adt/refactorings"
RENAME_REL = "http://www.sap.com/adt/relations/refactoring/rename"
NS_RENAME = "http://www.sap.com/adt/refactoring/renamerefactoring"
NS_GENERIC = "http://www.sap.com/adt/refactoring/genericrefactoring"
NS_ADTCORE = "http://www.sap.com/adt/core"
_HEADERS = {"Content-Type": "application/*", "Accept": "application/*"}
_RANGE = re.compile(r"start=(\d+),(\d+);end=(\d+),(\d+)")

__all__ = [
    "AffectedSource",
    "Refactorings",
    "RenameProposal",
    "TextReplacement",
    "parse_rename",
    "rename_request",
]


@dataclass(frozen=True)
class TextReplacement:
    """Replace ``old`` from ``line`` (1-based), column ``start`` to line ``end_line``
    (``line`` when 0), column ``end`` (0-based, end exclusive), with ``new``. A rename
    stays on one line; an extracted method replaces lines and inserts new ones."""

    line: int
    start: int
    end: int
    old: str
    new: str
    end_line: int = 0

    @property
    def last_line(self) -> int:
        return self.end_line or self.line


@dataclass(frozen=True)
class AffectedSource:
    """One source a rename changes: its URL, its object's URL, name and type, the places."""

    source_url: str
    object_url: str
    name: str
    type: str
    replacements: tuple[TextReplacement, ...]


@dataclass(frozen=True)
class RenameProposal:
    """What a step answered: the names, where it was asked (``object_uri`` with its
    ``#start=…;end=…``), the request, and the affected sources."""

    old_name: str
    new_name: str
    object_uri: str
    transport: str
    affected: tuple[AffectedSource, ...]

    @property
    def places(self) -> int:
        return sum(len(a.replacements) for a in self.affected)


def _local(element: etree._Element) -> str:
    return etree.QName(element).localname


def _child_text(element: etree._Element, name: str) -> str:
    for child in element:
        if isinstance(child.tag, str) and _local(child) == name:
            return (child.text or "").strip()
    return ""


def _core(element: etree._Element, name: str) -> str:
    return element.get(f"{{{NS_ADTCORE}}}{name}") or element.get(name) or ""


def _raw_text(element: etree._Element, name: str) -> str:
    """A child's text as sent: replaced and inserted lines keep their indentation."""
    for child in element:
        if isinstance(child.tag, str) and _local(child) == name:
            return child.text or ""
    return ""


def _replacement(element: etree._Element) -> TextReplacement:
    fragment = _child_text(element, "rangeFragment")
    match = _RANGE.search(fragment)
    if match is None:
        raise UnexpectedResponseError(f"a text replacement without a range: {fragment!r}")
    line, start, end_line, end = (int(g) for g in match.groups())
    old, new = _raw_text(element, "contentOld"), _raw_text(element, "contentNew")
    return TextReplacement(line, start, end, old, new, end_line if end_line != line else 0)


def _affected(element: etree._Element) -> AffectedSource:
    replacements = tuple(
        _replacement(d)
        for d in element.iter()
        if isinstance(d.tag, str) and _local(d) == "textReplaceDelta"
    )
    return AffectedSource(
        _core(element, "uri"),
        _core(element, "parentUri"),
        _core(element, "name"),
        _core(element, "type"),
        replacements,
    )


def parse_rename(body: bytes) -> RenameProposal:
    """A ``renameRefactoring`` (or a bare ``genericRefactoring``) → the proposal. Matched by
    local names: releases differ in where the affected objects hang."""
    root = _parse(body)
    if _local(root) not in ("renameRefactoring", "genericRefactoring"):
        raise UnexpectedResponseError(f"not a rename refactoring: <{_local(root)}>")
    generic = next(
        (e for e in root.iter() if isinstance(e.tag, str) and _local(e) == "genericRefactoring"),
        root,
    )
    affected = tuple(
        _affected(e)
        for e in root.iter()
        if isinstance(e.tag, str) and _local(e) == "affectedObject"
    )
    return RenameProposal(
        old_name=_child_text(root, "oldName"),
        new_name=_child_text(root, "newName"),
        object_uri=_child_text(generic, "adtObjectUri"),
        transport=_child_text(generic, "transport"),
        affected=affected,
    )


def _generic(parent: etree._Element | None, proposal: RenameProposal) -> etree._Element:
    g = f"{{{NS_GENERIC}}}"
    nsmap = {"generic": NS_GENERIC, "adtcore": NS_ADTCORE}
    root = (
        etree.SubElement(parent, f"{g}genericRefactoring")
        if parent is not None
        else etree.Element(f"{g}genericRefactoring", nsmap=nsmap)
    )
    etree.SubElement(root, f"{g}title").text = "Rename"
    etree.SubElement(root, f"{g}adtObjectUri").text = proposal.object_uri
    objects = etree.SubElement(root, f"{g}affectedObjects")
    for source in proposal.affected:
        obj = etree.SubElement(objects, f"{g}affectedObject")
        for name, value in (
            ("name", source.name),
            ("parentUri", source.object_url),
            ("type", source.type),
            ("uri", source.source_url),
        ):
            obj.set(f"{{{NS_ADTCORE}}}{name}", value)
        deltas = etree.SubElement(obj, f"{g}textReplaceDeltas")
        for r in source.replacements:
            delta = etree.SubElement(deltas, f"{g}textReplaceDelta")
            etree.SubElement(
                delta, f"{g}rangeFragment"
            ).text = f"#start={r.line},{r.start};end={r.last_line},{r.end}"
            etree.SubElement(delta, f"{g}contentOld").text = r.old
            etree.SubElement(delta, f"{g}contentNew").text = r.new
        etree.SubElement(obj, f"{g}userContent")
    etree.SubElement(root, f"{g}transport").text = proposal.transport
    etree.SubElement(root, f"{g}ignoreSyntaxErrorsAllowed").text = "false"
    etree.SubElement(root, f"{g}ignoreSyntaxErrors").text = "false"
    etree.SubElement(root, f"{g}userContent")
    return root


def rename_request(proposal: RenameProposal, *, wrapped: bool) -> bytes:
    """The preview body (``wrapped``: ``rename:renameRefactoring`` with the names) or the
    execute body (the bare ``generic:genericRefactoring``)."""
    if not wrapped:
        root = _generic(None, proposal)
    else:
        nsmap = {"rename": NS_RENAME, "generic": NS_GENERIC, "adtcore": NS_ADTCORE}
        root = etree.Element(f"{{{NS_RENAME}}}renameRefactoring", nsmap=nsmap)
        etree.SubElement(root, f"{{{NS_RENAME}}}oldName").text = proposal.old_name
        etree.SubElement(root, f"{{{NS_RENAME}}}newName").text = proposal.new_name
        _generic(root, proposal)
        etree.SubElement(root, f"{{{NS_RENAME}}}userContent")
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


class Refactorings(Area):
    """``client.refactorings``: the three steps of ADT's rename; evaluate and preview of
    its extract method (execute is the rename's: :meth:`rename_execute`)."""

    async def rename_evaluate(
        self, source_url: str, line: int, start: int, end: int
    ) -> RenameProposal:
        """The symbol at ``line``, ``start``–``end`` of the saved ``source_url`` and every
        place it is declared, implemented or used (``new_name`` is still the old one)."""
        uri = f"{source_url}#start={line},{start};end={line},{end}"
        response = await self._send(
            "POST",
            PATH,
            params={"step": "evaluate", "rel": RENAME_REL, "uri": uri},
            headers=_HEADERS,
        )
        return parse_rename(response.content)

    async def rename_preview(
        self, proposal: RenameProposal, new_name: str, transport: str = ""
    ) -> RenameProposal:
        """The replacements for ``new_name``; the server checks the name (refusals are
        :class:`adt.errors.AdtError`). Nothing changes on the server."""
        asked = replace(proposal, new_name=new_name, transport=transport or proposal.transport)
        response = await self._send(
            "POST",
            PATH,
            params={"step": "preview", "rel": RENAME_REL},
            headers=_HEADERS,
            content=rename_request(asked, wrapped=True),
        )
        answered = parse_rename(response.content)
        return replace(answered, transport=answered.transport or asked.transport)

    async def rename_execute(self, proposal: RenameProposal) -> RenameProposal:
        """Let the server apply a preview's replacements (inactive versions; every source or
        none). The faces do not use this: they write under their own locks."""
        response = await self._send(
            "POST",
            PATH,
            params={"step": "execute"},
            headers=_HEADERS,
            content=rename_request(proposal, wrapped=False),
        )
        return parse_rename(response.content)

    async def extract_evaluate(
        self, source_url: str, start: tuple[int, int], end: tuple[int, int]
    ) -> ExtractProposal:
        """The method ADT proposes for the statements from ``start`` to ``end`` (1-based
        lines, 0-based columns) of the saved ``source_url``: name, static or not, the
        parameters it infers. Refusals (a selection that is no whole statements, …) are
        :class:`adt.errors.AdtError`."""
        uri = f"{source_url}#start={start[0]},{start[1]};end={end[0]},{end[1]}"
        response = await self._send(
            "POST",
            PATH,
            params={"step": "evaluate", "rel": EXTRACT_REL, "uri": uri},
            headers=_HEADERS,
        )
        return parse_extract(response.content)

    async def extract_preview(
        self, proposal: ExtractProposal, name: str, transport: str = ""
    ) -> RenameProposal:
        """The replacements that make the selection method ``name`` (its declaration, the
        call, its implementation); nothing changes on the server. Answered as a rename's
        generic part: ``old_name`` empty, ``new_name`` the method's name."""
        asked = replace(proposal, name=name, transport=transport or proposal.transport)
        response = await self._send(
            "POST",
            PATH,
            params={"step": "preview", "rel": EXTRACT_REL},
            headers=_HEADERS,
            content=extract_request(asked),
        )
        answered = parse_rename(response.content)
        return replace(answered, new_name=name, transport=answered.transport or asked.transport)
