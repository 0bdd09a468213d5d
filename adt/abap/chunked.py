"""The statements of a text that changes a little at a time, scanned again only where it
changed: what the outline and the folds of an open document need after each keystroke.

The lines are cut into chunks where the content says so (a line whose hash has its low six
bits clear ends a chunk of at least :data:`MIN_LINES` lines), so an edit changes the chunks
around it and leaves the others' lines — and their cut points — as they were. Each chunk is
scanned on its own from a clean state and kept with its lines as the key; a chunk whose end
leaves a statement open is scanned together with the next one. One read walks the lines once
(hashes of ``str`` are cached by Python), looks every chunk up and scans only the new ones.
Only statements whose first word is one of ``heads`` are kept, with the runs of full-line
comments and whether conflict markers start any line.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

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


class Scanned:
    """One read: ``statements`` (lines 1-based, as the scanner counts) whose first word is
    one of the heads; ``comments``: the runs of full-line comments (0-based, inclusive; a
    run may be one line); ``markers``: a line starts like a merge conflict marker. ``key``
    is equal for two reads exactly when all of that is (and the lines it starts on), so an
    answer built from one read serves the other."""

    def __init__(self, chunks: list[tuple[int, _Chunk]], key: tuple[object, ...]) -> None:
        self._chunks = chunks
        self.key = key
        self.markers = any(chunk.markers for _, chunk in chunks)
        self._statements: list[Statement] | None = None
        self._comments: list[tuple[int, int]] = []

    @property
    def statements(self) -> list[Statement]:
        if self._statements is None:
            self._statements = []
            for start, chunk in self._chunks:
                _add(chunk, start, self._statements, self._comments)
        return self._statements

    @property
    def comments(self) -> list[tuple[int, int]]:
        self.statements  # noqa: B018 -- placed together
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
    cuts: list[int] = []
    last = 0
    for index in [i for i, value in enumerate(map(hash, lines)) if not value & _CUT_MASK]:
        while index + 1 - last > MAX_LINES:
            last += MAX_LINES
            cuts.append(last)
        if index + 1 - last >= MIN_LINES:
            last = index + 1
            cuts.append(last)
    while len(lines) - last > MAX_LINES:
        last += MAX_LINES
        cuts.append(last)
    if last < len(lines) or not cuts:
        cuts.append(len(lines))
    return cuts


def _add(
    chunk: _Chunk,
    start: int,
    statements: list[Statement],
    comments: list[tuple[int, int]],
) -> None:
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
    for first, last in chunk.comments:
        if comments and comments[-1][1] == start + first - 1:  # a run across the cut
            comments[-1] = (comments[-1][0], start + last)
        else:
            comments.append((start + first, start + last))


class ChunkedStatements:
    """One document's chunks, kept from one :meth:`read` to the next."""

    def __init__(self, heads: Collection[str]) -> None:
        self.heads = frozenset(heads)
        self._chunks: dict[tuple[tuple[str, ...], bool], _Chunk] = {}
        self._contents: dict[tuple[object, ...], tuple[object, ...]] = {}
        self.scanned_lines = 0  # lines the last read scanned (the rest came from chunks)

    def read(self, lines: Sequence[str]) -> Scanned:
        kept: dict[tuple[tuple[str, ...], bool], _Chunk] = {}
        contents: dict[tuple[object, ...], tuple[object, ...]] = {}
        chunks: list[tuple[int, _Chunk]] = []
        key: list[object] = []
        self.scanned_lines = 0
        start = 0
        cuts = cut_points(lines)
        for position, end in enumerate(cuts):
            lookup = (tuple(lines[start:end]), position == len(cuts) - 1)
            chunk = kept.get(lookup) or self._chunks.get(lookup) or self._scan(lookup)
            kept[lookup] = chunk
            if not chunk.clean and not lookup[1]:
                continue  # read again together with the next chunk
            chunks.append((start, chunk))
            # one object per distinct content, kept from read to read: keys compare by identity
            content = contents.setdefault(
                chunk.content, self._contents.get(chunk.content, chunk.content)
            )
            key += (start, content)
            start = end
        self._chunks = kept
        self._contents = contents
        return Scanned(chunks, tuple(key))

    def _scan(self, key: tuple[tuple[str, ...], bool]) -> _Chunk:
        lines, last = key
        self.scanned_lines += len(lines)
        scanner = Scanner()
        for number, line in enumerate(lines, start=1):
            scanner.scan_line(number, line)
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


__all__ = [
    "MAX_LINES",
    "MIN_LINES",
    "ChunkedStatements",
    "Scanned",
    "comment_runs",
    "cut_points",
    "is_comment_line",
]
