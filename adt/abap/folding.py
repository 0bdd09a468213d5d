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
        self.folds: list[Fold] = []
        self._stack: list[tuple[str, int]] = []  # (end keyword, first line)
        self._section: int | None = None

    def feed(self, statement: Statement) -> None:
        words = statement.words
        if not words:
            return
        line = statement.line - 1
        head = words[0]
        if _is_section(words):
            self._close_section(line - 1)
            self._section = line
            return
        if self._stack and head == self._stack[-1][0]:
            if head == "ENDCLASS":
                self._close_section(line - 1)
            _, start = self._stack.pop()
            self._add(start, statement.end_line - 1)
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
            self.folds.append(Fold(start, end, kind))


def folds(text: str) -> list[Fold]:
    """Every foldable region of ``text``, ordered by first line."""
    return folds_of(statements(text), comment_runs(text.split("\n")))


def folds_of(scanned: Iterable[Statement], comments: Iterable[tuple[int, int]]) -> list[Fold]:
    """The foldable regions of a source's statements (those whose first word is one of
    :data:`HEADS` are enough) and runs of comment lines (0-based, inclusive; two lines or
    more fold), ordered by first line."""
    blocks = _Blocks()
    for statement in scanned:
        blocks.feed(statement)
    found = blocks.folds + [Fold(first, last, COMMENT) for first, last in comments if last > first]
    return sorted(set(found), key=lambda f: (f.start, -f.end))


__all__ = ["COMMENT", "HEADS", "REGION", "Fold", "folds", "folds_of"]
