"""Code completion: proposals at a position and the text to insert.

The server completes the editor's current text (saved or not) at ``#start=L,C`` (line
1-based, column = characters before the cursor). Proposals come as SAP's ``asx:abap``
table of ``SCC_COMPLETION`` records; ``@end`` marks a list the server cut off.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from adt._xml import XmlFormatError, _parse
from adt.areas.base import Area
from adt.areas.navigation import position_uri

NS_ASX = "http://www.sap.com/abapxml"
AS_XML = "application/vnd.sap.as+xml"
END = "@end"


class ProposalKind(StrEnum):
    """What a proposal is, from SAP's ``KIND`` and ``ROLE``."""

    KEYWORD = "keyword"
    METHOD = "method"
    PARAMETER = "parameter"
    CLASS = "class"
    INTERFACE = "interface"
    TYPE = "type"
    DATA = "data"
    OTHER = "other"


_DESCRIPTIONS = {
    ProposalKind.KEYWORD: "ABAP keyword",
    ProposalKind.METHOD: "method or routine",
    ProposalKind.PARAMETER: "parameter",
    ProposalKind.CLASS: "class",
    ProposalKind.INTERFACE: "interface",
    ProposalKind.TYPE: "type",
    ProposalKind.DATA: "data object",
    ProposalKind.OTHER: "proposal",
}


@dataclass(frozen=True)
class Proposal:
    """One proposal: the identifier (upper case), its kind and SAP's numeric fields."""

    identifier: str
    kind: ProposalKind
    prefix_length: int
    location: int
    fields: Mapping[str, int] = field(default_factory=dict)

    @property
    def description(self) -> str:
        return _DESCRIPTIONS[self.kind]

    @property
    def wants_insertion(self) -> bool:
        """Whether :meth:`Completion.insertion` gives more than the identifier."""
        return self.fields.get("INSERT_EVENT", 0) == 1


@dataclass(frozen=True)
class Proposals:
    """The proposals in the server's order; ``complete`` is false when it cut the list."""

    items: tuple[Proposal, ...]
    complete: bool = True

    def __iter__(self) -> Iterator[Proposal]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    @property
    def identifiers(self) -> tuple[str, ...]:
        return tuple(p.identifier for p in self.items)


def _kind(values: Mapping[str, int]) -> ProposalKind:
    kind, role = values.get("KIND", 0), values.get("ROLE", 0)
    by_kind = {52: ProposalKind.KEYWORD, 3: ProposalKind.METHOD, 1: ProposalKind.PARAMETER}
    if kind in by_kind:
        return by_kind[kind]
    by_role = {
        58: ProposalKind.INTERFACE,
        57: ProposalKind.CLASS,
        81: ProposalKind.TYPE,
        21: ProposalKind.DATA,
        62: ProposalKind.METHOD,
    }
    return by_role.get(role, ProposalKind.OTHER)


def _number(text: str | None) -> int:
    try:
        return int((text or "0").strip())
    except ValueError:
        return 0


def parse_proposals(body: bytes) -> Proposals:
    """Parse the ``asx:abap`` proposal table (a zero-byte body means no proposals)."""
    if not body.strip():
        return Proposals(())
    root = _parse(body)
    if root.tag != f"{{{NS_ASX}}}abap":
        raise XmlFormatError("the completion answer is no asx:abap document")
    items: list[Proposal] = []
    complete = True
    for record in root.iter("SCC_COMPLETION"):
        identifier = (record.findtext("IDENTIFIER") or "").strip()
        if identifier == END:
            complete = False
            continue
        if not identifier:
            continue
        values = {child.tag: _number(child.text) for child in record if child.tag != "IDENTIFIER"}
        items.append(
            Proposal(
                identifier,
                _kind(values),
                values.get("PREFIXLENGTH", 0),
                values.get("LOCATION", 0),
                values,
            )
        )
    return Proposals(tuple(items), complete)


class Completion(Area):
    """Proposals and insertion texts of one system."""

    async def proposals(self, source_url: str, text: str, line: int, column: int) -> Proposals:
        """What can be written at (line, column) of ``text`` (``column``: characters before
        the cursor)."""
        response = await self._send(
            "POST",
            "/sap/bc/adt/abapsource/codecompletion/proposal",
            params={"uri": position_uri(source_url, line, column), "signalCompleteness": "true"},
            headers={"Content-Type": "text/plain; charset=utf-8", "Accept": AS_XML},
            content=text.encode("utf-8"),
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        return parse_proposals(response.content)

    async def insertion(
        self, source_url: str, text: str, line: int, column: int, pattern_key: str
    ) -> str:
        """The text that replaces the typed prefix when proposal ``pattern_key`` is chosen
        (a call pattern for methods; LF line ends)."""
        response = await self._send(
            "POST",
            "/sap/bc/adt/abapsource/codecompletion/insertion",
            params={"uri": position_uri(source_url, line, column), "patternKey": pattern_key},
            headers={"Content-Type": "text/plain; charset=utf-8", "Accept": "text/plain"},
            content=text.encode("utf-8"),
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        return response.content.decode("utf-8").replace("\r\n", "\n")


__all__ = ["Completion", "Proposal", "ProposalKind", "Proposals", "parse_proposals"]
