"""Server-side grep (pure part)."""

from __future__ import annotations

import time

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st

from adt.source.errors import InvalidArgument, PatternInvalid
from adt.source.grep import grep_lines, whole_text_search_is_exact

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


FRAGMENTS = [
    "a",
    "b",
    "ab",
    r"\s",
    r"\s+",
    r"\w+",
    "^",
    "$",
    ".",
    "[ab]",
    r"\b",
    r"\B",
    "a*",
    "(a|b)",
    "c?",
    " ",
    "é",
    r"\d",
    "(?i)A",
    r"\Z",
    r"(?!a)",
    r"(?<=b)",
    "a++",
    "(?>a+)",
]
LINE_TEXT = st.text(alphabet="ab c1é.", max_size=8)


@given(
    lines=st.lists(LINE_TEXT, min_size=0, max_size=12),
    pieces=st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=4),
    case_insensitive=st.booleans(),
    data=st.data(),
)
def test_whole_text_search_finds_exactly_the_per_line_matches(
    lines: list[str], pieces: list[str], case_insensitive: bool, data: st.DataObject
) -> None:
    pattern = "".join(pieces)
    try:
        compiled = regex.compile(pattern, regex.VERSION0 | (regex.I if case_insensitive else 0))
    except regex.error:
        return
    start = data.draw(st.integers(1, max(1, len(lines))))
    end = data.draw(st.integers(start, max(start, len(lines))))
    expected = [
        number
        for number in range(start, min(end, len(lines)) + 1)
        if compiled.search(lines[number - 1]) is not None
    ]
    result = grep_lines(
        lines,
        pattern,
        case_insensitive=case_insensitive,
        max_matches=1000,
        start_line=start,
        end_line=end,
    )
    assert [m.line_number for m in result.matches] == expected


def test_the_fast_path_is_used_only_where_it_is_exact() -> None:
    assert whole_text_search_is_exact(r"^\s*METHODS\s+\w+")
    assert whole_text_search_is_exact(r"(?:a|b)\bc$")
    for pattern in (
        r"\Aa",
        r"a\Z",
        r"a\z",
        r"\Ga",
        r"(?!a)",
        r"(?<=a)b",
        r"(?>a)",
        r"a*+",
        r"(?i)a",
    ):
        assert not whole_text_search_is_exact(pattern), pattern
