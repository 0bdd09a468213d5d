"""Quick fixes: what ADT offers at a position, and the edits of one.

Two hops, neither of which changes anything on the server: :meth:`QuickFixes.evaluate`
lists the proposals at a position of a (possibly unsaved) source, :meth:`QuickFixes.apply`
asks for one proposal's edits. The caller applies the edits to its text
(:func:`apply_edits`) and saves through the usual lock and write. Positions are 1-based lines
and 0-based columns; edit ranges refer to the text that was sent. See
docs/protocol/quick-fixes.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from adt._xml import parse_document
from adt.areas.base import Area
from adt.errors import UnexpectedResponseError
from adt.text import to_canonical, to_wire

EVALUATION = "/sap/bc/adt/quickfixes/evaluation"
NS_QUICKFIXES = "http://www.sap.com/adt/quickfixes"
NS_ADTCORE = "http://www.sap.com/adt/core"
_HEADERS = {"Content-Type": "application/*", "Accept": "application/*"}
_RANGE = re.compile(r"start=(\d+),(\d+)(?:;end=(\d+),(\d+))?")

__all__ = [
    "FixEdit",
    "FixEdits",
    "FixProposal",
    "Position",
    "QuickFixes",
    "apply_edits",
]


@dataclass(frozen=True, order=True)
class Position:
    """A place in a source: 1-based line, 0-based column."""

    line: int
    column: int


@dataclass(frozen=True)
class FixProposal:
    """One fix ADT offers: ``uri`` asks for its edits, ``kind`` is its type
    (``declare_local_variable``, ``add_unimplemented_method``, …), ``name`` the menu title,
    ``description`` HTML. ``user_content`` holds the parameters of fixes that open a dialog
    in Eclipse (empty otherwise). ``source_url`` and ``position`` are where it was asked."""

    uri: str
    kind: str
    name: str
    description: str
    user_content: str
    source_url: str
    position: Position


@dataclass(frozen=True)
class FixEdit:
    """Replace ``start``–``end`` (end exclusive; equal for an insertion) of ``source_url``
    with ``text`` (canonical LF; empty means delete). ``label`` says what it does."""

    source_url: str
    start: Position
    end: Position
    text: str
    label: str
    object_type: str

    @property
    def is_insertion(self) -> bool:
        return self.start == self.end


@dataclass(frozen=True)
class FixEdits:
    """The edits of one proposal, in the server's order (not sorted), and where the cursor
    goes afterwards (in the edited text), if the server says."""

    edits: tuple[FixEdit, ...]
    selection: Position | None = None


def _core(element: etree._Element, name: str) -> str:
    return element.get(f"{{{NS_ADTCORE}}}{name}") or ""


def parse_evaluation(body: bytes, source_url: str, position: Position) -> list[FixProposal]:
    """``qf:evaluationResults`` → the proposals (an empty list for the empty root)."""
    root = parse_document(body, NS_QUICKFIXES, "evaluationResults")
    proposals: list[FixProposal] = []
    for result in root.findall("evaluationResult"):
        reference = result.find(f"{{{NS_ADTCORE}}}objectReference")
        if reference is None:
            continue
        proposals.append(
            FixProposal(
                uri=_core(reference, "uri"),
                kind=_core(reference, "type"),
                name=_core(reference, "name"),
                description=_core(reference, "description"),
                user_content=result.findtext("userContent") or "",
                source_url=source_url,
                position=position,
            )
        )
    return proposals


def _split_uri(uri: str) -> tuple[str, Position, Position]:
    base, _, fragment = uri.partition("#")
    match = _RANGE.search(fragment)
    if match is None:
        raise UnexpectedResponseError(f"a quick fix edit without a position: {uri}")
    start = Position(int(match.group(1)), int(match.group(2)))
    end = Position(int(match.group(3)), int(match.group(4))) if match.group(3) else start
    return base, start, end


def parse_proposal_result(body: bytes) -> FixEdits:
    """``qf:proposalResult`` → the edits of its ``deltas`` and its ``selection``."""
    root = parse_document(body, NS_QUICKFIXES, "proposalResult")
    edits: list[FixEdit] = []
    for unit in root.findall("deltas/unit"):
        reference = unit.find(f"{{{NS_ADTCORE}}}objectReference")
        if reference is None:
            raise UnexpectedResponseError("a quick fix unit without its objectReference")
        url, start, end = _split_uri(_core(reference, "uri"))
        text = to_canonical(unit.findtext("content") or "")
        edits.append(
            FixEdit(url, start, end, text, _core(reference, "name"), _core(reference, "type"))
        )
    selection = root.find("selection")
    cursor = _split_uri(_core(selection, "uri"))[1] if selection is not None else None
    return FixEdits(tuple(edits), cursor)


def proposal_request(text: str, source_url: str, position: Position, user_content: str) -> bytes:
    """A ``quickfixes:proposalRequest``: the source, the position, the user content."""
    nsmap = {"quickfixes": NS_QUICKFIXES, "adtcore": NS_ADTCORE}
    root = etree.Element(f"{{{NS_QUICKFIXES}}}proposalRequest", nsmap=nsmap)
    given = etree.SubElement(root, "input")
    etree.SubElement(given, "content").text = to_wire(text)
    reference = etree.SubElement(given, f"{{{NS_ADTCORE}}}objectReference")
    reference.set(f"{{{NS_ADTCORE}}}uri", f"{source_url}#start={position.line},{position.column}")
    etree.SubElement(root, "userContent").text = user_content
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


def _offset(lines: list[str], position: Position) -> int:
    line = min(max(position.line, 1), len(lines))
    column = min(max(position.column, 0), len(lines[line - 1]))
    return sum(len(text) + 1 for text in lines[: line - 1]) + column


def apply_edits(text: str, edits: tuple[FixEdit, ...] | list[FixEdit]) -> str:
    """``text`` (canonical) with ``edits`` applied, the last position first so that every
    range still means what the server meant."""
    result = to_canonical(text)
    lines = result.split("\n")
    for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        begin, end = _offset(lines, edit.start), _offset(lines, edit.end)
        result = result[:begin] + edit.text + result[end:]
    return result


class QuickFixes(Area):
    """``client.fixes``: the proposals at a position and the edits of one."""

    async def evaluate(
        self, source_url: str, text: str, line: int, column: int
    ) -> list[FixProposal]:
        """The fixes offered at ``line``/``column`` of ``text`` (the current, possibly
        unsaved, content of ``source_url``); none is an empty list."""
        position = Position(line, column)
        response = await self._send(
            "POST",
            EVALUATION,
            params={"uri": f"{source_url}#start={line},{column}"},
            headers=_HEADERS,
            content=to_wire(text).encode("utf-8"),
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        return parse_evaluation(response.content, source_url, position)

    async def apply(self, proposal: FixProposal, text: str) -> FixEdits:
        """The edits of ``proposal`` for ``text`` (the text it was evaluated on). Nothing is
        changed on the server; apply them with :func:`apply_edits`."""
        if "/sap/bc/adt/quickfixes" not in proposal.uri:
            raise ValueError(f"not a quick fix proposal: {proposal.uri}")
        body = proposal_request(text, proposal.source_url, proposal.position, proposal.user_content)
        response = await self._send(
            "POST",
            proposal.uri,
            headers=_HEADERS,
            content=body,
            idempotent=True,  # it answers the edits and changes nothing: retried as a read
        )
        return parse_proposal_result(response.content)
