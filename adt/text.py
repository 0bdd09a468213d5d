"""Source text between the wire form (CRLF, no final newline) and our canonical form (LF).

Inside this project every source is canonical: line breaks are ``\\n`` only. ``\\r\\n`` and a
lone ``\\r`` both count as one break, as they do in LSP; form feeds, ``\\x85`` and
``\\u2028`` are ordinary characters (``str.splitlines`` would wrongly break on them).
"""

from __future__ import annotations

from adt.errors import LineTooLongError

MAX_LINE_LENGTH = 255
CRLF = "\r\n"


def to_canonical(text: str) -> str:
    """CRLF and lone CR become LF; nothing else changes."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def to_wire(text: str, line_break: str = CRLF) -> str:
    """The form SAP stores and serves: CRLF between lines (or the ``line_break`` a
    verbatim source was read with, so that it goes back as it came)."""
    return to_canonical(text).replace("\n", line_break)


def line_break_of(raw: str) -> str | None:
    """The break a text as served uses between its lines: ``\\r\\n``, ``\\n``, or ``None``
    for a text of one line. SAP keeps the CDS-family sources (DDLS, DDLX, DCLS, BDEF, SRVD)
    as they were written — the flight scenario's behavior definitions with LF, the others
    with CRLF — so a write sends them back with the break they were read with."""
    if CRLF in raw:
        return CRLF
    return "\n" if "\n" in raw else None


def split_lines(text: str) -> list[str]:
    """Lines of canonical text. The empty text has no lines; a final ``\\n`` adds a last ``''``."""
    return text.split("\n") if text else []


def join_lines(lines: list[str]) -> str:
    return "\n".join(lines)


def check_line_lengths(text: str, limit: int = MAX_LINE_LENGTH, *, first_line: int = 1) -> None:
    """Raise :class:`LineTooLongError` naming the first line longer than ``limit`` characters
    (numbered from ``first_line``, for a text that will stand at that line of a source)."""
    canonical = to_canonical(text)
    if len(canonical) <= limit:
        return
    for number, line in enumerate(canonical.split("\n"), start=first_line):
        if len(line) > limit:
            raise LineTooLongError(number, len(line), limit)


def server_canonical(text: str) -> str:
    """What a round trip through SAP preserves: trailing blanks per line and final newlines go.

    Use it to compare "what I wrote" with "what I read back" (protocol doc §8.19).
    """
    lines = [line.rstrip(" \t") for line in to_canonical(text).split("\n")]
    return "\n".join(lines).rstrip("\n")
