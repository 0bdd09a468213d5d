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


@dataclass(frozen=True)
class Scanned:
    """``statements`` (lines 1-based, as the scanner counts) whose first word is one of the
    heads; ``comments``: the runs of full-line comments (0-based, inclusive; a run may be
    one line); ``markers``: a line starts like a merge conflict marker."""

    statements: list[Statement]
    comments: list[tuple[int, int]]
    markers: bool


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


class ChunkedStatements:
    """One document's chunks, kept from one :meth:`read` to the next."""

    def __init__(self, heads: Collection[str]) -> None:
        self.heads = frozenset(heads)
        self._chunks: dict[tuple[tuple[str, ...], bool], _Chunk] = {}
        self.scanned_lines = 0  # lines the last read scanned (the rest came from chunks)

    def read(self, lines: Sequence[str]) -> Scanned:
        kept: dict[tuple[tuple[str, ...], bool], _Chunk] = {}
        statements: list[Statement] = []
        comments: list[tuple[int, int]] = []
        markers = False
        self.scanned_lines = 0
        start = 0
        cuts = cut_points(lines)
        for position, end in enumerate(cuts):
            key = (tuple(lines[start:end]), position == len(cuts) - 1)
            chunk = kept.get(key) or self._chunks.get(key) or self._scan(key)
            kept[key] = chunk
            if not chunk.clean and not key[1]:
                continue  # read again together with the next chunk
            self._add(chunk, start, statements, comments)
            markers = markers or chunk.markers
            start = end
        self._chunks = kept
        return Scanned(statements, comments, markers)

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
        return _Chunk(
            tuple(s for s in scanner.statements if s.words and s.words[0] in heads),
            comment_runs(lines),
            clean,
            any(line.startswith(_MARKERS) for line in lines),
        )

    @staticmethod
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


__all__ = [
    "MAX_LINES",
    "MIN_LINES",
    "ChunkedStatements",
    "Scanned",
    "comment_runs",
    "cut_points",
    "is_comment_line",
]
