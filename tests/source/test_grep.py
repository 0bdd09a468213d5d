"""Server-side grep (pure part)."""

from __future__ import annotations

import time

import pytest

from adt.source.errors import InvalidArgument, PatternInvalid
from adt.source.grep import grep_lines

LINES = ["METHOD a.", "  x = 1.", "ENDMETHOD.", "method b.", "ENDMETHOD."]


def test_matches_with_context_at_the_edges() -> None:
    result = grep_lines(LINES, r"^METHOD", context_lines=2)
    (first,) = result.matches
    assert first.line_number == 1
    assert first.context_before == ()
    assert first.context_after == ("  x = 1.", "ENDMETHOD.")
    last = grep_lines(LINES, "b\\.", context_lines=3).matches[0]
    assert last.context_after == ("ENDMETHOD.",)
    assert last.context_before == tuple(LINES[0:3])


def test_case_sensitivity() -> None:
    assert [m.line_number for m in grep_lines(LINES, "^method").matches] == [4]
    insensitive = grep_lines(LINES, "^method", case_insensitive=True).matches
    assert [m.line_number for m in insensitive] == [1, 4]


def test_exactly_max_matches_is_not_truncated() -> None:
    result = grep_lines(LINES, "ENDMETHOD", max_matches=2)
    assert len(result.matches) == 2 and not result.truncated and result.next_start_line is None


def test_more_than_max_matches_is_truncated_with_a_continuation() -> None:
    result = grep_lines(LINES, "METHOD", case_insensitive=True, max_matches=2)
    assert [m.line_number for m in result.matches] == [1, 3]
    assert result.truncated and result.next_start_line == 4
    rest = grep_lines(LINES, "METHOD", case_insensitive=True, start_line=4)
    assert [m.line_number for m in rest.matches] == [4, 5] and not rest.truncated


@pytest.mark.parametrize("pattern", ["(", "[a-", "a{2,1}", "", "*x"])
def test_invalid_patterns(pattern: str) -> None:
    with pytest.raises(PatternInvalid) as caught:
        grep_lines(LINES, pattern)
    assert caught.value.code == 4006


def test_bad_arguments() -> None:
    with pytest.raises(InvalidArgument):
        grep_lines(LINES, "x", max_matches=0)
    with pytest.raises(InvalidArgument):
        grep_lines(LINES, "x", context_lines=-1)
    with pytest.raises(PatternInvalid, match="limit"):
        grep_lines(LINES, "x" * 2000)


def test_catastrophic_backtracking_returns_in_bounded_time() -> None:
    lines = ["a" * 250 + "!" for _ in range(10_000)]
    started = time.monotonic()
    outcome: str
    try:
        result = grep_lines(lines, r"^(a|aa)+$", timeout_s=0.5)
        outcome = f"result with {len(result.matches)} matches"
    except PatternInvalid as exc:
        outcome = exc.message
    elapsed = time.monotonic() - started
    assert elapsed < 5, f"took {elapsed:.1f}s ({outcome})"
