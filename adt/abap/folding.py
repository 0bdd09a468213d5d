"""Foldable regions of an ABAP source: blocks (classes, sections, methods, control
structures), runs of comment lines, and the ``*"`` interface comment of a function module.

Built on the shared statement scanner, so a keyword inside a literal or a comment opens
nothing; a block the text leaves open (the user is still typing) folds nothing. Lines are
0-based here, as editors count them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from operator import itemgetter

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


#: What a statement does to the blocks folding tracks: ``(op, line, end_line, word)``, lines
#: 0-based within the statement's run; ``op`` one of the three below, ``word`` the keyword
#: that closes the block it opens (``_OPENS``) or its own first word (``_CLOSES``).
Event = tuple[int, int, int, str]
_SECTION, _CLOSES, _OPENS = 0, 1, 2
_CLOSERS = frozenset(_ENDS.values())


def block_events(run: Iterable[Statement]) -> tuple[Event, ...]:
    """The events of ``run``'s statements (those that touch no block have none): built once
    per chunk of a document, as folds after every key read them again."""
    events: list[Event] = []
    for statement in run:
        words = statement.words
        if not words:
            continue
        line, end_line = statement.line - 1, statement.end_line - 1
        if _is_section(words):
            events.append((_SECTION, line, end_line, ""))
        elif words[0] in _CLOSERS:
            events.append((_CLOSES, line, end_line, words[0]))
        else:
            end = _opens_block(words)
            if end is not None:
                events.append((_OPENS, line, end_line, end))
    return tuple(events)


def _block_folds(placed: Iterable[tuple[int, Iterable[Event]]]) -> list[tuple[int, int, str]]:
    """The blocks of the events, each run's lines moved by its offset: openers matched with
    their ends on a stack; sections end at the next section or at the class's end."""
    folds: list[tuple[int, int, str]] = []
    stack: list[tuple[str, int]] = []  # (end keyword, first line)
    section = -1  # the open section's line
    for offset, events in placed:
        for op, first, last, word in events:
            line = first + offset
            if op == _OPENS:
                stack.append((word, line))
            elif op == _CLOSES:
                if not stack or word != stack[-1][0]:
                    continue
                if word == "ENDCLASS" and section >= 0:
                    if line - 1 > section:
                        folds.append((section, line - 1, REGION))
                    section = -1
                start = stack.pop()[1]
                if last + offset > start:
                    folds.append((start, last + offset, REGION))
            else:
                if section >= 0 and line - 1 > section:
                    folds.append((section, line - 1, REGION))
                section = line
    return folds


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
    the offset of its lines (:meth:`adt.abap.chunked.Scanned.placed`)."""
    return fold_events(((offset, block_events(run)) for offset, run in placed), comments)


class KeptFolds:
    """:func:`fold_ranges` for one document read again and again: the events of a chunk's
    statements are kept by the identity of its statements (a chunk no edit touched keeps
    them, :mod:`adt.abap.chunked`), so a read after a key makes events only for the chunks
    it scanned."""

    def __init__(self) -> None:
        self._events: dict[int, tuple[object, tuple[Event, ...]]] = {}

    def ranges(
        self, placed: Iterable[tuple[int, Iterable[Statement]]], comments: Iterable[tuple[int, int]]
    ) -> list[tuple[int, int, str]]:
        kept, fresh = self._events, {}
        runs: list[tuple[int, tuple[Event, ...]]] = []
        for offset, run in placed:
            entry = kept.get(id(run))
            if entry is None or entry[0] is not run:  # (the run held: its id is not reused)
                entry = (run, block_events(run))
            fresh[id(run)] = entry
            runs.append((offset, entry[1]))
        self._events = fresh  # the chunks of this read only
        return fold_events(runs, comments)


def fold_events(
    placed: Iterable[tuple[int, Iterable[Event]]], comments: Iterable[tuple[int, int]]
) -> list[tuple[int, int, str]]:
    """:func:`fold_ranges` of the runs' :func:`block_events` (kept by a caller that asks
    after every key), without an object per statement or per fold."""
    found = set(_block_folds(placed))
    found.update((first, last, COMMENT) for first, last in comments if last > first)
    ordered = sorted(found, key=itemgetter(1), reverse=True)  # (stable: two sorts by key
    ordered.sort(key=itemgetter(0))  # cost less than one by a function of the fold)
    return ordered


__all__ = [
    "COMMENT",
    "HEADS",
    "REGION",
    "Event",
    "Fold",
    "KeptFolds",
    "block_events",
    "fold_events",
    "fold_ranges",
    "folds",
    "folds_of",
]
