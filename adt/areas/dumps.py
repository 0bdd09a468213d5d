"""Runtime errors (short dumps, ST22): the ADT feed that lists them and one dump's text.

``GET /sap/bc/adt/runtime/dumps`` is an Atom feed (abap-adt-api's ``dumps``): per entry the
categories *ABAP runtime error* (the error, e.g. ``UNCAUGHT_EXCEPTION``) and *Terminated ABAP
program*, the author (whose dump), ``id``, ``updated`` and links. ``GET
/sap/bc/adt/runtime/dump/<id>/formatted`` (sapcli's ``read_dump``) is the dump as ST22 prints
it; :func:`parse_formatted` reads the parts an agent needs from it. Shapes and their
evidence: ``docs/protocol/dumps.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adt import _xml
from adt.areas.base import Area
from adt.errors import UnexpectedResponseError

ATOM = "{http://www.w3.org/2005/Atom}"
FEED = "/sap/bc/adt/runtime/dumps"
DUMP = "/sap/bc/adt/runtime/dump"


@dataclass(frozen=True)
class DumpEntry:
    """One dump of the feed."""

    id: str
    error: str
    program: str
    user: str
    when: str
    title: str


@dataclass(frozen=True)
class CallFrame:
    """One line of "Active Calls/Events", innermost first."""

    kind: str
    program: str
    include: str
    line: int
    name: str


@dataclass(frozen=True)
class DumpReport:
    """What the ST22 text says: the error, where it stopped, the calls, the variables."""

    error: str
    exception: str
    program: str
    when: str
    user: str
    short_text: str
    include: str
    line: int
    frames: tuple[CallFrame, ...]
    variables: tuple[str, ...]


def _short_id(entry_id: str) -> str:
    return entry_id.rstrip("/").rsplit("/", 1)[-1]


def parse_feed(body: bytes) -> tuple[DumpEntry, ...]:
    root = _xml._parse(body)
    found = []
    for entry in root.iter(f"{ATOM}entry"):
        labels = {c.get("label", ""): c.get("term", "") for c in entry.iter(f"{ATOM}category")}
        found.append(
            DumpEntry(
                _short_id(entry.findtext(f"{ATOM}id") or ""),
                labels.get("ABAP runtime error", ""),
                labels.get("Terminated ABAP program", ""),
                entry.findtext(f"{ATOM}author/{ATOM}name") or "",
                entry.findtext(f"{ATOM}updated") or entry.findtext(f"{ATOM}published") or "",
                entry.findtext(f"{ATOM}title") or "",
            )
        )
    return tuple(found)


_BOX = re.compile(r"^\|(?P<title>[^|].*?)\|?\s*$")
_WHERE = re.compile(r'termination point is in line (\d+) of \(include\) program "([^"]+)"', re.I)
_FRAME = re.compile(r"^(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+)\s*$")


def _sections(text: str) -> tuple[dict[str, str], dict[str, list[str]]]:
    """The header's ``key  value`` lines and the boxed sections' lines by title."""
    head: dict[str, str] = {}
    boxes: dict[str, list[str]] = {}
    current: list[str] | None = None
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith("-" * 10):
            current = None
        elif line.startswith("|") and current is None:
            current = boxes.setdefault(line.strip("| ").strip(), [])
        elif line.startswith("|") and current is not None:
            current.append(line[1:].rstrip("|").strip())
        elif current is None and re.match(r"^\S.*?\s{2,}\S", line):
            key, value = re.split(r"\s{2,}", line, maxsplit=1)
            head.setdefault(key.strip(), value.strip())
    return head, boxes


def _frames(lines: list[str]) -> tuple[CallFrame, ...]:
    frames: list[CallFrame] = []
    pending: re.Match[str] | None = None
    for line in lines:
        match = _FRAME.match(line)
        if match is not None:
            pending = match
        elif pending is not None and line:
            _, kind, program, include, number = pending.groups()
            frames.append(CallFrame(kind, program, include, int(number), line.strip()))
            pending = None
    return tuple(frames)


def parse_formatted(text: str) -> DumpReport:
    """The parts of the ST22 text an agent needs; fields the text lacks stay empty."""
    head, boxes = _sections(text)
    where = _WHERE.search(" ".join(boxes.get("Information on where terminated", [])))
    variables = tuple(v for v in boxes.get("Chosen Variables", []) if v and v != "(none)")
    if not head.get("Runtime Errors"):
        raise UnexpectedResponseError("the dump's text names no runtime error")
    return DumpReport(
        error=head.get("Runtime Errors", ""),
        exception=head.get("Except.", ""),
        program=head.get("ABAP Program", ""),
        when=head.get("Date and Time", ""),
        user=head.get("User", ""),
        short_text=" ".join(boxes.get("Short Text", [])).strip(),
        include=where.group(2) if where else "",
        line=int(where.group(1)) if where else 0,
        frames=_frames(boxes.get("Active Calls/Events", [])),
        variables=variables,
    )


class RuntimeDumps(Area):
    """The short dumps of the system."""

    async def list(self, user: str | None = None) -> tuple[DumpEntry, ...]:
        """Newest first; ``user`` narrows them to one user's (the feed's query)."""
        params = {"$query": f"and( equals( user, {user.upper()} ) )"} if user else None
        response = await self._send(
            "GET", FEED, params=params, headers={"Accept": "application/atom+xml;type=feed"}
        )
        return parse_feed(response.content)

    async def read(self, dump_id: str) -> DumpReport:
        """One dump, read from its ST22 text."""
        if not re.fullmatch(r"[\w.-]{1,120}", dump_id):
            raise ValueError(f"{dump_id!r} is not a dump id")
        response = await self._send(
            "GET", f"{DUMP}/{dump_id}/formatted", headers={"Accept": "text/plain"}
        )
        return parse_formatted(response.text)


__all__ = ["CallFrame", "DumpEntry", "DumpReport", "RuntimeDumps", "parse_formatted"]
