"""Chunked statements give what a scan of the whole text gives, after any edit, and scan
again only the chunks an edit touched."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from adt.abap import folding, outline
from adt.abap.chunked import MAX_LINES, MIN_LINES, ChunkedStatements, comment_runs, cut_points
from adt.abap.scanner import statements

HEADS = outline.HEADS | folding.HEADS
_LINES = [
    "CLASS zcl_x DEFINITION PUBLIC.",
    "  PUBLIC SECTION.",
    "    METHODS m IMPORTING iv TYPE i.",
    "ENDCLASS.",
    "CLASS zcl_x IMPLEMENTATION.",
    "  METHOD m.",
    '    IF iv > 1. " a comment.',
    "      WRITE 'ENDIF.'.",
    "    ENDIF.",
    "  ENDMETHOD.",
    "* a comment line",
    '  " another',
    "    DATA(x) = |a { iv } b|.",
    "    LOOP AT t INTO d",
    "      WHERE a = 1.",
    "    ENDLOOP",
    "    DO 3 TIMES. ENDDO.",
    "",
    "FORM f.",
    "ENDFORM.",
    "<<<<<<< yours (unsaved)",
    "=======",
    ">>>>>>> server",
    "    x = |open",
    "    y = { z",
]


def _line(rnd: random.Random) -> str:
    """A line of the set, or one of many distinct ones (so that chunks have cut points)."""
    if rnd.random() < 0.5:
        return rnd.choice(_LINES)
    return f"    lv_{rnd.randrange(5000)} = {rnd.randrange(9)}."


def _expected(lines: list[str]) -> tuple[list[tuple[object, ...]], list[tuple[int, int]]]:
    found = [
        (s.words, s.line, s.column, s.terminated, s.end_line, s.end_column)
        for s in statements("\n".join(lines))
        if s.words and s.words[0] in HEADS
    ]
    return found, list(comment_runs(lines))


def _read(scan: ChunkedStatements, lines: list[str]) -> tuple[list[tuple[object, ...]], list]:
    got = scan.read(lines)
    found = [
        (s.words, s.line, s.column, s.terminated, s.end_line, s.end_column) for s in got.statements
    ]
    return found, got.comments


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 400))
def test_every_read_after_edits_equals_a_whole_scan(seed: int, size: int) -> None:
    rnd = random.Random(seed)
    lines = [_line(rnd) for _ in range(size)]
    scan = ChunkedStatements(HEADS)
    assert _read(scan, lines) == _expected(lines)
    assert size < 300 or len(cut_points(lines)) > 2
    for _ in range(8):
        at = rnd.randrange(len(lines) + 1)
        kind = rnd.random()
        if kind < 0.4 and at < len(lines):
            lines[at] = lines[at][: rnd.randrange(len(lines[at]) + 1)] + rnd.choice(".x'|\" ")
        elif kind < 0.7:
            lines[at:at] = [_line(rnd) for _ in range(rnd.randrange(1, 4))]
        elif len(lines) > 1:
            del lines[at : at + rnd.randrange(1, 4)]
        assert _read(scan, lines) == _expected(lines)


def test_an_edit_scans_the_chunk_it_changed_not_the_document() -> None:
    lines = [f'  lv_{i} = {i}. " step {i}' for i in range(100_000)]
    scan = ChunkedStatements(HEADS)
    scan.read(lines)
    assert scan.scanned_lines == len(lines)
    lines[50_000] = "  METHOD m."
    lines.insert(70_000, "  ENDMETHOD.")
    found = scan.read(lines)
    assert [s.words[0] for s in found.statements] == ["METHOD", "ENDMETHOD"]
    assert 0 < scan.scanned_lines <= 4 * MAX_LINES
    assert scan.scanned_lines < 1_000
    scan.read(lines)
    assert scan.scanned_lines == 0


def test_cut_points_respect_the_bounds_and_follow_the_content() -> None:
    lines = [f"x{i}." for i in range(5_000)] + ["same"] * 3_000
    cuts = cut_points(lines)
    sizes = [b - a for a, b in zip([0, *cuts], cuts, strict=False)]
    assert cuts[-1] == len(lines) and all(0 < n <= MAX_LINES for n in sizes)
    assert all(n >= MIN_LINES for n in sizes[:-1])
    assert len(cut_points(["only"])) == 1 and cut_points([""]) == [1]
    shifted = cut_points(["new line", *lines])
    assert {c + 1 for c in cuts[5:20]} <= set(shifted)  # the same cuts past the edit


def test_the_key_changes_exactly_when_what_readers_see_changes() -> None:
    lines = ["CLASS c IMPLEMENTATION.", "  METHOD m.", *['    x = 1. " c'] * 200]
    lines += ["  ENDMETHOD.", "ENDCLASS."]
    scan = ChunkedStatements(HEADS)
    first = scan.read(lines).key
    lines[100] = '    x = 12. " c'  # not a statement readers keep
    assert scan.read(lines).key == first
    lines[1] = '  METHOD m. " é'  # the text of a line a kept statement starts on
    second = scan.read(lines).key
    assert second != first
    lines.insert(50, "    y = 2.")  # the kept statements below move
    assert scan.read(lines).key != second
