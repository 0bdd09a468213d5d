"""The text of an open document, edited line by line.

pygls' default document rebuilds the whole text on every change; at 100,000 lines that is
tens of milliseconds per keystroke. Here the text is a list of lines. A change converts its
two positions (only the touched lines are looked at), then splices the list: a change inside
one line replaces one element, a change that adds or removes lines moves pointers, never
characters. Until its first change a document keeps its text as one string
(:class:`~adt.text.TextLines`, shared with the cached read it came from): a string object per
line costs twice the text, and most open documents are never edited. The first change splits
it (about 5 ms at 100,000 lines), once.

The buffer also remembers, for every line, which base line it still is (or that it was
touched), and the window of lines touched since the base. Deriving the hunks of a save is a
walk over that window, with :mod:`adt.source.linediff` refining only the touched gaps.

Line breaks are LSP's: ``\\n``, ``\\r\\n`` and ``\\r``. Form feeds, ``\\x85`` and ``\\u2028``
are ordinary characters (``str.splitlines`` would break on them and shift every line number).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adt.source.linediff import differences, matches
from adt.text import TextLines
from lsp_server.edits import Edit, apply_edits, line_edits

if TYPE_CHECKING:
    from adt.source.lines import Patch

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"
ENCODINGS = (UTF8, UTF16, UTF32)
_LOG_SIZE = 64  # changes a reader may be behind and still read only what changed


def encoding_name(value: object) -> str:
    """``"utf-8"``, ``"utf-16"`` or ``"utf-32"`` from an LSP position encoding (a plain string
    or lsprotocol's ``PositionEncodingKind``, whose ``str()`` is not its value); LSP's default
    is UTF-16."""
    if value is None:
        return UTF16
    name = str(getattr(value, "value", value)).lower()
    if name not in ENCODINGS:
        raise ValueError(f"unsupported position encoding {value!r}")
    return name


def split_text(text: str | Sequence[str]) -> list[str]:
    """Editor lines of a text: the empty text is one empty line. Lines given as lines (a
    cached read's) are taken as they are, so the buffer shares their strings."""
    if not isinstance(text, str):
        return list(text) or [""]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def compact_lines(text: str | Sequence[str]) -> Sequence[str]:
    """:func:`split_text`, but a text stays one string (:class:`~adt.text.TextLines`) and the
    cache's lines are shared as they are; lines given as a list are copied."""
    if isinstance(text, str):
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        return TextLines(text) if text else [""]
    if isinstance(text, TextLines):
        return text if len(text) else [""]
    return list(text) or [""]


def _joined(lines: Sequence[str]) -> str:
    return lines.text if isinstance(lines, TextLines) else "\n".join(lines)


_IDENTITY = array("i")  # 0, 1, 2, ...: sliced for a document's first origins


def _reserve(count: int) -> None:
    """Make :func:`_identity` of ``count`` a copy (done when a document opens)."""
    have = len(_IDENTITY)
    if have < count:
        _IDENTITY.extend(range(have, count))


def _identity(count: int) -> array[int]:
    """``array("i", range(count))``, copied from one kept for the largest document so far:
    a slice of an array is one memory copy, building it from a range converts every number
    (about 10 ms at 100,000 lines, which the first change of a document would pay)."""
    _reserve(count)
    return _IDENTITY[:count]


def _untouched(count: int) -> array[int]:
    """``count`` origins of lines touched since the base."""
    return array("i", (-1,)) * count


def units_to_index(line: str, units: int, encoding: str) -> int:
    """The ``str`` index of a position given in ``encoding`` code units (clamped to the line;
    a position inside a character rounds up to the next character)."""
    if units <= 0:
        return 0
    if encoding == UTF32 or line.isascii():
        return min(units, len(line))
    counted = 0
    for index, char in enumerate(line):
        if counted >= units:
            return index
        code = ord(char)
        if encoding == UTF16:
            counted += 2 if code > 0xFFFF else 1
        else:
            counted += 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
    return len(line)


def index_to_units(line: str, index: int, encoding: str) -> int:
    """The position, in ``encoding`` code units, of ``str`` index ``index`` of ``line``."""
    index = max(0, min(index, len(line)))
    if encoding == UTF32 or line.isascii():
        return index
    prefix = line[:index]
    if encoding == UTF16:
        return len(prefix.encode("utf-16-le")) // 2
    return len(prefix.encode("utf-8"))


def _look_up(runs: list[tuple[int, int, int]], line: int, side: int) -> int | None:
    """The other side's line of ``line`` (``side`` 0: a current line, 1: a base line) in
    runs of equal lines, or ``None`` when no run holds it."""
    at = bisect_right(runs, line, key=lambda run: run[side]) - 1
    if at < 0:
        return None
    run = runs[at]
    offset = line - run[side]
    return run[1 - side] + offset if offset < run[2] else None


@dataclass(frozen=True)
class Hunk:
    """Base lines ``start..end`` (1-based; ``end = start - 1`` inserts) become ``lines``."""

    start: int
    end: int
    lines: tuple[str, ...]

    def as_patch(self) -> Patch:
        from adt.source.lines import Patch  # with the first save, not at start-up

        return Patch(self.start, self.end, self.lines)


class TextBuffer:
    """Lines of a document plus the base they were edited from."""

    __slots__ = (
        "_base",
        "_bottom",
        "_log",
        "_origin",
        "_runs",
        "_top",
        "changes",
        "clamped",
        "encoding",
        "lines",
    )

    def __init__(self, text: str | Sequence[str], encoding: str = UTF16) -> None:
        self.encoding = encoding_name(encoding)
        #: a list once edited; before, the text as one string (read it as a sequence)
        self.lines: list[str] | Sequence[str] = compact_lines(text)
        self.clamped = 0  # positions past the end of a line or document (the caller logs)
        self.changes = 0  # counts every change of the lines: what was read of them still holds
        #: the last changes as (count after it, first line touched, lines untouched below it)
        self._log: list[tuple[int, int, int]] = []
        self.rebase()
        _reserve(len(self.lines))  # the first change's origins: a copy, not a conversion

    # --- content --------------------------------------------------------------------------

    @property
    def text(self) -> str:
        return _joined(self.lines)

    @property
    def base_text(self) -> str:
        return _joined(self._base)

    @property
    def line_count(self) -> int:
        return len(self.lines)

    def rebase(self, text: str | Sequence[str] | None = None) -> None:
        """Adopt a new base: the current text (after a save) or ``text`` (after a reload)."""
        if text is not None:
            self.lines = compact_lines(text)
            self.changes += 1
            self._log.append((self.changes, 0, 0))  # every line replaced
            del self._log[:-_LOG_SIZE]
        lines = self.lines
        self._base: Sequence[str] = lines if isinstance(lines, TextLines) else list(lines)
        # _origin[i] is the base index line i still is, or -1 once it has been touched (a
        # machine-int array: a list of ints costs 36 bytes a line, this 4); made with the
        # first change (until then every line is its base line).
        self._origin: array[int] | None = None
        self._runs: list[tuple[int, int, int]] | None = None  # see _unchanged
        self._top: int | None = None  # lines above this index are untouched since the base
        self._bottom = 0  # this many lines at the end are untouched since the base

    def set_base(self, text: str | Sequence[str]) -> None:
        """Adopt ``text`` as the base but keep the current lines (edits made meanwhile stay).

        When the lines equal the new base the document is clean; otherwise every line counts
        as touched, so the next hunks come from a full comparison.
        """
        base = compact_lines(text)
        if base == self.lines:
            self.rebase()
            return
        self._base = base
        self._origin = _untouched(len(self.lines))
        self._top, self._bottom = 0, 0
        self._runs = None

    def line_list(self) -> list[str]:
        """The lines as a list of strings, splitting a text kept as one string for good (not a
        change: the lines are the same). For readers that keep the lines, such as the
        outline's chunks, so that they and the buffer share the strings; the base, while it
        is the same text, becomes a list of the same strings too."""
        lines = self.lines
        if isinstance(lines, list):
            return lines
        split = list(lines)
        if self._base is lines:
            self._base = list(split)
        self.lines = split
        return split

    # --- edits ----------------------------------------------------------------------------

    def apply_change(
        self,
        start: tuple[int, int] | None,
        end: tuple[int, int] | None,
        text: str,
    ) -> None:
        """Apply one ``didChange`` content change; ``start``/``end`` are LSP (line, unit)
        positions, or ``None`` for a whole-document replacement."""
        self.changes += 1
        if start is None or end is None:
            old = len(self.lines)
            self.lines = compact_lines(text)
            self._origin = _untouched(len(self.lines))
            self._touch(0, old - 1, old)
            return
        lines = self.lines
        origin = self._origin
        line = start[0]
        if (
            origin is not None
            and line == end[0]
            and "\n" not in text
            and "\r" not in text
            and isinstance(lines, list)
            and line < len(lines)
        ):
            current = lines[line]
            head, tail = start[1], end[1]
            if current.isascii() and 0 <= head <= tail <= len(current):
                # A key inside one ASCII line (most keys): a code unit is a str index in
                # every encoding, so the line is cut where the editor says, nothing else read.
                lines[line] = current[:head] + text + current[tail:]
                origin[line] = -1
                self._touch(line, line, len(lines))
                return
        self._splice(start, end, text)

    def _splice(self, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        """:meth:`apply_change` of a range: the general case (positions in any order, past
        the end, in non-ASCII lines; line breaks added or removed)."""
        lines = self.lines
        if not isinstance(lines, list):
            lines = self.line_list()  # the first change: one string per line from now on
        origin = self._origin
        if origin is None:
            origin = self._origin = _identity(len(lines))
        last = len(lines) - 1
        if end < start:
            start, end = end, start
        start_line, start_units = start
        end_line, end_units = end
        # A position past the end of the document means the end of the document.
        start_past, end_past = start_line > last, end_line > last
        if start_past:
            start_line = last
            self.clamped += 1
        if end_past:
            end_line = last
            self.clamped += 1
        first_text = lines[start_line]
        last_text = lines[end_line]
        head = first_text if start_past else first_text[: self._index(first_text, start_units)]
        tail = "" if end_past else last_text[self._index(last_text, end_units) :]
        if "\n" not in text and "\r" not in text:
            replacement = [head + text + tail]
        else:
            replacement = split_text(text)
            replacement[0] = head + replacement[0]
            replacement[-1] = replacement[-1] + tail
        old_count = len(lines)
        lines[start_line : end_line + 1] = replacement
        if len(replacement) == 1 and start_line == end_line:
            origin[start_line] = -1
        else:
            origin[start_line : end_line + 1] = _untouched(len(replacement))
        self._touch(start_line, end_line, old_count)

    def changed_since(self, changes: int) -> tuple[int, int] | None:
        """``(top, bottom)``: since the lines were as at count ``changes``, their first
        ``top`` and their last ``bottom`` are the same lines (the rest was replaced); ``None``
        when that is no longer known (too many changes since). What a reader of the lines
        needs to read again only the part that changed."""
        if changes == self.changes:
            return len(self.lines), len(self.lines)
        log = self._log
        if changes > self.changes or not log or log[0][0] > changes + 1:
            return None
        top = bottom = len(self.lines)
        for count, first, tail in reversed(log):
            if count <= changes:
                break
            top, bottom = min(top, first), min(bottom, tail)
        return top, bottom

    def _index(self, line: str, units: int) -> int:
        """``units_to_index``, counting a position past the end of the line as clamped.

        Positions inside a line cost two comparisons more; only one at the end of a line
        with more units than characters (non-ASCII, UTF-8 or UTF-16) has the line measured
        again in its encoding, which costs about what the conversion itself did.
        """
        index = units_to_index(line, units, self.encoding)
        if (
            index == len(line)
            and units > index
            and index_to_units(line, index, self.encoding) < units
        ):
            self.clamped += 1
        return index

    def _touch(self, first: int, last: int, old_count: int) -> None:
        """Record that lines ``first..last`` (of ``old_count``) were replaced: in the window
        touched since the base and in the log of changes."""
        untouched_tail = old_count - 1 - last
        self._runs = None
        top = self._top
        if top is None:
            self._top, self._bottom = first, untouched_tail
        else:
            if first < top:
                self._top = first
            if untouched_tail < self._bottom:
                self._bottom = untouched_tail
        log = self._log
        log.append((self.changes, first, untouched_tail))
        if len(log) > _LOG_SIZE:
            del log[: _LOG_SIZE // 2]

    # --- comparison with the base ---------------------------------------------------------

    def _window(self) -> tuple[Sequence[str], Sequence[str], int]:
        """The changed region: (base lines, current lines, offset of both)."""
        if self._top is None:
            return [], [], 0
        top = self._top
        bottom = min(self._bottom, len(self._base) - top, len(self.lines) - top)
        return (
            self._base[top : len(self._base) - bottom],
            self.lines[top : len(self.lines) - bottom],
            top,
        )

    @property
    def dirty(self) -> bool:
        if self._top is None:
            return False
        base, current, _ = self._window()
        return base != current

    def hunks(self) -> list[Hunk]:
        """The line hunks that turn the base into the current text, in base line numbers.

        Lines that were never touched keep their base index, so the walk finds the gaps
        between them; :func:`~adt.source.linediff.differences` then refines each gap (a line
        typed and reverted is no change), so each hunk covers only lines that really differ.
        """
        if self._top is None:
            return []
        if self._base == [""]:
            # An empty source has no lines (not one empty line): insert everything.
            return [] if self.lines == [""] else [Hunk(1, 0, tuple(self.lines))]
        if self.lines == [""]:
            return [Hunk(1, len(self._base), ())]
        top = self._top
        bottom = min(self._bottom, len(self._base) - top, len(self.lines) - top)
        current_end = len(self.lines) - bottom
        base_end = len(self._base) - bottom
        origin = self._origin
        if origin is None:  # touched but never split: only a whole replacement does that
            origin = _identity(len(self.lines))
        hunks: list[Hunk] = []
        index, base_index = top, top
        while index < current_end:
            if origin[index] == base_index:
                index += 1
                base_index += 1
                continue
            gap = index
            while index < current_end and origin[index] == -1:
                index += 1
            next_base = origin[index] if index < current_end else base_end
            hunks.extend(self._refine(base_index, next_base, gap, index))
            base_index = next_base
        if base_index < base_end:
            hunks.extend(self._refine(base_index, base_end, current_end, current_end))
        return hunks

    def _refine(
        self, base_from: int, base_to: int, current_from: int, current_to: int
    ) -> list[Hunk]:
        old = self._base[base_from:base_to]
        new = self.lines[current_from:current_to]
        if old == new:
            return []
        if not old or not new:
            return [Hunk(base_from + 1, base_to, tuple(new))]
        return [
            Hunk(base_from + i1 + 1, base_from + i2, tuple(new[j1:j2]))
            for i1, i2, j1, j2 in differences(old, new)
        ]

    def base_line(self, line: int) -> int | None:
        """The base line (0-based) that ``line`` still is; ``None`` for a line that is new
        or changed since the base."""
        if not 0 <= line < len(self.lines):
            return None
        return _look_up(self._unchanged(), line, 0)

    def line_of_base(self, base_line: int) -> int | None:
        """Where base line ``base_line`` (0-based) is now; ``None`` if it was changed or
        removed."""
        return _look_up(self._unchanged(), base_line, 1)

    def _unchanged(self) -> list[tuple[int, int, int]]:
        """Runs ``(current line, base line, size)`` of lines still as in the base, in order:
        those outside the touched window by position, those inside it by comparison. Kept
        until the next edit, so where-used placing hundreds of lines compares once."""
        if self._runs is not None:
            return self._runs
        count = len(self.lines)
        if self._top is None:
            runs = [(0, 0, count)]
        else:
            base, current, top = self._window()
            runs = [(0, 0, top)] if top else []
            runs += [(top + j, top + i, size) for i, j, size in matches(base, current)]
            below = count - top - len(current)
            if below:
                runs.append((count - below, len(self._base) - below, below))
        self._runs = runs
        return runs

    def changed_base_lines(self) -> Sequence[tuple[int, int]]:
        """Base line ranges touched by the hunks (for merge and conflict reporting)."""
        return [(h.start, h.end) for h in self.hunks()]


__all__ = [
    "ENCODINGS",
    "UTF8",
    "UTF16",
    "UTF32",
    "Edit",
    "Hunk",
    "TextBuffer",
    "apply_edits",
    "compact_lines",
    "encoding_name",
    "index_to_units",
    "line_edits",
    "split_text",
    "units_to_index",
]
