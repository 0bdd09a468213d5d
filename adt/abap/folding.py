"""Foldable regions of an ABAP source: blocks (classes, sections, methods, control
structures), runs of comment lines, and the ``*"`` interface comment of a function module.

Built on the shared statement scanner, so a keyword inside a literal or a comment opens
nothing; a block the text leaves open (the user is still typing) folds nothing. Lines are
0-based here, as editors count them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from adt.abap.chunked import comment_runs
from adt.abap.keywords import BLOCK_ENDS
from adt.abap.scanner import Statement, statements

COMMENT, REGION = "comment", "region"

#: Statement → the statement that closes its block. The openers that start a block only in
#: some forms are left out: folding sees one statement at a time.
_ENDS = {
    opener: end
    for opener, end in BLOCK_ENDS.items()
    if opener not in {"SELECT", "WITH", "AT", "ON", "CATCH"}
}
_SECTIONS = ("PUBLIC", "PROTECTED", "PRIVATE")
#: The first words of the statements folding reads (it passes over every other one).
HEADS = frozenset(_ENDS) | frozenset(_ENDS.values()) | frozenset(_SECTIONS)


@dataclass(frozen=True)
class Fold:
    """Lines ``start``..``end`` (0-based, inclusive) fold; ``kind`` is ``region`` or
    ``comment``."""

    start: int
    end: int
    kind: str = REGION


def _opens_block(words: list[str]) -> str | None:
    """The closing keyword if the statement opens a foldable block."""
    head = words[0]
    end = _ENDS.get(head)
    if end is None:
        return None
    rest = words[2:]
    if head in ("CLASS", "INTERFACE") and (
        "DEFERRED" in rest or "LOAD" in rest or ("LOCAL" in rest and "FRIENDS" in rest)
    ):
        return None
    return end


def _is_section(words: list[str]) -> bool:
    return len(words) == 2 and words[0] in _SECTIONS and words[1] == "SECTION"


class _Blocks:
    """Matches openers with their ends on a stack; sections end at the next section or at
    the class's end."""

    def __init__(self) -> None:
        self.folds: list[tuple[int, int, str]] = []
        self._stack: list[tuple[str, int]] = []  # (end keyword, first line)
        self._section: int | None = None

    def feed(self, statement: Statement, offset: int = 0) -> None:
        """One statement; ``offset`` is added to its lines."""
        words = statement.words
        if not words:
            return
        line = statement.line - 1 + offset
        head = words[0]
        if _is_section(words):
            self._close_section(line - 1)
            self._section = line
            return
        if self._stack and head == self._stack[-1][0]:
            if head == "ENDCLASS":
                self._close_section(line - 1)
            _, start = self._stack.pop()
            self._add(start, statement.end_line - 1 + offset)
            return
        end = _opens_block(words)
        if end is not None:
            self._stack.append((end, line))

    def _close_section(self, last: int) -> None:
        if self._section is not None:
            self._add(self._section, last)
            self._section = None

    def _add(self, start: int, end: int, kind: str = REGION) -> None:
        if end > start:
            self.folds.append((start, end, kind))


def folds(text: str) -> list[Fold]:
    """Every foldable region of ``text``, ordered by first line."""
    return folds_of(statements(text), comment_runs(text.split("\n")))


def folds_of(scanned: Iterable[Statement], comments: Iterable[tuple[int, int]]) -> list[Fold]:
    """The foldable regions of a source's statements (those whose first word is one of
    :data:`HEADS` are enough) and runs of comment lines (0-based, inclusive; two lines or
    more fold), ordered by first line."""
    return [Fold(*found) for found in fold_ranges([(0, scanned)], comments)]


def fold_ranges(
    placed: Iterable[tuple[int, Iterable[Statement]]], comments: Iterable[tuple[int, int]]
) -> list[tuple[int, int, str]]:
    """:func:`folds_of` as ``(start, end, kind)``, of statements given in runs, each with
    the offset of its lines (:meth:`adt.abap.chunked.Scanned.placed`): what an answer after
    every key needs, without an object per statement or per fold."""
    blocks = _Blocks()
    feed = blocks.feed
    for offset, run in placed:
        for statement in run:
            feed(statement, offset)
    found = set(blocks.folds)
    found.update((first, last, COMMENT) for first, last in comments if last > first)
    return sorted(found, key=lambda f: (f[0], -f[1]))


__all__ = ["COMMENT", "HEADS", "REGION", "Fold", "fold_ranges", "folds", "folds_of"]
