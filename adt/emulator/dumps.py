"""Short dumps (ST22) and the ADT runtime-errors feed that lists them.

A dump is written when a test method of an ABAP Unit run leaves by an uncaught ``RAISE
EXCEPTION TYPE cx`` or ``RAISE SHORTDUMP TYPE cx`` (see :mod:`adt.emulator.aunit`): runtime
error ``UNCAUGHT_EXCEPTION``, the exception class, the include and line of the ``RAISE``,
and the two frames of the call stack (the test method, ABAP Unit's driver).

``GET /sap/bc/adt/runtime/dumps`` answers an Atom feed, each entry with the two categories
abap-adt-api reads (``ABAP runtime error``, ``Terminated ABAP program``), the author (the
user), ``id``, ``summary type="html"`` and links; ``GET /sap/bc/adt/runtime/dump/<id>/
formatted`` (sapcli's ``read_dump``) the ST22 text. The feed's link relations, the
``summary`` markup and the formatted text's wording are the emulator's (no capture has
them, ``docs/emulator.md``).
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

from . import stamps
from .xmlwriter import esc_attr, esc_text

ATOM_NS = "http://www.w3.org/2005/Atom"
DUMP_REL = "http://www.sap.com/adt/relations/runtime/dump"
DUMPS = "/sap/bc/adt/runtime/dumps"
DUMP = "/sap/bc/adt/runtime/dump"
SHORT_TEXT = "An exception has occurred which was not caught."


@dataclass(frozen=True)
class Frame:
    """One line of "Active Calls/Events": what ran where."""

    kind: str
    program: str
    include: str
    line: int
    name: str


@dataclass(frozen=True)
class ShortDump:
    """One runtime error as ST22 keeps it."""

    id: str
    error: str
    exception: str
    user: str
    client: str
    when: int
    program: str
    include: str
    line: int
    source_uri: str
    frames: tuple[Frame, ...]
    variables: tuple[tuple[str, str], ...] = ()


@dataclass
class DumpLog:
    """Every dump of the system, oldest first (callers hold the state lock)."""

    host: str = "vhcala4hci"
    dumps: list[ShortDump] = field(default_factory=list)
    _numbers: itertools.count[int] = field(default_factory=lambda: itertools.count())

    def write(
        self,
        user: str,
        client: str,
        exception: str,
        where: tuple[str, str, int, str],
        frames: tuple[Frame, ...],
    ) -> ShortDump:
        """A new dump; ``where`` is (main program, include, line, source URI)."""
        program, include, line, uri = where
        now = stamps.now_seconds()
        stamp = time.strftime("%Y%m%d%H%M%S", time.gmtime(now))
        number = f"{next(self._numbers):02d}"
        dump_id = f"{stamp}{self.host}_{user}_{client}_{number}"
        dump = ShortDump(
            dump_id, "UNCAUGHT_EXCEPTION", exception, user, client, now, program, include,
            line, uri, frames,
        )  # fmt: skip
        self.dumps.append(dump)
        return dump

    def find(self, dump_id: str) -> ShortDump | None:
        return next((d for d in self.dumps if d.id == dump_id), None)

    def of(self, user: str | None) -> list[ShortDump]:
        """Newest first; of one user, or of all."""
        return [d for d in reversed(self.dumps) if user is None or d.user == user]


def feed(dumps: list[ShortDump]) -> str:
    """The Atom feed of ``GET /sap/bc/adt/runtime/dumps``."""
    updated = stamps.iso(dumps[0].when if dumps else stamps.now_seconds())
    entries = "".join(_entry(d) for d in dumps)
    return (
        f'<?xml version="1.0" encoding="utf-8"?><atom:feed xmlns:atom="{ATOM_NS}">'
        f"<atom:author><atom:name>SAP</atom:name></atom:author>"
        f'<atom:link href="{DUMPS}" rel="self"/>'
        f"<atom:title>ABAP Runtime Errors</atom:title><atom:updated>{updated}</atom:updated>"
        f"{entries}</atom:feed>"
    )


def _entry(dump: ShortDump) -> str:
    when = stamps.iso(dump.when)
    title = f"Runtime error {dump.error} ({dump.exception}) in {dump.program}"
    summary = esc_text(f"<p>{SHORT_TEXT}</p><p>{dump.exception}</p>")
    links = (
        f'<atom:link href="{DUMP}/{dump.id}" rel="self" '
        'type="application/vnd.sap.adt.runtime.dump.v1+xml"/>'
        f'<atom:link href="{DUMP}/{dump.id}/formatted" rel="{DUMP_REL}/formatted" '
        'type="text/plain"/>'
        f'<atom:link href="{esc_attr(dump.source_uri)}#start={dump.line},0" '
        f'rel="{DUMP_REL}/termination" type="text/plain"/>'
    )
    return (
        f"<atom:entry><atom:author><atom:name>{dump.user}</atom:name></atom:author>"
        f'<atom:category term="{dump.error}" label="ABAP runtime error"/>'
        f'<atom:category term="{esc_attr(dump.program)}" label="Terminated ABAP program"/>'
        f"<atom:id>{DUMP}/{dump.id}</atom:id>{links}"
        f"<atom:published>{when}</atom:published>"
        f'<atom:summary type="html">{summary}</atom:summary>'
        f"<atom:title>{esc_text(title)}</atom:title><atom:updated>{when}</atom:updated>"
        "</atom:entry>"
    )


_RULE = "-" * 100


def _box(title: str, lines: list[str]) -> list[str]:
    return [_RULE, f"|{title}", *(f"|    {line}" for line in lines), _RULE, ""]


def formatted(dump: ShortDump) -> str:
    """The ST22 text of ``GET …/runtime/dump/<id>/formatted``."""
    when = time.strftime("%d.%m.%Y %H:%M:%S", time.gmtime(dump.when))
    head = [
        f"{'Category':<23}ABAP programming error",
        f"{'Runtime Errors':<23}{dump.error}",
        f"{'Except.':<23}{dump.exception}",
        f"{'ABAP Program':<23}{dump.program}",
        f"{'Application Component':<23}Not assigned",
        f"{'Date and Time':<23}{when} (UTC)",
        f"{'User':<23}{dump.user}",
        f"{'Client':<23}{dump.client}",
        "",
    ]
    top = dump.frames[0]
    where = [
        f'The termination occurred in ABAP program or include "{dump.include}", in '
        f'"{top.name}". The main program was "{dump.program}".',
        f"In the source code, the termination point is in line {dump.line} of (include) "
        f'program "{dump.include}".',
    ]
    calls = [f"{'No.':<6}{'Ty.':<13}{'Program':<41}{'Include':<41}Line", f"{'':<6}Name"]
    for number, frame in zip(range(len(dump.frames), 0, -1), dump.frames, strict=True):
        calls.append(
            f"{number:<6}{frame.kind:<13}{frame.program:<41}{frame.include:<41}{frame.line}"
        )
        calls.append(f"{'':<6}{frame.name}")
    variables = [f"{name} = {value}" for name, value in dump.variables] or ["(none)"]
    body = [
        *_box("Short Text", [SHORT_TEXT]),
        *_box("Information on where terminated", where),
        *_box("Active Calls/Events", calls),
        *_box("Chosen Variables", variables),
    ]
    return "\n".join([*head, *body])


__all__ = ["DumpLog", "Frame", "ShortDump", "feed", "formatted"]
