"""Three-way merge of line hunks, for the "merge" answer to a save conflict.

Our hunks and theirs are both relative to the base we loaded. Where they are apart, ours are
applied onto their version. Where they overlap or touch (the same rule git uses), nothing is
guessed: the region gets conflict markers holding both versions, so no edit is lost, and the
caller reports those lines as diagnostics.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adt.source.linediff import differences
from adt.source.lines import Patch
from adt.text import split_lines
from lsp_server.buffer import Hunk

OURS_MARK = "<<<<<<< yours (unsaved)"
SPLIT_MARK = "======="
THEIRS_MARK = ">>>>>>> server"


@dataclass(frozen=True)
class Conflict:
    """Lines ``start..end`` (1-based, in the merged text) hold one conflict block."""

    start: int
    end: int
    ours: tuple[str, ...]
    theirs: tuple[str, ...]


@dataclass(frozen=True)
class MergeResult:
    lines: tuple[str, ...]
    conflicts: tuple[Conflict, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    @property
    def clean(self) -> bool:
        return not self.conflicts


def diff_hunks(base: Sequence[str], other: Sequence[str]) -> list[Hunk]:
    """The hunks turning ``base`` into ``other`` (linear in their size: see linediff)."""
    return [Hunk(i1 + 1, i2, tuple(other[j1:j2])) for i1, i2, j1, j2 in differences(base, other)]


def _span(hunk: Hunk) -> tuple[float, float]:
    """The hunk's extent in base coordinates, widened by half a line on each side so that
    touching hunks count as overlapping."""
    if hunk.end < hunk.start:  # an insertion sits between two lines
        point = hunk.start - 0.5
        return point, point
    return hunk.start - 0.5, hunk.end + 0.5


def _apply(base: Sequence[str], first: int, last: int, hunks: Sequence[Hunk]) -> list[str]:
    """Base lines ``first..last`` with ``hunks`` (inside that region) applied."""
    result: list[str] = []
    cursor = first
    for hunk in sorted(hunks, key=lambda h: (h.start, h.end)):
        result.extend(base[cursor - 1 : hunk.start - 1])
        result.extend(hunk.lines)
        cursor = max(cursor, hunk.end + 1)
    result.extend(base[cursor - 1 : last])
    return result


def merge(base: Sequence[str], ours: Sequence[Hunk], theirs: Sequence[Hunk]) -> MergeResult:
    """Merge our hunks and theirs (both against ``base``)."""
    tagged = sorted(
        [(_span(h), "ours", h) for h in ours] + [(_span(h), "theirs", h) for h in theirs],
        key=lambda item: item[0],
    )
    groups: list[list[tuple[str, Hunk]]] = []
    reach = float("-inf")
    for (low, high), side, hunk in tagged:
        if groups and low <= reach:
            groups[-1].append((side, hunk))
            reach = max(reach, high)
        else:
            groups.append([(side, hunk)])
            reach = high
    merged: list[str] = []
    conflicts: list[Conflict] = []
    cursor = 1  # next base line to copy
    for group in groups:
        first = min(h.start for _, h in group)
        last = max(h.end for _, h in group)
        merged.extend(base[cursor - 1 : first - 1])
        mine = [h for side, h in group if side == "ours"]
        other = [h for side, h in group if side == "theirs"]
        our_version = _apply(base, first, last, mine)
        their_version = _apply(base, first, last, other)
        if not mine:
            merged.extend(their_version)
        elif not other or our_version == their_version:
            merged.extend(our_version)
        else:
            start = len(merged) + 1
            merged.extend([OURS_MARK, *our_version, SPLIT_MARK, *their_version, THEIRS_MARK])
            conflicts.append(Conflict(start, len(merged), tuple(our_version), tuple(their_version)))
        cursor = max(cursor, last + 1)
    merged.extend(base[cursor - 1 :])
    return MergeResult(tuple(merged), tuple(conflicts))


def merge_without_base(ours: Sequence[str], theirs: Sequence[str]) -> MergeResult:
    """Both versions when the base they came from is not known (a buffer restored after a
    restart whose original text nobody kept): nothing tells whose change a difference is,
    so every differing region becomes a conflict block holding both sides."""
    ours, theirs = list(ours), list(theirs)
    merged: list[str] = []
    conflicts: list[Conflict] = []
    cursor = 0
    for i1, i2, j1, j2 in differences(theirs, ours):
        merged.extend(theirs[cursor:i1])
        mine, other = tuple(ours[j1:j2]), tuple(theirs[i1:i2])
        start = len(merged) + 1
        merged.extend([OURS_MARK, *mine, SPLIT_MARK, *other, THEIRS_MARK])
        conflicts.append(Conflict(start, len(merged), mine, other))
        cursor = i2
    merged.extend(theirs[cursor:])
    return MergeResult(tuple(merged), tuple(conflicts))


def patches_between(base_text: str, target_text: str) -> list[Patch]:
    """Line patches turning ``base_text`` into ``target_text`` (for overwrite and merge)."""
    return [h.as_patch() for h in diff_hunks(split_lines(base_text), split_lines(target_text))]


@dataclass(frozen=True)
class MarkedBlock:
    """A conflict block in a text (0-based lines): ``start`` (``<<<<<<<``), ``split``
    (``=======``), ``end`` (``>>>>>>>``)."""

    start: int
    split: int
    end: int


def marked_blocks(lines: Sequence[str]) -> list[MarkedBlock]:
    """The complete conflict blocks of a text: ours or git's markers (``<<<<<<< x``,
    ``=======``, ``>>>>>>> y`` at the start of their lines). An incomplete block (the user is
    deleting markers) is no block."""
    blocks: list[MarkedBlock] = []
    start: int | None = None
    split: int | None = None
    for index, line in enumerate(lines):
        if line.startswith("<<<<<<<"):
            start, split = index, None
        elif line.rstrip() == SPLIT_MARK and start is not None and split is None:
            split = index
        elif line.startswith(">>>>>>>") and start is not None and split is not None:
            blocks.append(MarkedBlock(start, split, index))
            start, split = None, None
    return blocks


def ours_view(lines: Sequence[str]) -> str:
    """The text as it reads with every conflict resolved to our side, line for line: marker
    lines and their side become empty lines, so statements never run across a marker and
    every line keeps its number (the outline and folds of a document with markers)."""
    return "\n".join(ours_lines(lines))


def ours_lines(lines: Sequence[str]) -> Sequence[str]:
    """:func:`ours_view` as lines (``lines`` themselves when there is no conflict)."""
    blocks = marked_blocks(lines)
    if not blocks:
        return lines
    view = list(lines)
    for block in blocks:
        view[block.start] = "."  # ends a statement our side left open before the block
        view[block.split : block.end + 1] = ["."] + [""] * (block.end - block.split)
    return view
