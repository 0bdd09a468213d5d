"""Chunked statements give what a scan of the whole text gives, after any edit, and scan
again only the chunks an edit touched."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from adt.abap import folding, outline
from adt.abap.chunked import MAX_LINES, MIN_LINES, ChunkedStatements, comment_runs, cut_points
from adt.abap.scanner import Scanner, statements

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
    "    lv_r = call( iv_a = 'it''s. \" not a comment'",
    '                 iv_b = `b.` ) " a comment.',
    "                 iv_c = c ).",
    "* a star comment.",
    "    IF",
    "      ENDIF = 1.",
    "    call(",
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


def _read(
    scan: ChunkedStatements, lines: list[str], window: tuple[int, int] | None = None
) -> tuple[list[tuple[object, ...]], list]:
    got = scan.read(lines, window)
    found = [
        (s.words, s.line, s.column, s.terminated, s.end_line, s.end_column) for s in got.statements
    ]
    return found, got.comments


def _edit(rnd: random.Random, lines: list[str]) -> tuple[int, int]:
    """One random edit of ``lines``: ``(top, bottom)``, the lines above and below it that
    it left as they were."""
    at = rnd.randrange(len(lines) + 1)
    count, kind = len(lines), rnd.random()
    if kind < 0.4 and at < len(lines):
        lines[at] = lines[at][: rnd.randrange(len(lines[at]) + 1)] + rnd.choice(".x'|\" ")
        return at, count - at - 1
    if kind < 0.7 or len(lines) == 1:
        lines[at:at] = [_line(rnd) for _ in range(rnd.randrange(1, 4))]
        return at, count - at
    at = min(at, count - 1)
    removed = min(rnd.randrange(1, 4), count - 1)
    del lines[at : at + removed]
    return min(at, count - removed), max(0, count - at - removed)


@settings(max_examples=45, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 400))
def test_every_read_after_edits_equals_a_whole_scan(seed: int, size: int) -> None:
    rnd = random.Random(seed)
    lines = [_line(rnd) for _ in range(size)]
    # a long text of one chunk tests less: such a draw is left out (the cut points follow
    # the lines' hashes, which change with every process: 3 draws in 36,000 of 300–400
    # lines had none, and failed the run where this was an assertion)
    assume(size < 300 or len(cut_points(lines)) > 1)
    whole, windowed = ChunkedStatements(HEADS), ChunkedStatements(HEADS)
    assert _read(whole, lines) == _expected(lines)
    windowed.read(lines)
    for _ in range(8):
        top, bottom = len(lines), len(lines)
        for _ in range(rnd.randrange(1, 4)):  # edits between two reads
            edit_top, edit_bottom = _edit(rnd, lines)
            top, bottom = min(top, edit_top), min(bottom, edit_bottom)
        expected = _expected(lines)
        assert _read(whole, lines) == expected
        assert _read(windowed, lines, (top, bottom)) == expected
    assert whole.read(lines).key == windowed.read(lines, (len(lines), len(lines))).key


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


def test_a_read_told_where_the_text_changed_walks_only_the_chunks_there() -> None:
    lines = [f"  lv_{i} = {i}." for i in range(10_000)]
    scan = ChunkedStatements(HEADS)
    scan.read(lines)
    assert scan.walked_lines == len(lines)
    lines[5_000:5_001] = ["  METHOD m.", "  ENDMETHOD."]  # Enter: every line below moves
    found = scan.read(lines, (5_000, len(lines) - 5_002))
    assert 0 < scan.walked_lines <= 3 * MAX_LINES
    assert [(s.words[0], s.line) for s in found.statements] == [
        ("METHOD", 5_001),
        ("ENDMETHOD", 5_002),
    ]


def test_cut_points_respect_the_bounds_and_follow_the_content() -> None:
    lines = [f"x{i}." for i in range(5_000)] + ["same"] * 3_000
    cuts = cut_points(lines)
    sizes = [b - a for a, b in zip([0, *cuts], cuts, strict=False)]
    assert cuts[-1] == len(lines) and all(0 < n <= MAX_LINES for n in sizes)
    assert all(n >= MIN_LINES for n in sizes[:-1])
    assert len(cut_points(["only"])) == 1 and cut_points([""]) == [1]
    shifted = cut_points(["new line", *lines])
    assert {c + 1 for c in cuts[5:20]} <= set(shifted)  # the same cuts past the edit


def test_the_key_follows_what_readers_see_where_the_cut_points_stay() -> None:
    lines = ["CLASS c IMPLEMENTATION.", "  METHOD m.", *['    x = 1. " c'] * 200]
    lines += ["  ENDMETHOD.", "ENDCLASS."]
    scan = ChunkedStatements(HEADS)
    first = scan.read(lines).key
    cuts = cut_points(lines)
    # an edit readers cannot see, on a line that is no cut point in this process (which
    # lines are depends on the process's string hashes)
    lines[100] = next(f'    x = {n}. " c' for n in range(10, 200) if hash(f'    x = {n}. " c') & 63)
    assert cut_points(lines) == cuts
    assert scan.read(lines).key == first
    lines[1] = '  METHOD m. " é'  # the text of a line a kept statement starts on
    second = scan.read(lines).key
    assert second != first
    lines.insert(50, "    y = 2.")  # the kept statements below move
    assert scan.read(lines).key != second


def test_an_edit_that_makes_a_cut_point_changes_chunks_not_statements() -> None:
    filler = next(f'    x = {n}. " c' for n in range(10, 200) if hash(f'    x = {n}. " c') & 63)
    lines = ["CLASS c IMPLEMENTATION.", "  METHOD m.", *[filler] * 200]
    lines += ["  ENDMETHOD.", "ENDCLASS."]
    scan = ChunkedStatements(HEADS)
    before = _read(scan, lines)
    cuts = cut_points(lines)
    lines[100] = next(
        f'    x = {n}. " c' for n in range(10, 5000) if not hash(f'    x = {n}. " c') & 63
    )
    assert cut_points(lines) != cuts
    assert _read(scan, lines) == before == _expected(lines)


def test_lines_removed_at_the_end_leave_the_chunks_a_whole_read_gives() -> None:
    filler = next(f'    x = {n}. " c' for n in range(10, 200) if hash(f'    x = {n}. " c') & 63)
    cut = next(f"    y = {n}." for n in range(10, 5000) if not hash(f"    y = {n}.") & 63)
    lines = ["  METHOD m.", *[filler] * 30, cut, "  ENDMETHOD.", *[filler] * 5]
    scan = ChunkedStatements(HEADS)
    scan.read(lines)
    assert cut_points(lines)[0] == 32  # the cut line ends the first chunk
    del lines[32:]  # the text now ends at that cut
    windowed = scan.read(lines, (len(lines), 0))
    whole = ChunkedStatements(HEADS).read(lines)
    assert windowed.key == whole.key  # no empty chunk after the end (it failed with one)
    assert [s.words[0] for s in windowed.statements] == ["METHOD"]


@pytest.fixture
def scanned(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The lines the statement scanner is given, in order."""
    lines: list[str] = []
    real = Scanner.scan_line
    monkeypatch.setattr(
        Scanner, "scan_line", lambda self, n, line: lines.append(line) or real(self, n, line)
    )
    return lines


