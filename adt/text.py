"""Source text between the wire form (CRLF, no final newline) and our canonical form (LF).

Inside this project every source is canonical: line breaks are ``\\n`` only. ``\\r\\n`` and a
lone ``\\r`` both count as one break, as they do in LSP; form feeds, ``\\x85`` and
``\\u2028`` are ordinary characters (``str.splitlines`` would wrongly break on them).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from itertools import accumulate
from typing import overload

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


class TextLines(Sequence[str]):
    """The lines of a canonical text, kept as the one string: what :func:`split_lines` gives,
    without a string object per line (109,000 lines of about 40 characters cost 8.4 MB as
    strings, 3.4 MB as one). A line is sliced out when asked for, through the offsets of the
    line starts, computed with the first such question; iterating, joining (:attr:`text`) and
    comparing two of them cost no offsets. Immutable, like the tuple it replaces."""

    __slots__ = ("_count", "_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._count = text.count("\n") + 1 if text else 0
        self._starts: array[int] | None = None

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[str]:
        return iter(self.text.split("\n") if self._count else ())

    def _offsets(self) -> array[int]:
        starts = self._starts
        if starts is None:
            code = "I" if len(self.text) < 1 << 32 else "Q"
            ends = accumulate(len(line) + 1 for line in self.text.split("\n"))
            starts = self._starts = array(code, (0,))
            starts.extend(ends)
        return starts

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        count = self._count
        if isinstance(index, slice):
            start, stop, step = index.indices(count)
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            if start >= stop:
                return []
            starts = self._offsets()
            return self.text[starts[start] : starts[stop] - 1].split("\n")
        if index < 0:
            index += count
        if not 0 <= index < count:
            raise IndexError("line index out of range")
        starts = self._offsets()
        return self.text[starts[index] : starts[index + 1] - 1]

    def joined(self, start: int, stop: int) -> str:
        """``"\\n".join(self[start:stop])`` for ``0 <= start <= stop <= len(self)``, sliced
        from the text in one piece (the whole text is the text itself)."""
        if start == 0 and stop == self._count:
            return self.text
        if start >= stop:
            return ""
        starts = self._offsets()
        return self.text[starts[start] : starts[stop] - 1]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, TextLines):
            return self.text == other.text
        if isinstance(other, (list, tuple)):
            return len(other) == self._count and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, as a tuple is not

    def __repr__(self) -> str:
        return f"TextLines({self._count} lines)"


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
