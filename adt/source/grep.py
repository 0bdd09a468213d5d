"""Server-side search over a source's lines, in bounded time.

Python's ``re`` cannot be interrupted, so a pattern such as ``(a|aa)+$`` could pin a CPU for
hours on one 255-character line. We use the ``regex`` module instead: it matches the same
syntax, defends against much backtracking by itself, and takes a ``timeout``. The whole search
shares one time budget (``SourceConfig.grep_timeout_s``); a pattern that exhausts it is
refused as PATTERN_INVALID with the line it had reached, and nothing is returned partially.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import regex

from adt.source.errors import InvalidArgument, PatternInvalid


@dataclass(frozen=True)
class GrepMatch:
    line_number: int
    content: str
    context_before: tuple[str, ...]
    context_after: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "lineNumber": self.line_number,
            "content": self.content,
            "contextBefore": list(self.context_before),
            "contextAfter": list(self.context_after),
        }


@dataclass(frozen=True)
class GrepResult:
    matches: tuple[GrepMatch, ...]
    truncated: bool
    searched_to: int  # last line examined
    next_start_line: int | None  # where to continue when truncated


def compile_pattern(
    pattern: str, *, case_insensitive: bool = False, max_length: int = 1000
) -> regex.Pattern[str]:
    if not isinstance(pattern, str) or pattern == "":
        raise PatternInvalid("the pattern must be a non-empty string", pattern=pattern)
    if len(pattern) > max_length:
        raise PatternInvalid(
            f"the pattern is {len(pattern)} characters long; the limit is {max_length}",
            pattern=pattern[:100],
        )
    flags = regex.VERSION0 | (regex.IGNORECASE if case_insensitive else 0)
    try:
        return regex.compile(pattern, flags)
    except (regex.error, OverflowError, RecursionError) as exc:
        raise PatternInvalid(f"invalid regular expression: {exc}", pattern=pattern) from exc


def grep_lines(
    lines: list[str],
    pattern: str,
    *,
    case_insensitive: bool = False,
    context_lines: int = 0,
    max_matches: int = 100,
    start_line: int = 1,
    end_line: int | None = None,
    timeout_s: float = 2.0,
    max_pattern_length: int = 1000,
    max_context_lines: int = 50,
) -> GrepResult:
    """Find lines matching ``pattern`` in ``start_line..end_line``.

    ``truncated`` is true only when a match exists beyond the ``max_matches`` returned; the
    search stops at that first extra match, and ``next_start_line`` says where to resume.
    """
    if max_matches < 1:
        raise InvalidArgument(f"maxMatches must be 1 or more, not {max_matches}")
    if not 0 <= context_lines <= max_context_lines:
        raise InvalidArgument(f"contextLines must be between 0 and {max_context_lines}")
    compiled = compile_pattern(
        pattern, case_insensitive=case_insensitive, max_length=max_pattern_length
    )
    last = len(lines) if end_line is None else min(end_line, len(lines))
    deadline = time.monotonic() + timeout_s
    matches: list[GrepMatch] = []
    index = max(start_line, 1) - 1
    while index < last:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            _too_slow(pattern, index + 1, timeout_s)
        try:
            found = compiled.search(lines[index], timeout=remaining) is not None
        except TimeoutError:
            _too_slow(pattern, index + 1, timeout_s)
        if found:
            if len(matches) == max_matches:
                return GrepResult(tuple(matches), True, index + 1, index + 1)
            matches.append(
                GrepMatch(
                    line_number=index + 1,
                    content=lines[index],
                    context_before=tuple(lines[max(0, index - context_lines) : index]),
                    context_after=tuple(lines[index + 1 : index + 1 + context_lines]),
                )
            )
        index += 1
    return GrepResult(tuple(matches), False, last, None)


def _too_slow(pattern: str, line: int, timeout_s: float) -> None:
    raise PatternInvalid(
        f"the pattern took longer than {timeout_s:g}s (stopped at line {line}); it probably "
        "backtracks catastrophically, e.g. nested quantifiers like (a+)+. Simplify it.",
        pattern=pattern,
        stoppedAtLine=line,
        timeoutSeconds=timeout_s,
    )
