"""Line differences that stay linear: exact on every input, and ``difflib`` (quadratic) only
ever sees small gaps, whatever the size of the document."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.difflib_probe import largest_difflib_problem

from adt.source.linediff import SMALL, differences, matches
from lsp_server.buffer import TextBuffer, apply_edits, line_edits


def _applied(old: list[str], new: list[str], blocks: list[tuple[int, int, int, int]]) -> list[str]:
    result: list[str] = []
    at = 0
    for i1, i2, j1, j2 in blocks:
        result += old[at:i1] + new[j1:j2]
        at = i2
    return result + old[at:]


@st.composite
def edited(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    """A text and an edited copy: lines from a small alphabet (many repeats) or a large one
    (mostly unique, as source code is), changed in a few places."""
    alphabet = draw(st.sampled_from([["a", "b", ""], [f"line {k}" for k in range(300)]]))
    old = draw(st.lists(st.sampled_from(alphabet), max_size=80))
    new = list(old)
    for _ in range(draw(st.integers(0, 8))):
        at = draw(st.integers(0, len(new)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "paste", "cut"]))
        line = draw(st.sampled_from(alphabet))
        if kind == "insert" or not new:
            new.insert(at, line)
        elif kind == "paste":
            new[at:at] = draw(st.lists(st.sampled_from(alphabet), max_size=6))
        elif kind == "cut":
            del new[at : at + draw(st.integers(1, 6))]
        else:
            at = min(at, len(new) - 1)
            new[at : at + 1] = [] if kind == "delete" else [line]
    return old, new


@settings(max_examples=400, deadline=None)
@given(edited(), st.sampled_from([0, 4, SMALL]))
def test_the_blocks_turn_old_into_new(texts: tuple[list[str], list[str]], small: int) -> None:
    """Always exact, also when every gap takes the large-document paths (``small`` 0)."""
    old, new = texts
    blocks = differences(old, new, small=small)
    assert _applied(old, new, blocks) == new
    for i1, i2, j1, j2 in blocks:
        assert i1 < i2 or j1 < j2, "no empty block"
    for before, after in itertools.pairwise(blocks):
        assert before[1] < after[0] and before[3] < after[2], "ordered, never adjacent"
    for i, j, size in matches(old, new):
        assert old[i : i + size] == new[j : j + size]


@settings(max_examples=200, deadline=None)
@given(edited())
def test_line_edits_of_large_documents_turn_old_into_new(
    texts: tuple[list[str], list[str]],
) -> None:
    old, new = texts
    old, new = old or [""], new or [""]
    edits = line_edits(old, new)
    assert apply_edits(old, edits) == "\n".join(new)
    for before, after in itertools.pairwise(edits):
        assert before.end < after.start, "edits never meet at a position"


def _source(lines: int) -> list[str]:
    return [f'    DATA(lv_{i}) = {i}. " line {i}' for i in range(lines)]


@pytest.mark.parametrize("small", [0, SMALL])
def test_only_the_lines_that_differ_are_blocks(small: int) -> None:
    """Scattered changes of a large text come back one by one: a line inserted near the top
    and one removed near the bottom are two blocks, not a replacement of all between."""
    old = _source(5_000)
    new = list(old)
    new[4_000:4_001] = []
    new.insert(10, "inserted")
    for at in (100, 2_000, 3_000):
        new[at] += "  "
    assert differences(old, new, small=small) == [
        (10, 10, 10, 11),
        (99, 100, 100, 101),
        (1_999, 2_000, 2_000, 2_001),
        (2_999, 3_000, 3_000, 3_001),
        (4_000, 4_001, 4_001, 4_001),
    ]


def test_a_moved_line_keeps_the_rest_in_place() -> None:
    old = _source(3_000)
    new = list(old)
    new.insert(2_500, new.pop(200))
    blocks = differences(old, new, small=0)
    assert _applied(old, new, blocks) == new
    assert sum(i2 - i1 + j2 - j1 for i1, i2, j1, j2 in blocks) == 2


def _scattered(lines: list[str]) -> list[str]:
    """Trailing blanks on ten spread lines, one line more near the top and one fewer below."""
    new = [
        line + "  " if index % (len(lines) // 10) == 5 else line for index, line in enumerate(lines)
    ]
    new.insert(3, "  WRITE 'new'.")
    del new[-7]
    return new


def test_no_path_hands_the_whole_document_to_difflib() -> None:
    """The save's editor edits, a reload's hunks, a merge's hunks, range formatting and
    where-used's line mapping, on 20,000 lines with scattered differences: ``difflib``
    only ever sees a gap (before, each saw 20,000 × 20,000 lines)."""
    from lsp_server.features.formatting import only_lines
    from lsp_server.merge import diff_hunks

    old = _source(20_000)
    new = _scattered(old)
    with largest_difflib_problem() as sizes:
        edits = line_edits(old, new)
        hunks = diff_hunks(old, new)
        ranged = only_lines(old, new, 0, 100)
        buffer = TextBuffer("\n".join(old))
        buffer.apply_change(None, None, "\n".join(new))  # a whole-document change
        reloaded = buffer.hunks()
        placed = [buffer.line_of_base(line) for line in range(0, 20_000, 50)]
    assert max(sizes) <= SMALL
    assert apply_edits(old, edits) == "\n".join(new)
    assert len(edits) == len(hunks) == len(reloaded) == 12
    assert ranged == new[:102] + old[101:], "the changes in lines 0..100, none below"
    assert placed[0] == 0 and placed[-1] == 19_951


def test_past_the_work_bound_the_rest_is_one_exact_replacement(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bound that keeps a comparison linear whatever the text (WORK lines looked at per
    line): what is left when it is reached is replaced whole, never dropped."""
    from adt.source import linediff

    old = _source(3_000)
    new = _scattered(old)
    fine = differences(old, new, small=0)
    monkeypatch.setattr(linediff, "WORK", 0)  # no room to look into the texts at all
    coarse = differences(old, new, small=0)
    assert _applied(old, new, coarse) == new
    assert sum(i2 - i1 for i1, i2, _, _ in coarse) > 100 * sum(i2 - i1 for i1, i2, _, _ in fine)
