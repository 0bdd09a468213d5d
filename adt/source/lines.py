"""Line ranges and line patches over canonical text. Pure functions, 1-based inclusive lines.

A patch replaces lines ``start..end`` of the base with new lines. ``end = start - 1`` is an
insertion before line ``start`` (``start = lineCount + 1`` appends). Several patches apply
atomically against the same base; they must not overlap, and two insertions at the same
place are refused because their order would be a guess.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from adt.source.errors import InvalidArgument, LineOutOfRange, NoUniqueMatch
from adt.text import TextLines, split_lines, to_canonical


def content_lines(content: str) -> list[str]:
    """The lines of a patch's content, split on line breaks as the V2 design does: ``""`` is
    one empty line (deleting takes an explicit deletion, :meth:`Patch.deletion`); a final
    newline is optional (``"a\\n"`` and ``"a"`` are both one line); CRLF is one break."""
    canonical = to_canonical(content)
    if canonical.endswith("\n"):
        canonical = canonical[:-1]
    return canonical.split("\n")


@dataclass(frozen=True)
class RangeSlice:
    content: str
    start_line: int
    end_line: int
    line_count: int
    note: str | None = None
    truncated: bool = False


def read_range(text: str, start_line: int | None, end_line: int | None) -> RangeSlice:
    """Lines ``start..end`` of ``text``. An end past the last line is clamped, with a note;
    a start past the last line is LINE_OUT_OF_RANGE. Any line ending counts as one break."""
    return slice_lines(split_lines(to_canonical(text)), start_line, end_line)


def slice_lines(lines: Sequence[str], start_line: int | None, end_line: int | None) -> RangeSlice:
    """:func:`read_range` over lines already split: costs the size of the range only."""
    count = len(lines)
    start = 1 if start_line is None else start_line
    end = count if end_line is None else end_line
    if start < 1:
        raise LineOutOfRange(f"startLine must be 1 or more, not {start}", lineCount=count)
    if end_line is not None and end < start:
        raise LineOutOfRange(
            f"endLine ({end}) is before startLine ({start})", lineCount=count, startLine=start
        )
    if count == 0:
        if start_line not in (None, 1):
            raise LineOutOfRange(
                f"the source is empty; startLine {start} does not exist", lineCount=0
            )
        return RangeSlice("", 1, 0, 0, note="the source is empty")
    if start > count:
        raise LineOutOfRange(
            f"startLine {start} is past the last line ({count})",
            lineCount=count,
            lastLine=count,
        )
    note = None
    if end > count:
        note = f"endLine {end} is past the last line; returned lines {start}-{count}"
        end = count
    if isinstance(lines, TextLines):  # the cache's: one slice of its text
        return RangeSlice(lines.joined(start - 1, end), start, end, count, note=note)
    return RangeSlice("\n".join(lines[start - 1 : end]), start, end, count, note=note)


@dataclass(frozen=True)
class Patch:
    start_line: int
    end_line: int
    lines: tuple[str, ...]

    @classmethod
    def from_content(cls, start_line: int, end_line: int, content: str | None) -> Patch:
        """Lines ``start..end`` become ``content``; ``None`` deletes them."""
        if content is None:
            return cls.deletion(start_line, end_line)
        return cls(int(start_line), int(end_line), tuple(content_lines(content)))

    @classmethod
    def deletion(cls, start_line: int, end_line: int) -> Patch:
        return cls(int(start_line), int(end_line), ())

    @property
    def is_insertion(self) -> bool:
        return self.end_line == self.start_line - 1


@dataclass(frozen=True)
class AppliedPatch:
    old_range: tuple[int, int]
    new_range: tuple[int, int]


@dataclass(frozen=True)
class PatchResult:
    text: str
    line_count: int
    applied: tuple[AppliedPatch, ...]


def validate_patches(patches: Sequence[Patch], line_count: int) -> list[Patch]:
    """Check every patch against the base's line count; return them in line order."""
    if not patches:
        raise InvalidArgument("no patch given: pass startLine/endLine/content or patches")
    for patch in patches:
        if patch.start_line < 1 or patch.start_line > line_count + 1:
            raise LineOutOfRange(
                f"startLine {patch.start_line} is outside 1..{line_count + 1} "
                f"(the base has {line_count} lines; {line_count + 1} appends)",
                lineCount=line_count,
                startLine=patch.start_line,
            )
        if patch.end_line < patch.start_line - 1:
            raise LineOutOfRange(
                f"endLine {patch.end_line} is before startLine {patch.start_line} "
                "(use endLine = startLine - 1 to insert)",
                lineCount=line_count,
            )
        if patch.end_line > line_count:
            raise LineOutOfRange(
                f"endLine {patch.end_line} is past the last line ({line_count})",
                lineCount=line_count,
                endLine=patch.end_line,
            )
    return ordered_without_overlap(patches)


