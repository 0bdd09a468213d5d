"""Source text the way A4H stores and serves it (protocol doc §3, §5.1, §8.19).

Stored text is kept LF-joined ("canonical"); the wire form joins the same lines
with CRLF and has no terminator after the last line.
"""

from __future__ import annotations

import re

#: ABAP source lines are limited to 255 characters (SEDI_ADT/015).
MAX_LINE_LENGTH = 255

_LINE_BREAK = re.compile(r"\r\n|\n")


def split_lines(text: str) -> list[str]:
    """Split on CRLF or LF, accepting mixed endings."""
    return _LINE_BREAK.split(text)


def first_long_line(text: str) -> int | None:
    """1-based number of the first line longer than 255 characters, or ``None``."""
    for number, line in enumerate(split_lines(text), start=1):
        if len(line) > MAX_LINE_LENGTH:
            return number
    return None


def canonical(text: str, *, keep_trailing_newlines: bool) -> str:
    """What the server stores: right-trimmed lines, LF-joined.

    Programs (and every other non-OO source) lose all trailing newlines; classes and
    interfaces keep them (abapsmith's measurement, a per-type switch).
    """
    lines = [line.rstrip(" \t") for line in split_lines(text)]
    joined = "\n".join(lines)
    if not keep_trailing_newlines:
        joined = joined.rstrip("\n")
    return joined


def to_wire(stored: str) -> str:
    """The served form: CRLF between lines, nothing after the last one."""
    return stored.replace("\n", "\r\n")