def test_lines_of_one_statement_no_one_keeps_are_passed_over(scanned: list[str]) -> None:
    body = ['    rv_y = iv_x * 2. " a step', "", "    DATA: a TYPE i,", "          b TYPE i."]
    lines = ["CLASS c IMPLEMENTATION.", "  METHOD m.", *body * 50, "  ENDMETHOD.", "ENDCLASS."]
    found = ChunkedStatements(HEADS).read(lines)
    assert [(s.words[0], s.line) for s in found.statements] == [
        ("CLASS", 1),
        ("METHOD", 2),
        ("ENDMETHOD", 203),
        ("ENDCLASS", 204),
    ]
    # the heads are scanned; the statements no one keeps (over one line or two) and the
    # blank lines are not
    assert scanned == [lines[0], lines[1], lines[-2], lines[-1]]


def test_a_statement_over_lines_is_scanned_when_a_line_of_it_breaks_the_pattern(
    scanned: list[str],
) -> None:
    passed = ["    lv = call( a = 'x' \" c", "* star", "", "  b = 'y.' \" d.", "  c = 2 )."]
    broken = ["    lv = call(", "      b = |{ c }| )."]  # a template: the scanner reads it
    heads = ["    IF", "      a = b.", "    ENDIF."]  # a head alone on its line
    lines = ["CLASS c IMPLEMENTATION.", "  METHOD m.", *passed, *broken, *heads]
    lines += ["  ENDMETHOD.", "ENDCLASS."]
    found = ChunkedStatements(HEADS).read(lines)
    assert [(s.words[0], s.line) for s in found.statements] == [
        ("CLASS", 1),
        ("METHOD", 2),
        ("IF", 10),
        ("ENDIF", 12),
        ("ENDMETHOD", 13),
        ("ENDCLASS", 14),
    ]
    assert scanned == [*lines[:2], *broken, *heads, *lines[-2:]]
