"""The statements of a text that changes a little at a time, scanned again only where it
changed: what the outline and the folds of an open document need after each keystroke.

The lines are cut into chunks where the content says so (a line whose hash has its low six
bits clear ends a chunk of at least :data:`MIN_LINES` lines), so an edit changes the chunks
around it and leaves the others' lines — and their cut points — as they were. Each chunk is
scanned on its own from a clean state and kept with its lines as the key; a chunk whose end
leaves a statement open is scanned together with the next one. A read walks the lines once
(hashes of ``str`` are cached by Python), looks every chunk up and scans only the new ones; a
read told which lines are as at the last read (``window``, from the editor's buffer) walks
only from the chunk holding the first changed line until its cuts fall in step with the last
read's again, and takes the chunks after from that read, moved by the lines added or removed.
Only statements whose first word is one of ``heads`` are kept, with the runs of full-line
comments and whether conflict markers start any line.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress, count, repeat
from operator import and_, not_
from typing import NamedTuple

from adt.abap.scanner import Scanner, Statement

#: Fewest lines of a chunk (a cut point closer to the last one is passed over).
MIN_LINES = 16
#: Most lines of a chunk without a cut point in its content.
MAX_LINES = 1024
_CUT_MASK = 63
_MARKERS = ("<<<<<<<", "=======", ">>>>>>>")


@dataclass(frozen=True)
class _Chunk:
    statements: tuple[Statement, ...]  # lines relative to the chunk (its first line is 1)
    comments: tuple[tuple[int, int], ...]  # runs of comment lines, 0-based, inclusive
    clean: bool  # the scan ends between statements
    markers: bool  # a line starts like a conflict marker
    #: what readers of the chunk can see: its kept statements with the text of the lines
    #: they start and end on (positions in an editor's encoding depend on it), comments,
    #: markers
    content: tuple[object, ...]


_Lookup = tuple[tuple[str, ...], bool]  # a chunk's lines, and whether it ends the text


_BODY = r"(?:[^.'`|\"{}\n]++|'(?:[^']|'')*+'|`(?:[^`]|``)*+`)*+"  # no period, template, brace
_COMMENT = r"(?:\"[^\n]*+)?+"


class _Passing(NamedTuple):
    """Lines the scanner may pass over between statements (each a ``fullmatch``): ``whole``
    — blank, or one whole statement of words, punctuation and literals (no template or
    brace; one period outside literals, at its end) whose first word is none of the heads,
    and maybe a ``"`` comment: its statement would not be kept, and the scanner is between
    statements after it as before it; ``opening``, ``inner`` and ``closing`` — the first
    line of such a statement that goes on over several lines, the lines within it (star,
    comment and blank lines among them) and its last line."""

    whole: Callable[[str], re.Match[str] | None]
    opening: Callable[[str], re.Match[str] | None]
    inner: Callable[[str], re.Match[str] | None]
    closing: Callable[[str], re.Match[str] | None]


@lru_cache(maxsize=8)
def _passing(heads: frozenset[str]) -> _Passing:
    """The expressions of :class:`_Passing` for ``heads`` (a word ends at a blank — any the
    scanner splits at —, ``.:,`` or the line's end; ASCII only: ``upper`` as the regex)."""
    words = "|".join(sorted(map(re.escape, heads), key=len, reverse=True))
    head = rf"(?!(?i:{words})(?:[\s.:,]|\Z))[^\s.:,'`|\"{{}}\x80-\U0010ffff]++(?=[\s.:,]|\Z)"
    return _Passing(
        re.compile(rf"[ \t]*+(?:{head}{_BODY}\.[ \t]*+)?+{_COMMENT}").fullmatch,
        re.compile(rf"(?!\*)[ \t]*+{head}{_BODY}{_COMMENT}").fullmatch,  # (a star: a comment)
        re.compile(rf"\*.*|[ \t]*+{_BODY}{_COMMENT}", re.DOTALL).fullmatch,
        re.compile(rf"[ \t]*+{_BODY}\.[ \t]*+{_COMMENT}").fullmatch,
    )


class Scanned:
    """One read: ``statements`` (lines 1-based, as the scanner counts) whose first word is
    one of the heads; ``comments``: the runs of full-line comments (0-based, inclusive; a
    run may be one line); ``markers``: a line starts like a merge conflict marker. ``key``
    is equal for two reads only when all of that is (and the text of the lines it starts
    on), so an answer built from one read serves the other. It may differ where all of that
    is equal, when an edit moved a cut point (about one edited line in 64): then an answer
    is built again, never a wrong one reused."""

    def __init__(self, chunks: list[tuple[int, _Chunk]], key: tuple[object, ...]) -> None:
        self._chunks = chunks
        self.key = key
        self.markers = any(chunk.markers for _, chunk in chunks)
        self._statements: list[Statement] | None = None
        self._comments: list[tuple[int, int]] | None = None

    @property
    def statements(self) -> list[Statement]:
        if self._statements is None:
            self._statements = []
            for start, chunk in self._chunks:
                _add(chunk, start, self._statements)
        return self._statements

    def placed(self) -> Iterator[tuple[int, tuple[Statement, ...]]]:
        """The kept statements chunk by chunk, each with the line its chunk starts after: a
        statement's line is its ``line`` plus that (what :attr:`statements` gives, without
        an object per statement)."""
        for start, chunk in self._chunks:
            yield start, chunk.statements

    @property
    def comments(self) -> list[tuple[int, int]]:
        if self._comments is None:
            self._comments = []
            for start, chunk in self._chunks:
                _add_comments(chunk, start, self._comments)
        return self._comments


def is_comment_line(line: str) -> bool:
    return line.startswith("*") or line.lstrip().startswith('"')


def comment_runs(lines: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """Runs of consecutive full-line comments (``*`` in column 0, or ``"`` first), 0-based,
    inclusive."""
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for index, line in enumerate(lines):
        if is_comment_line(line):
            if start is None:
                start = index
        elif start is not None:
            runs.append((start, index - 1))
            start = None
    if start is not None:
        runs.append((start, len(lines) - 1))
    return tuple(runs)


def cut_points(lines: Sequence[str]) -> list[int]:
    """The indices just past each chunk's last line (the last one is ``len(lines)``)."""
    return list(_cuts_from(lines, 0))


def _cuts_from(lines: Sequence[str], last: int) -> Iterator[int]:
    """:func:`cut_points` after ``last``, itself a cut point (or 0)."""
    size = len(lines)
    hashes = map(hash, lines[last:] if last else lines)
    # the lines whose hash has the low bits clear, without a Python step per line
    candidates = compress(count(last), map(not_, map(and_, hashes, repeat(_CUT_MASK))))
    emitted = False
    for index in candidates:
        while index + 1 - last > MAX_LINES:
            last += MAX_LINES
            emitted = True
            yield last
        if index + 1 - last >= MIN_LINES:
            last = index + 1
            emitted = True
            yield last
    while size - last > MAX_LINES:
        last += MAX_LINES
        emitted = True
        yield last
    if last < size or not emitted:
        yield size


def _add(chunk: _Chunk, start: int, statements: list[Statement]) -> None:
    for s in chunk.statements:
        statements.append(
            Statement(
                s.words,
                s.line + start,
                s.column,
                s.terminated,
                s.end_line + start,
                s.end_column,
            )
        )


def _add_comments(chunk: _Chunk, start: int, comments: list[tuple[int, int]]) -> None:
    for first, last in chunk.comments:
        if comments and comments[-1][1] == start + first - 1:  # a run across the cut
            comments[-1] = (comments[-1][0], start + last)
        else:
            comments.append((start + first, start + last))


class _Entry(NamedTuple):
    """A chunk as one read placed it, from line ``start`` (0-based) to the next one's."""

    start: int
    lookup: _Lookup
    chunk: _Chunk
    content: tuple[object, ...]  # the chunk's content, one object per distinct content


class ChunkedStatements:
    """One document's chunks, kept from one :meth:`read` to the next."""

    def __init__(self, heads: Collection[str]) -> None:
        self.heads = frozenset(heads)
        self._entries: list[_Entry] = []
        self._partials: dict[_Lookup, _Chunk] = {}  # chunks read together with the next
        self._count = 0  # lines of the last read
        self.scanned_lines = 0  # lines the last read scanned (the rest came from chunks)
        self.walked_lines = 0  # lines the last read looked at (the rest it knew unchanged)

    def read(self, lines: Sequence[str], window: tuple[int, int] | None = None) -> Scanned:
        """The statements of ``lines``. ``window``: ``(top, bottom)``, the first ``top`` and
        the last ``bottom`` lines are those of the last read (the rest changed); then only
        the chunks between are looked at, not every line."""
        self.scanned_lines = self.walked_lines = 0
        entries = self._read_window(lines, *window) if window is not None else None
        if entries is None:
            entries = self._read_all(lines)
        self._entries, self._count = entries, len(lines)
        chunks = [(e.start, e.chunk) for e in entries]
        return Scanned(chunks, tuple(part for e in entries for part in (e.start, e.content)))

    def _read_all(self, lines: Sequence[str]) -> list[_Entry]:
        known = dict(self._partials)
        known.update((e.lookup, e.chunk) for e in self._entries)
        contents = {e.content: e.content for e in self._entries}
        return self._walk(lines, 0, cut_points(lines), known, contents, None)

    def _read_window(self, lines: Sequence[str], top: int, bottom: int) -> list[_Entry] | None:
        old, count = self._entries, len(lines)
        delta = count - self._count
        if delta == 0 and top >= count and old:
            return old  # nothing changed
        if not old or not count or top + bottom > min(count, self._count):
            return None  # nothing read yet, no text, or not a window of the last read
        # the entry holding the first changed line; when only lines at the end went, the one
        # holding the new last line (it now ends the text)
        first = bisect_right(old, min(top, count - 1), key=lambda e: e.start) - 1
        if first < 0:
            return None
        changed_end = bisect_right(old, self._count - bottom, key=lambda e: e.start)
        nearby = old[first : changed_end + 1]
        known = dict(self._partials)
        known.update((e.lookup, e.chunk) for e in nearby)
        contents = {e.content: e.content for e in nearby}

        def rest(end: int) -> list[_Entry] | None:
            """The last read's entries after ``end`` (moved), once the walk is back in step."""
            if end < count - bottom:
                return None
            at = bisect_left(old, end - delta, key=lambda e: e.start)
            if at == len(old) or old[at].start != end - delta:
                return None
            after = old[at:]
            if delta:
                after = [_Entry(e[0] + delta, e[1], e[2], e[3]) for e in after]
            return after

        start = old[first].start
        walked = self._walk(lines, start, _cuts_from(lines, start), known, contents, rest)
        return old[:first] + walked

    def _walk(
        self,
        lines: Sequence[str],
        start: int,
        cuts: Iterable[int],
        known: dict[_Lookup, _Chunk],
        contents: dict[tuple[object, ...], tuple[object, ...]],
        rest: Callable[[int], list[_Entry] | None] | None,
    ) -> list[_Entry]:
        """Entries from line ``start`` on, at ``cuts``; ``rest`` gives the entries after a
        cut once they are known without walking on."""
        entries: list[_Entry] = []
        partials: dict[_Lookup, _Chunk] = {}
        count = len(lines)
        for end in cuts:
            lookup = (tuple(lines[start:end]), end == count)
            self.walked_lines += end - start
            chunk = known.get(lookup) or partials.get(lookup) or self._scan(lookup)
            if not chunk.clean and end != count:
                partials[lookup] = chunk
                continue  # read again together with the next chunk
            # one object per distinct content, kept from read to read: keys compare by identity
            content = contents.setdefault(chunk.content, chunk.content)
            entries.append(_Entry(start, lookup, chunk, content))
            start = end
            after = rest(end) if rest is not None else None
            if after is not None:
                entries += after
                break
        self._partials = partials
        return entries

    def _scan(self, key: tuple[tuple[str, ...], bool]) -> _Chunk:
        lines, last = key
        self.scanned_lines += len(lines)
        scanner = Scanner()
        _pass_over(scanner, lines, _passing(self.heads))
        clean = scanner.between_statements
        if last:
            scanner.finish()
        heads = self.heads
        kept = tuple(s for s in scanner.statements if s.words and s.words[0] in heads)
        comments = comment_runs(lines)
        markers = any(line.startswith(_MARKERS) for line in lines)
        seen = tuple(
            (
                tuple(s.words),
                s.line,
                s.column,
                s.terminated,
                s.end_line,
                s.end_column,
                lines[s.line - 1],
                lines[s.end_line - 1] if s.end_line != s.line else "",
            )
            for s in kept
        )
        return _Chunk(kept, comments, clean, markers, (seen, comments, markers))


def _pass_over(scanner: Scanner, lines: Sequence[str], passing: _Passing) -> None:
    """Scan ``lines`` but the statements no one keeps (:class:`_Passing`: most lines, about
    9 in 10 of a long class and 7 in 10 of real code): a statement over several lines is
    held back until its last line, and scanned after all when a line breaks the pattern (a
    first line with a period anywhere is scanned: most lines with one end a statement)."""
    whole, opening, inner, closing = passing
    held: list[tuple[int, str]] = []  # lines of a statement that may be passed over
    for number, line in enumerate(lines, start=1):
        if held:
            if inner(line) is not None:
                held.append((number, line))
                continue
            if closing(line) is not None:
                held.clear()
                continue
            for early in held:
                scanner.scan_line(*early)
            held.clear()
        elif whole(line) is not None and scanner.between_statements:
            continue
        elif "." not in line and opening(line) is not None and scanner.between_statements:
            held.append((number, line))
            continue
        scanner.scan_line(number, line)
    for early in held:
        scanner.scan_line(*early)


__all__ = [
    "MAX_LINES",
    "MIN_LINES",
    "ChunkedStatements",
    "Scanned",
    "comment_runs",
    "cut_points",
    "is_comment_line",
]