def ordered_without_overlap(patches: Sequence[Patch]) -> list[Patch]:
    """The patches in source order; overlapping ones are refused. Needs no base text, so a
    write can refuse them before it locks anything."""
    ordered = sorted(patches, key=lambda p: (p.start_line, p.end_line))
    for before, after in itertools.pairwise(ordered):
        # An insertion sits between lines start-1 and start; a replacement covers start..end.
        before_end = before.start_line - 0.5 if before.is_insertion else before.end_line
        after_start = after.start_line - 0.5 if after.is_insertion else after.start_line
        if after_start <= before_end:
            raise InvalidArgument(
                f"patches {before.start_line}-{before.end_line} and "
                f"{after.start_line}-{after.end_line} overlap; merge them into one",
                first=[before.start_line, before.end_line],
                second=[after.start_line, after.end_line],
            )
    return ordered


def apply_patches(text: str, patches: Sequence[Patch]) -> PatchResult:
    """Apply non-overlapping patches to ``text`` atomically (all line numbers refer to it).
    The result is canonical (LF) whatever line endings ``text`` had."""
    lines = split_lines(to_canonical(text))
    ordered = validate_patches(patches, len(lines))
    result: list[str] = []
    applied: list[AppliedPatch] = []
    cursor = 0  # index into the base
    for patch in ordered:
        result.extend(lines[cursor : patch.start_line - 1])
        new_start = len(result) + 1
        result.extend(patch.lines)
        applied.append(
            AppliedPatch(
                old_range=(patch.start_line, patch.end_line),
                new_range=(new_start, new_start + len(patch.lines) - 1),
            )
        )
        cursor = max(cursor, patch.end_line)
    result.extend(lines[cursor:])
    return PatchResult("\n".join(result), len(result), tuple(applied))


def _occurrences(text: str, needle: str) -> list[int]:
    positions: list[int] = []
    start = text.find(needle)
    while start != -1:
        positions.append(start)
        start = text.find(needle, start + 1)
    return positions


def _listed(numbers: list[int], limit: int = 10) -> str:
    shown = ", ".join(str(n) for n in numbers[:limit])
    return shown + (f" and {len(numbers) - limit} more" if len(numbers) > limit else "")


def check_replacement(old: object, new: object) -> tuple[str, str]:
    """Canonical ``(old, new)`` of a unique replacement, or INVALID_ARGUMENT."""
    if not isinstance(old, str) or not isinstance(new, str):
        raise InvalidArgument("oldString and newString must be strings")
    old, new = to_canonical(old), to_canonical(new)
    if old == "":
        raise InvalidArgument("oldString must be a non-empty string")
    if old == new:
        raise InvalidArgument("oldString and newString are identical: nothing to replace")
    return old, new


def replace_unique(text: str, old: str, new: str) -> tuple[str, AppliedPatch]:
    """Replace the single occurrence of ``old`` in ``text`` (the result is canonical).

    Line endings of ``old``/``new`` do not matter. Zero or several occurrences are
    NO_UNIQUE_MATCH saying how many and on which lines; ``old == new`` is refused.
    """
    old, new = check_replacement(old, new)
    text = to_canonical(text)
    positions = _occurrences(text, old)
    if not positions:
        raise NoUniqueMatch(
            "oldString was not found in the source; re-read it and copy the exact text "
            "(whitespace included)",
            occurrences=0,
        )
    if len(positions) > 1:
        lines = [text.count("\n", 0, p) + 1 for p in positions]
        raise NoUniqueMatch(
            f"oldString occurs {len(positions)} times (lines {_listed(lines)}); add surrounding "
            "lines to make it unique",
            occurrences=len(positions),
            lines=lines,
        )
    at = positions[0]
    first = text.count("\n", 0, at) + 1
    replaced = text[:at] + new + text[at + len(old) :]
    applied = AppliedPatch((first, first + old.count("\n")), (first, first + new.count("\n")))
    return replaced, applied
