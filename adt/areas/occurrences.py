"""Occurrence markers: where the symbol at a position occurs in one source, and how (ADT's
``abapsource/occurencemarkers``, sic). The text is the editor's, saved or not; positions are
1-based lines and 0-based columns. See docs/protocol/repository-structure.md."""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from adt._xml import _parse
from adt.areas.base import Area
from adt.text import to_wire

PATH = "/sap/bc/adt/abapsource/occurencemarkers"
NS_ADTCORE = "http://www.sap.com/adt/core"
_RANGE = re.compile(r"start=(\d+),(\d+)(?:;end=(\d+),(\d+))?")

__all__ = ["Marker", "OccurrenceMarkers", "parse_markers"]


@dataclass(frozen=True)
class Marker:
    """One occurrence: ``kind`` is ``definition``, ``implementation``, ``read`` or ``write``
    (as the system names it); ``line``, ``start``–``end`` on that line."""

    kind: str
    line: int
    start: int
    end: int

    @property
    def writes(self) -> bool:
        return self.kind == "write"


def parse_markers(body: bytes) -> list[Marker]:
    """``occurrenceInfo`` → the markers (matched by local names)."""
    root = _parse(body)
    markers = []
    for element in root.iter():
        if not isinstance(element.tag, str) or etree.QName(element).localname != "occurrence":
            continue
        reference = next((c for c in element if isinstance(c.tag, str)), None)
        uri = reference.get(f"{{{NS_ADTCORE}}}uri", "") if reference is not None else ""
        match = _RANGE.search(uri.partition("#")[2])
        if match is None:
            continue
        line, start = int(match.group(1)), int(match.group(2))
        end = int(match.group(4)) if match.group(4) and int(match.group(3)) == line else start
        markers.append(Marker(element.get("kind", ""), line, start, end))
    return markers


class OccurrenceMarkers(Area):
    """``client.occurrences``: the occurrences of the symbol at a position."""

    async def markers(self, source_url: str, text: str, line: int, column: int) -> list[Marker]:
        response = await self._send(
            "POST",
            PATH,
            params={"uri": f"{source_url}#start={line},{column}"},
            headers={"Content-Type": "text/plain", "Accept": "application/*"},
            content=to_wire(text).encode("utf-8"),
            idempotent=True,  # reads: a connection the server closed meanwhile is retried
        )
        return parse_markers(response.content)
