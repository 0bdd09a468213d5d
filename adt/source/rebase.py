"""Rebasing a line patch over a colleague's change: the patch was made against the text a
token names (the *base*); the source has changed since. When the lines a patch replaces, and
one line of context on each side of them, are the same in the base and in the current text,
the patch means the same there and is moved by the lines inserted or removed above it.
Anything closer is an overlap and nothing is guessed. Pure functions over lines.

The context rule is git's ("changes that touch conflict"): a colleague who changed the line
just above ours may have changed what ours relies on. The start and the end of the text count
as context too, so an insertion at the very top beside our change of line 1 is an overlap.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from adt.source.bases import BaseTexts
from adt.source.changes import Rewrite
from adt.source.errors import SourceError
from adt.source.linediff import Block, differences
from adt.source.lines import Patch, validate_patches
from adt.source.metadata import MetadataCache, changed_by
from adt.source.targets import Target
from adt.text import TextLines, split_lines


@dataclass(frozen=True)
class Rebased:
    """The patches moved onto the current text, and what the colleague changed there."""

    patches: tuple[Patch, ...]
    theirs: tuple[Block, ...]


@dataclass(frozen=True)
class Overlap:
    """Patches that touch lines the colleague changed: ``ours`` (1-based, in the base) and
    ``theirs`` (1-based ranges in the current text) name them."""

    ours: tuple[tuple[int, int], ...]
    theirs: tuple[tuple[int, int], ...]


def _touches(patch: Patch, block: Block) -> bool:
    """Whether a colleague's block touches the patch or its one line of context (base lines
    ``start - 1 .. end + 1``, where line 0 and line n + 1 stand for the text's two ends)."""
    low, high = patch.start_line - 1, patch.end_line + 1
    i1, i2, _, _ = block
    if i1 == i2:  # an insertion before base line i1 + 1: inside when between two context lines
        return low < i1 + 1 <= high
    return i1 + 1 <= high and i2 >= low


def _shift(patch: Patch, blocks: Sequence[Block]) -> Patch:
    """The patch moved by the lines the blocks above it insert or remove."""
    above = sum((j2 - j1) - (i2 - i1) for i1, i2, j1, j2 in blocks if i1 < patch.start_line - 1)
    return Patch(patch.start_line + above, patch.end_line + above, patch.lines)


def rebase(
    base: Sequence[str], current: Sequence[str], patches: Sequence[Patch]
) -> Rebased | Overlap:
    """``patches`` (against ``base``) moved onto ``current``, or the overlap that forbids it.
    Line numbers are checked against the base, as for a write without a rebase."""
    ordered = validate_patches(patches, len(base))
    theirs = differences(base, current)
    ours: list[tuple[int, int]] = []
    touched: list[Block] = []
    for patch in ordered:
        hit = [block for block in theirs if _touches(patch, block)]
        if hit:
            ours.append((patch.start_line, patch.end_line))
            touched += [b for b in hit if b not in touched]
    if ours:
        return Overlap(tuple(ours), tuple(current_range(b) for b in sorted(touched)))
    return Rebased(tuple(_shift(p, theirs) for p in ordered), tuple(theirs))


def current_range(block: Block) -> tuple[int, int]:
    """A block's lines in the current text, 1-based inclusive (``(n + 1, n)``: lines removed
    before line n + 1)."""
    _, _, j1, j2 = block
    return j1 + 1, j2


@dataclass(frozen=True)
class Moved:
    """A change moved over the newer version: its patches against the current text, and
    ``over`` (who changed which lines since the token, as the answer's ``rebasedOver``)."""

    patches: tuple[Patch, ...]
    over: dict[str, Any]


@dataclass(frozen=True)
class Refusal:
    """Why a change cannot be moved: the message's words and the conflict's details."""

    reason: str
    details: dict[str, Any]


class Rebaser:
    """Moves a write made against an older token over what changed since, or says why not."""

    def __init__(self, bases: BaseTexts, metadata: MetadataCache) -> None:
        self._bases = bases
        self._metadata = metadata

    async def move(
        self, target: Target, token: str, change: Rewrite, current: str, changed_at: int
    ) -> Moved | Refusal:
        """Called under the lock with the current text; costs a metadata read (who changed
        it) and, when the cache no longer knows the token, the version reads of BaseTexts."""
        base = await self._bases.lines(target, token)
        if base is None:
            return Refusal(
                "the text your token names is no longer known here, so your change could not "
                "be moved over the newer version",
                {"baseUnknown": True},
            )
        text = base.text if isinstance(base, TextLines) else "\n".join(base)
        try:
            patches = change.patches(text)
        except SourceError as exc:
            return Refusal(f"your change does not apply to your token's text ({exc.message})", {})
        moved = rebase(list(base), split_lines(current), patches)  # compared line by line
        if isinstance(moved, Overlap):
            return Refusal(
                f"they changed lines {_ranges(moved.theirs)} of the current version, next to or "
                f"inside your change of lines {_ranges(moved.ours)} of your version",
                {"overlap": {"yourLines": _lists(moved.ours), "theirLines": _lists(moved.theirs)}},
            )
        who = None
        with contextlib.suppress(Exception):
            meta = await self._metadata.get(target.ref.object_url, fresh=True)
            who = changed_by(meta, target.ref.include)
        over = {
            "fromToken": token,
            "changedBy": who,
            "changedAt": changed_at,
            "lines": [{"old": [a + 1, b], "new": [c + 1, d]} for a, b, c, d in moved.theirs],
        }
        return Moved(moved.patches, over)


def _ranges(ranges: Sequence[tuple[int, int]]) -> str:
    """``5``, ``5-7``, or ``before 5`` (an insertion, or lines removed there)."""
    return ", ".join(
        f"{a}-{b}" if b > a else f"{a}" if b == a else f"before {a}" for a, b in ranges
    )


def _lists(ranges: Sequence[tuple[int, int]]) -> list[list[int]]:
    return [list(r) for r in ranges]


__all__ = ["Moved", "Overlap", "Rebased", "Rebaser", "Refusal", "current_range", "rebase"]
