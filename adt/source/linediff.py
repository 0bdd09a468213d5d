"""Line differences whose cost follows the size of the text and of the change, never their
product.

``difflib.SequenceMatcher`` is quadratic when differences are scattered: ten changed lines in
a 100,000-line class took 93 s. Here the work is split the way patience diff does it:

1. lines equal at both ends are skipped (C-speed comparison of the two lists);
2. when both sides have as many lines and only a few of them differ, those lines are the
   differences (a server that normalised trailing blanks, a formatter that re-indented);
3. otherwise lines that occur exactly once on each side anchor the two texts to each other
   (the longest run of them in the same order on both sides), and every gap between two
   anchors is a smaller problem of the same kind;
4. a gap small enough (its two sides' product below :data:`SMALL`) is left to ``difflib``,
   which is exact there and costs at most that product.

A large gap without any unique line (rare in source code) becomes one replacement, and so
does whatever is left once the comparison has looked at :data:`WORK` lines per line of the
texts (a text that anchors only a line at a time): still correct, only not minimal. The
result is always exact: applying the blocks to ``old`` gives ``new``.
"""

from __future__ import annotations

import difflib
import operator
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from itertools import compress, count

Block = tuple[int, int, int, int]
"""``old[i1:i2]`` becomes ``new[j1:j2]`` (one of the two may be empty)."""

SMALL = 40_000
"""The largest ``len(old gap) * len(new gap)`` handed to ``difflib`` (quadratic there)."""

WORK = 16
"""Lines looked at, in all, per line of the two texts: the bound that keeps the cost linear
when anchors split a text only a little at a time (then the rest is one replacement)."""


def differences(old: Sequence[str], new: Sequence[str], *, small: int = SMALL) -> list[Block]:
    """The blocks in which ``old`` and ``new`` differ, in order, never adjacent; gaps whose
    sides' product is at most ``small`` go to ``difflib``."""
    blocks: list[Block] = []
    pending: list[Block] = [(0, len(old), 0, len(new))]
    budget = WORK * (len(old) + len(new) + 1)
    while pending:
        block = _trim(old, new, *pending.pop())
        i1, i2, j1, j2 = block
        if i1 == i2 and j1 == j2:
            continue
        budget -= (i2 - i1) + (j2 - j1)
        if budget < 0:  # a text that keeps anchoring on few lines: the rest is replaced
            blocks.append(block)
            continue
        done, split = _split(old, new, block, small)
        blocks += done
        pending += split
    blocks.sort()
    return _joined(blocks)


def _split(
    old: Sequence[str], new: Sequence[str], block: Block, small: int
) -> tuple[list[Block], list[Block]]:
    """A trimmed block as (differences found, smaller blocks still to compare)."""
    i1, i2, j1, j2 = block
    if i1 == i2 or j1 == j2:
        return [block], []
    if (i2 - i1) * (j2 - j1) <= small:
        return _exact(old, new, i1, i2, j1, j2), []
    if i2 - i1 == j2 - j1 and (runs := _positional(old, new, i1, i2, j1)) is not None:
        found: list[Block] = []
        for a1, a2, b1, b2 in runs:
            if (a2 - a1) * (b2 - b1) <= small:
                found += _exact(old, new, a1, a2, b1, b2)
            else:
                found.append((a1, a2, b1, b2))
        return found, []
    gaps = _gaps_between_anchors(old, new, i1, i2, j1, j2)
    return ([], gaps) if gaps else ([block], [])


def matches(old: Sequence[str], new: Sequence[str]) -> list[tuple[int, int, int]]:
    """The runs ``(i, j, size)`` with ``old[i:i+size] == new[j:j+size]`` between the
    differences, in order (empty runs left out)."""
    runs: list[tuple[int, int, int]] = []
    i = j = 0
    for i1, i2, _, j2 in differences(old, new):
        if i1 > i:
            runs.append((i, j, i1 - i))
        i, j = i2, j2
    if len(old) > i:
        runs.append((i, j, len(old) - i))
    return runs


def _trim(old: Sequence[str], new: Sequence[str], i1: int, i2: int, j1: int, j2: int) -> Block:
    """The block without the lines equal at its start and at its end."""
    size = min(i2 - i1, j2 - j1)
    unequal = map(operator.ne, old[i1:i2], new[j1:j2])
    head = next(compress(count(), unequal), size)
    i1, j1, size = i1 + head, j1 + head, size - head
    if size:
        backwards = map(operator.ne, _reversed(old, i1, i2), _reversed(new, j1, j2))
        tail = next(compress(count(), backwards), size)
        i2, j2 = i2 - tail, j2 - tail
    return i1, i2, j1, j2


