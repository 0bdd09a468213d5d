"""Range reads and line patches (pure)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adt.source.errors import InvalidArgument, LineOutOfRange, NoUniqueMatch
from adt.source.lines import Patch, apply_patches, content_lines, read_range, replace_unique

TEXT = "l1\nl2\nl3\nl4\nl5"


@pytest.mark.parametrize(
    ("start", "end", "content", "returned"),
    [
        (None, None, TEXT, (1, 5)),
        (1, 1, "l1", (1, 1)),
        (5, 5, "l5", (5, 5)),
        (2, 4, "l2\nl3\nl4", (2, 4)),
        (4, None, "l4\nl5", (4, 5)),
    ],
)
def test_ranges(
    start: int | None, end: int | None, content: str, returned: tuple[int, int]
) -> None:
    result = read_range(TEXT, start, end)
    assert result.content == content
    assert (result.start_line, result.end_line, result.line_count) == (*returned, 5)
    assert result.note is None


def test_end_past_the_last_line_is_clamped_with_a_note() -> None:
    result = read_range(TEXT, 4, 99)
    assert (result.content, result.end_line) == ("l4\nl5", 5)
    assert result.note is not None and "99" in result.note and "4-5" in result.note


def test_start_past_the_last_line_is_an_error() -> None:
    with pytest.raises(LineOutOfRange) as caught:
        read_range(TEXT, 6, 10)
    assert caught.value.code == 4004 and caught.value.details["lineCount"] == 5
    with pytest.raises(LineOutOfRange):
        read_range(TEXT, 0, 1)
    with pytest.raises(LineOutOfRange):
        read_range(TEXT, 3, 2)


def test_empty_one_line_unicode_and_trailing_newline() -> None:
    assert read_range("", None, None).line_count == 0
    with pytest.raises(LineOutOfRange):
        read_range("", 2, 3)
    assert read_range("only", 1, 1).content == "only"
    unicode = "ÄÖÜ\n😀 emoji\n漢字"
    assert read_range(unicode, 2, 3).content == "😀 emoji\n漢字"
    trailing = read_range("a\nb\n", None, None)
    assert (trailing.line_count, trailing.content) == (3, "a\nb\n")
    form_feed = read_range("a\x0cb\nc\u2028d", None, None)
    assert form_feed.line_count == 2, "form feed and U+2028 are not line breaks"


def test_content_lines() -> None:
    assert content_lines("") == [""]  # one empty line, as the V2 design splits it
    assert content_lines("a") == content_lines("a\n") == ["a"]
    assert content_lines("a\r\nb\r\n") == ["a", "b"]
    assert content_lines("\n") == [""]
    assert content_lines("a\n\n") == ["a", ""]


def _apply(*patches: tuple[int, int, str | None]) -> str:
    return apply_patches(TEXT, [Patch.from_content(*p) for p in patches]).text


def test_replace_insert_delete_append() -> None:
    assert _apply((2, 3, "X")) == "l1\nX\nl4\nl5"
    assert _apply((1, 0, "top")) == "top\n" + TEXT
    assert _apply((3, 2, "mid")) == "l1\nl2\nmid\nl3\nl4\nl5"
    assert _apply((6, 5, "end")) == TEXT + "\nend"
    assert _apply((2, 4, None)) == "l1\nl5"  # an explicit deletion
    assert _apply((1, 5, None)) == ""
    assert _apply((2, 4, "")) == "l1\n\nl5"  # "" is one empty line (the V2 design)
    assert _apply((1, 5, "")) == ""  # a source of one empty line is the empty source


def test_several_hunks_apply_against_the_same_base() -> None:
    result = apply_patches(
        TEXT,
        [
            Patch.from_content(5, 5, "E"),
            Patch.from_content(1, 1, "A\nA2"),
            Patch.from_content(3, 2, "i"),
        ],
    )
    assert result.text == "A\nA2\nl2\ni\nl3\nl4\nE"
    assert [a.old_range for a in result.applied] == [(1, 1), (3, 2), (5, 5)]
    assert [a.new_range for a in result.applied] == [(1, 2), (4, 4), (7, 7)]


@pytest.mark.parametrize(
    "patches",
    [
        [(2, 3, "x"), (3, 4, "y")],
        [(2, 2, "x"), (2, 2, "y")],
        [(3, 2, "x"), (3, 2, "y")],
        [(2, 4, "x"), (3, 2, "y")],
    ],
)
def test_overlapping_patches_are_refused(patches: list[tuple[int, int, str]]) -> None:
    with pytest.raises(InvalidArgument, match="overlap"):
        _apply(*patches)


def test_touching_patches_are_fine() -> None:
    assert _apply((3, 2, "i"), (3, 3, "R")) == "l1\nl2\ni\nR\nl4\nl5"
    assert _apply((2, 2, "R"), (3, 2, "i")) == "l1\nR\ni\nl3\nl4\nl5"


@pytest.mark.parametrize("patch", [(0, 1, "x"), (7, 6, "x"), (2, 6, "x"), (3, 1, "x")])
def test_out_of_range_patches(patch: tuple[int, int, str]) -> None:
    with pytest.raises(LineOutOfRange):
        _apply(patch)


def test_no_patch_is_an_error() -> None:
    with pytest.raises(InvalidArgument):
        apply_patches(TEXT, [])


line = st.text(alphabet=st.characters(blacklist_characters="\r\n"), max_size=5)


@given(st.lists(line, max_size=12), st.data())
def test_patches_equal_a_sequential_splice(base: list[str], data: st.DataObject) -> None:
    """Applying non-overlapping patches at once equals splicing them bottom-up one by one."""
    count = len(base)
    cuts = sorted(data.draw(st.lists(st.integers(0, count), max_size=6)))
    patches: list[Patch] = []
    previous_end = 0
    for cut in cuts:
        if cut < previous_end:
            continue
        start = cut + 1
        end = data.draw(st.integers(start - 1, count)) if start <= count else start - 1
        if patches and patches[-1].is_insertion and start == patches[-1].start_line:
            continue
        new = data.draw(st.lists(line, max_size=3))
        if not new and end == start - 1:
            continue
        patch = Patch(start, end, tuple(new))
        patches.append(patch)
        previous_end = end + 1 if end >= start else start
    if not patches:
        return
    text = "\n".join(base)
    if count and base == [""]:
        return
    result = apply_patches(text, patches)
    spliced = list(base)
    for patch in reversed(patches):
        spliced[patch.start_line - 1 : patch.end_line] = list(patch.lines)
    assert result.text == "\n".join(spliced)
    assert result.line_count == len(spliced)


MIXED = "l1\r\nl2\rl3\nl4\r\n\r\nl6"


def test_any_line_ending_counts_as_one_break() -> None:
    assert read_range(MIXED, 2, 3).content == "l2\nl3"
    assert read_range(MIXED, None, None).line_count == 6
    assert read_range(MIXED, 5, 6).content == "\nl6"
    patched = apply_patches(MIXED, [Patch.from_content(2, 3, "two\r\nthree")])
    assert patched.text == "l1\ntwo\nthree\nl4\n\nl6" and patched.line_count == 6


def test_unique_replacement_names_its_lines() -> None:
    text, applied = replace_unique(MIXED, "l3\r\nl4", "three")
    assert text == "l1\nl2\nthree\n\nl6"
    assert (applied.old_range, applied.new_range) == ((3, 4), (3, 3))
    with pytest.raises(NoUniqueMatch) as caught:
        replace_unique("a\nb\na", "a", "c")
    assert caught.value.details == {"occurrences": 2, "lines": [1, 3]}
    with pytest.raises(NoUniqueMatch) as caught:
        replace_unique(TEXT, "missing", "c")
    assert caught.value.details == {"occurrences": 0}
    with pytest.raises(InvalidArgument, match="identical"):
        replace_unique(TEXT, "l1", "l1")
