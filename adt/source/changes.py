"""What a V2 write changes: fixed line patches, or a named part of the source (``symbol``)
found in the base text under the lock. Arguments are checked here, before any request."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from adt.errors import LineTooLongError
from adt.source.errors import InvalidArgument, as_source_error
from adt.source.lines import Patch, content_lines, ordered_without_overlap, replace_unique
from adt.source.symbols import locate
from adt.text import check_line_lengths, split_lines


class Rewrite(Protocol):
    """A change that can be found again in an older text (the base a token names), so that a
    write made against it can be moved over a colleague's newer version."""

    def patches(self, base: str) -> list[Patch]: ...


@dataclass(frozen=True)
class Change:
    """What a V2 write changes: fixed patches, or a named part found in the base text."""

    fixed: tuple[Patch, ...]
    symbol: str | None = None
    lines: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        start_line: int | None,
        end_line: int | None,
        content: str | None,
        patches: Sequence[Patch] | None,
        symbol: str | None,
        delete: bool,
    ) -> Change:
        """Check the arguments before any request."""
        if delete and content is not None:
            raise InvalidArgument("pass either content or delete, not both")
        if symbol is None:
            return cls(tuple(collect_patches(start_line, end_line, content, patches, delete)))
        if patches or start_line is not None or end_line is not None:
            raise InvalidArgument("pass either symbol or startLine/endLine/patches, not both")
        if content is None and not delete:
            raise InvalidArgument("symbol needs content (or delete to remove the part)")
        lines = () if delete else tuple(content_lines(content or ""))
        check_patch_lines(Patch(1, 0, lines))
        return cls((), symbol, lines)

    def patches(self, base: str) -> list[Patch]:
        if self.symbol is None:
            return list(self.fixed)
        part = locate(base, self.symbol, for_write=True)
        return [Patch(part.start_line, part.end_line, self.lines)]


@dataclass(frozen=True)
class Replacement:
    """The single occurrence of ``old`` becomes ``new``: found in the base text, it is the one
    line patch over the lines it spans, so it rebases as a line patch does. The occurrence
    is unique where the agent saw it; a copy a colleague added elsewhere changes nothing."""

    old: str
    new: str

    def patches(self, base: str) -> list[Patch]:
        text, applied = replace_unique(base, self.old, self.new)
        first, last = applied.old_range
        return [Patch(first, last, tuple(split_lines(text)[first - 1 : applied.new_range[1]]))]


def collect_patches(
    start_line: int | None,
    end_line: int | None,
    content: str | None,
    patches: Sequence[Patch] | None,
    delete: bool = False,
) -> list[Patch]:
    single = start_line is not None or end_line is not None or content is not None or delete
    if patches and single:
        raise InvalidArgument("pass either startLine/endLine/content or patches, not both")
    if patches:
        ordered_without_overlap(patches)  # refuse before any request
        collected = list(patches)
    elif start_line is None or end_line is None or (content is None and not delete):
        raise InvalidArgument(
            "startLine, endLine and content (or delete) are all required (or patches)"
        )
    else:
        collected = [Patch.from_content(start_line, end_line, None if delete else content)]
    for patch in collected:
        check_patch_lines(patch)
    return collected


def check_patch_lines(patch: Patch) -> None:
    """Refuse an over-long new line or a control character before any request, naming the
    line it would become."""
    refuse_control_characters(patch.lines, first_line=patch.start_line)
    try:
        check_line_lengths("\n".join(patch.lines), first_line=patch.start_line)
    except LineTooLongError as exc:
        raise as_source_error(exc) from exc


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x0c\x0e-\x1f\x7f-\x9f]")
# Bidirectional embeddings, overrides and isolates reorder what a reviewer sees without
# changing what the compiler reads ("trojan source"); C1 controls such as U+0085 (a line
# break to some tools) and U+009B (a terminal escape) hide text the same way.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def refuse_control_characters(lines: Sequence[str], *, first_line: int = 1) -> None:
    """ABAP source is text: NUL and the other control characters (tabs and line breaks
    aside) and bidirectional overrides are refused, naming where, instead of being stored
    or silently dropped."""
    for offset, line in enumerate(lines):
        found = _CONTROL.search(line) or _BIDI.search(line)
        if found is not None:
            code = ord(found.group())
            kind = "bidirectional override" if _BIDI.match(found.group()) else "control character"
            raise InvalidArgument(
                f"content line {first_line + offset} contains the {kind} "
                f"U+{code:04X} at column {found.start() + 1}; it can hide code from a reviewer "
                "and ABAP source is plain text: remove it",
                line=first_line + offset,
                column=found.start() + 1,
                character=f"U+{code:04X}",
            )


__all__ = [
    "Change",
    "Replacement",
    "Rewrite",
    "check_patch_lines",
    "collect_patches",
    "refuse_control_characters",
]