def _reversed(lines: Sequence[str], start: int, stop: int) -> Sequence[str]:
    return lines[stop - 1 : start - 1 if start else None : -1]


def _exact(
    old: Sequence[str], new: Sequence[str], i1: int, i2: int, j1: int, j2: int
) -> list[Block]:
    matcher = difflib.SequenceMatcher(None, old[i1:i2], new[j1:j2], autojunk=False)
    return [
        (i1 + a1, i1 + a2, j1 + b1, j1 + b2)
        for tag, a1, a2, b1, b2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _positional(
    old: Sequence[str], new: Sequence[str], i1: int, i2: int, j1: int
) -> list[Block] | None:
    """Runs of lines that differ at the same place, when there are few of them (else a line
    was inserted here and another removed there, and positions say nothing)."""
    size = i2 - i1
    unequal = map(operator.ne, old[i1:i2], new[j1 : j1 + size])
    differing = list(compress(range(size), unequal))
    if len(differing) > max(64, size // 8):
        return None
    runs: list[Block] = []
    start = previous = differing[0]
    for index in differing[1:]:
        if index != previous + 1:
            runs.append((i1 + start, i1 + previous + 1, j1 + start, j1 + previous + 1))
            start = index
        previous = index
    runs.append((i1 + start, i1 + previous + 1, j1 + start, j1 + previous + 1))
    return runs


def _gaps_between_anchors(
    old: Sequence[str], new: Sequence[str], i1: int, i2: int, j1: int, j2: int
) -> list[Block]:
    """The blocks between the longest ordered chain of lines unique on both sides; empty
    when there is no such line. Every step but the chain is C-speed (``map``/``compress``):
    at 100,000 lines the per-line work is a few dictionary lookups."""
    a, b = old[i1:i2], new[j1:j2]
    unique = _once(a) & _once(b)
    if not unique:
        return []
    where = dict(zip(a, range(len(a)), strict=True))  # the last index: the only one if unique
    ys = list(compress(range(len(b)), map(unique.__contains__, b)))
    xs = list(map(where.__getitem__, map(b.__getitem__, ys)))
    if not all(map(operator.lt, xs, xs[1:])):  # a line moved: keep the longest ordered chain
        xs, ys = _longest_increasing(xs, ys)
    # Consecutive anchors one line apart on both sides have nothing between them.
    steps = map(operator.add, map(operator.sub, xs[1:], xs), map(operator.sub, ys[1:], ys))
    breaks = compress(range(1, len(xs)), map((2).__ne__, steps))
    gaps: list[Block] = []
    if xs[0] or ys[0]:
        gaps.append((i1, i1 + xs[0], j1, j1 + ys[0]))
    for k in breaks:
        gaps.append((i1 + xs[k - 1] + 1, i1 + xs[k], j1 + ys[k - 1] + 1, j1 + ys[k]))
    if xs[-1] + 1 < len(a) or ys[-1] + 1 < len(b):
        gaps.append((i1 + xs[-1] + 1, i2, j1 + ys[-1] + 1, j2))
    return gaps


def _once(lines: Sequence[str]) -> set[str]:
    """The lines that occur exactly once."""
    counted = Counter(lines)
    return set(compress(counted.keys(), map((1).__eq__, counted.values())))


def _longest_increasing(xs: list[int], ys: list[int]) -> tuple[list[int], list[int]]:
    """The longest subsequence of the pairs ``(xs[k], ys[k])`` (``ys`` increasing) whose
    ``xs`` increase too (patience sorting, O(n log n))."""
    tops: list[int] = []  # the smallest x ending a chain of each length
    ends: list[int] = []  # the index of that chain's last pair
    before = [-1] * len(xs)
    for index, x in enumerate(xs):
        length = bisect_left(tops, x)
        if length == len(tops):
            tops.append(x)
            ends.append(index)
        else:
            tops[length] = x
            ends[length] = index
        before[index] = ends[length - 1] if length else -1
    chain: list[int] = []
    at = ends[-1] if ends else -1
    while at >= 0:
        chain.append(at)
        at = before[at]
    chain.reverse()
    return [xs[k] for k in chain], [ys[k] for k in chain]


def _joined(blocks: list[Block]) -> list[Block]:
    """Adjacent blocks as one (gaps next to each other may each end in a difference)."""
    joined: list[Block] = []
    for block in blocks:
        if joined and joined[-1][1] == block[0] and joined[-1][3] == block[2]:
            joined[-1] = (joined[-1][0], block[1], joined[-1][2], block[3])
        else:
            joined.append(block)
    return joined
