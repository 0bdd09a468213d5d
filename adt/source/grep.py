"""Server-side search over a source's lines, in bounded time.

Python's ``re`` cannot be interrupted, so a pattern such as ``(a|aa)+$`` could pin a CPU for
hours on one 255-character line. We use the ``regex`` module instead: it matches the same
syntax, defends against much backtracking by itself, and takes a ``timeout``. The whole search
shares one time budget (``SourceConfig.grep_timeout_s``); a pattern that exhausts it is
refused as PATTERN_INVALID with the line it had reached, and nothing is returned partially.

Matching is per line. Calling the engine once per line costs a few microseconds of timeout
bookkeeping per call, so for most patterns we first search the whole text (MULTILINE) to find
candidate lines and then confirm each candidate on its own line. That is exact for patterns
that cannot see past their own line: a match inside a line is also a match at the same place
in the whole text. Patterns with constructs that look beyond the match (``\\A``, ``\\Z``,
``\\z``, ``\\G``, lookarounds, atomic groups, possessive quantifiers) are searched line by
line instead.

The engine releases the GIL while it matches (``concurrent=True``), and the source operations
run each search in a worker thread with a bound on how many run at once, so one caller's
catastrophic pattern never stalls the event loop that serves everybody else.
"""

from __future__ import annotations

import bisect
import itertools
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NoReturn

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
    except (regex.error, ValueError, OverflowError, RecursionError) as exc:
        raise PatternInvalid(f"invalid regular expression: {exc}", pattern=pattern) from exc


# Constructs whose meaning can depend on text outside the line being matched.
_LINE_SENSITIVE = regex.compile(r"\\[AZzG]|\(\?(?!:)|[*+?}]\+")


def whole_text_search_is_exact(pattern: str) -> bool:
    """Whether searching the joined text finds every line a per-line search would find."""
    return _LINE_SENSITIVE.search(pattern) is None


def grep_lines(
    lines: Sequence[str],
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
    first = max(start_line, 1)
    deadline = time.monotonic() + timeout_s
    if first > last:
        return GrepResult((), False, last, None)
    if whole_text_search_is_exact(pattern):
        candidates: Iterator[int] = _candidate_lines(
            lines, pattern, case_insensitive, first, last, deadline, timeout_s
        )
    else:
        candidates = iter(range(first, last + 1))
    matches: list[GrepMatch] = []
    for number in candidates:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            _too_slow(pattern, number, timeout_s)
        try:
            found = (
                compiled.search(lines[number - 1], timeout=remaining, concurrent=True) is not None
            )
        except TimeoutError:
            _too_slow(pattern, number, timeout_s)
        if not found:
            continue
        if len(matches) == max_matches:
            return GrepResult(tuple(matches), True, number, number)
        index = number - 1
        matches.append(
            GrepMatch(
                line_number=number,
                content=lines[index],
                context_before=tuple(lines[max(0, index - context_lines) : index]),
                context_after=tuple(lines[index + 1 : index + 1 + context_lines]),
            )
        )
    return GrepResult(tuple(matches), False, last, None)


def _candidate_lines(
    lines: Sequence[str],
    pattern: str,
    case_insensitive: bool,
    first: int,
    last: int,
    deadline: float,
    timeout_s: float,
) -> Iterator[int]:
    """Line numbers (ascending, each once) on which a whole-text match starts."""
    flags = regex.VERSION0 | regex.MULTILINE | (regex.IGNORECASE if case_insensitive else 0)
    compiled = regex.compile(pattern, flags)
    text = "\n".join(lines)
    # starts[i] is the offset of line i + 1; starts[-1] is one past the end of the text.
    starts = [0, *itertools.accumulate(len(line) + 1 for line in lines)]
    end = starts[last] - 1  # the end of line `last`, before its line break
    position = starts[first - 1]
    while position <= end:
        line = bisect.bisect_right(starts, position)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            _too_slow(pattern, line, timeout_s)
        try:
            match = compiled.search(text, position, end, timeout=remaining, concurrent=True)
        except TimeoutError:
            _too_slow(pattern, line, timeout_s)
        if match is None:
            return
        number = bisect.bisect_right(starts, match.start())
        yield number
        position = starts[number]  # continue with the next line


def _too_slow(pattern: str, line: int, timeout_s: float) -> NoReturn:
    raise PatternInvalid(
        f"the pattern took longer than {timeout_s:g}s (stopped at line {line}); it probably "
        "backtracks catastrophically, e.g. nested quantifiers like (a+)+. Simplify it.",
        pattern=pattern,
        stoppedAtLine=line,
        timeoutSeconds=timeout_s,
    )
