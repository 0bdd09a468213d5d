"""Method bodies as line ranges of a source, and the source with some of them blanked.

What a question about a program depends on is often its declarations plus a few method
bodies: names declared in one method body are invisible in every other. Blanking the bodies
a question does not need — the lines between ``METHOD …`` and ``ENDMETHOD`` replaced by
empty ones, line numbers kept — makes lexing, declaring and resolving cost in proportion to
what is kept. Completion at a cursor keeps the cursor's method (:mod:`.focus`), where-used
the methods that mention the name (:mod:`.usage_index`), and the declaration-only indexes
other programs look global names up in keep none.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass

#: ``METHOD name.`` (or ``METHOD name BY DATABASE PROCEDURE …``); not a parameter called
#: ``method`` at the start of a continued line (``method = x``).
_METHOD = re.compile(
    r"^[ \t]*METHOD[ \t]+[A-Za-z_/%$][\w~/%$]*[ \t]*(?:\.|\"|$|BY[ \t])", re.IGNORECASE
)
_ENDMETHOD = re.compile(r"^[ \t]*ENDMETHOD[ \t]*\.", re.IGNORECASE)
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")

#: Decides whether a body stays: (the lines, the last line of its ``METHOD`` statement,
#: the ``ENDMETHOD`` line), 0-based; the body is the lines strictly between.
Keep = Callable[[list[str], int, int], bool]


def method_bodies(lines: list[str], text: str) -> list[tuple[int, int]]:
    """Every method body of ``text`` (split into ``lines``) that is whole lines, empty ones
    included: (the last line of its ``METHOD`` statement, its ``ENDMETHOD`` line), 0-based.
    Its ``METHOD`` statement ends its line and its ``ENDMETHOD`` starts one."""
    found: list[tuple[int, int]] = []
    start: int | None = None  # the last line of the open METHOD statement (0-based)
    number, offset = 0, 0
    # a literal scan of the text lower-cased (ASCII only: positions stay) finds the lines that
    # may open or close a body at C speed; the two patterns above then decide on each line
    low = text.lower() if text.isascii() else text.translate(_ASCII_LOWER)
    position = low.find("method")
    while position >= 0:
        begin = low.rfind("\n", 0, position) + 1
        if low[begin:position].lstrip(" \t") in ("", "end"):
            number += low.count("\n", offset, begin)
            offset = begin
            line = lines[number]
            if _METHOD.match(line):
                start = _statement_end(lines, number)
            elif start is not None and _ENDMETHOD.match(line):
                found.append((start, number))
                start = None
        position = low.find("method", position + 6)
    return found


def blank(text: str, keep: Keep) -> str:
    """``text`` (canonical line ends) with the method bodies ``keep`` refuses emptied."""
    text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    changed = False
    for start, end in method_bodies(lines, text):
        if end > start + 1 and not keep(lines, start, end):
            lines[start + 1 : end] = [""] * (end - start - 1)
            changed = True
    return "\n".join(lines) if changed else text


def none(lines: list[str], start: int, end: int) -> bool:
    """Keep no body (declarations only)."""
    return False


def mentioning(pattern: re.Pattern[str]) -> Keep:
    """Keep the bodies in which ``pattern`` occurs."""

    def keep(lines: list[str], start: int, end: int) -> bool:
        return any(pattern.search(line) for line in lines[start + 1 : end])

    return keep


def _statement_end(lines: list[str], index: int) -> int | None:
    """The line (0-based) whose period ends the ``METHOD`` statement starting at ``index``
    (``METHOD … BY DATABASE PROCEDURE …`` may span lines); None when code follows that
    period on its line (the body then starts there, and is kept whole)."""
    for end in range(index, min(len(lines), index + 20)):
        code = lines[end].split('"', 1)[0]
        if "." in code:
            return end if code.rstrip().endswith(".") and code.count(".") == 1 else None
    return None


@dataclass(frozen=True)
class Skeleton:
    """One unit with every method body blanked (line numbers kept): what the declarations of
    a program depend on."""

    unit: str
    lines: list[str]  # the unit's own lines
    blanked: list[str]  # the same with the bodies emptied
    #: The text without the bodies' lines: equal shapes differ only by blank lines in bodies.
    shape: str
    bodies: tuple[tuple[int, int], ...]  # every body (last line of METHOD, ENDMETHOD), 0-based

    @classmethod
    def of(cls, unit: str, text: str) -> Skeleton:
        text = _canonical(text)
        lines = text.split("\n")
        bodies = tuple(method_bodies(lines, text))
        blanked = lines[:]
        kept: list[str] = []
        previous = 0
        for start, end in bodies:
            blanked[start + 1 : end] = [""] * (end - start - 1)
            kept += lines[previous : start + 1]
            previous = end
        kept += lines[previous:]
        return cls(unit, lines, blanked, "\n".join(kept), bodies)

    def edited(self, unit: str, text: str) -> Skeleton | None:
        """The skeleton of ``text``, a version of this one's text that differs only inside
        one body (and names no method there): found without scanning the whole text again;
        None for any other edit."""
        lines = _canonical(text).split("\n")
        first, old_end, new_end = _changed(self.lines, lines)
        found = bisect_right(self.bodies, (first, len(self.lines))) - 1
        if found < 0:
            return None
        start, end = self.bodies[found]
        changed = "\n".join([*self.lines[first:old_end], *lines[first:new_end]])
        if not start < first or old_end > end or "method" in changed.lower():
            return None
        delta = new_end - old_end
        moved = ((s + delta, e + delta) for s, e in self.bodies[found + 1 :])
        bodies = (*self.bodies[:found], (start, end + delta), *moved)
        blanked = [*self.blanked[: start + 1], *[""] * (end + delta - start - 1)]
        blanked += self.blanked[end:]
        return Skeleton(unit, lines, blanked, self.shape, bodies)

    def body_at(self, line: int) -> tuple[int, int] | None:
        """The non-empty body a request at ``line`` (1-based) keeps, as :func:`focus.focused`."""
        found = bisect_right(self.bodies, (line - 1, len(self.lines)))
        if found:
            start, end = self.bodies[found - 1]
            if end > start + 1 and start < line <= end + 1:
                return start, end
        return None


def _canonical(text: str) -> str:
    return text.replace("\r\n", "\n") if "\r" in text else text


def _changed(old: list[str], new: list[str]) -> tuple[int, int, int]:
    """Where ``new`` differs from ``old``: its first line, and where the lines both end with
    begin in each (``old[first:old_end]`` became ``new[first:new_end]``). Found by halving
    with list comparisons (C speed), not a loop over the lines."""
    common = min(len(old), len(new))
    first = _agreeing(lambda lo, hi: old[lo:hi] == new[lo:hi], common)
    tail = _agreeing(
        lambda lo, hi: old[len(old) - hi : len(old) - lo] == new[len(new) - hi : len(new) - lo],
        common - first,
    )
    return first, len(old) - tail, len(new) - tail


def _agreeing(same: Callable[[int, int], bool], limit: int) -> int:
    """The largest ``n`` ≤ ``limit`` with ``same(0, n)``, asking ``same(known, n)`` only."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if same(low, middle):
            low = middle
        else:
            high = middle - 1
    return low
