"""Extract method's analysis (adt.abap.extraction), without I/O: which statements can become
a method, the parameters inferred from what the selection reads and writes, and the text
the three replacements make."""

from __future__ import annotations

import pytest

from adt.abap.extraction import ExtractionRefused, analyse, replacements
from adt.abap.index import ProgramIndex, Unit

SOURCE = """CLASS lcl_calc DEFINITION.
  PUBLIC SECTION.
    METHODS run IMPORTING iv_a TYPE i EXPORTING ev_text TYPE string.
    METHODS other
      IMPORTING iv_in TYPE i EXPORTING ev_out TYPE string CHANGING ct_rows TYPE string_table.
ENDCLASS.
CLASS lcl_calc IMPLEMENTATION.
  METHOD run.
    DATA lv_sum TYPE i.
    DATA lt_rows TYPE string_table.
    DATA lv_row TYPE string.
    lv_sum = iv_a.
    lv_sum = lv_sum + 1.
    APPEND `x` TO lt_rows.
    LOOP AT lt_rows INTO lv_row.
      CLEAR ev_text.
    ENDLOOP.
    me->other( EXPORTING iv_in = lv_sum IMPORTING ev_out = lv_row CHANGING ct_rows = lt_rows ).
    ev_text = lv_row.
  ENDMETHOD.
  METHOD other.
  ENDMETHOD.
ENDCLASS."""


def _index(text: str = SOURCE) -> ProgramIndex:
    return ProgramIndex("ZPROG", [Unit("u", text)])


def _line(needle: str, text: str = SOURCE) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


def _directions(first: str, last: str) -> dict[str, str]:
    found = analyse(_index(), "u", _line(first), _line(last))
    return {p.name: p.direction for p in found.parameters}


@pytest.mark.parametrize(
    ("first", "last", "expected"),
    [
        # lv_sum = lv_sum + 1: read in the same statement it is written → CHANGING
        ("lv_sum = lv_sum + 1.", "lv_sum = lv_sum + 1.", {"lv_sum": "CHANGING"}),
        # written first, read after the selection → EXPORTING; iv_a only read → IMPORTING
        ("lv_sum = iv_a.", "lv_sum = iv_a.", {"lv_sum": "EXPORTING", "iv_a": "IMPORTING"}),
        # APPEND … TO writes the table; INTO writes the row; CLEAR writes the parameter
        (
            "APPEND `x` TO lt_rows.",
            "ENDLOOP.",
            {"lt_rows": "CHANGING", "lv_row": "EXPORTING", "ev_text": "EXPORTING"},
        ),
        # a call's IMPORTING actual is written, its CHANGING actual read and written
        (
            "me->other(",
            "me->other(",
            {"lv_sum": "IMPORTING", "lv_row": "EXPORTING", "lt_rows": "CHANGING"},
        ),
    ],
)
def test_parameters_follow_reads_and_writes(
    first: str, last: str, expected: dict[str, str]
) -> None:
    assert _directions(first, last) == expected


def test_the_replacements_make_a_method_and_its_call() -> None:
    found = analyse(_index(), "u", _line("lv_sum = lv_sum + 1."), _line("lv_sum = lv_sum + 1."))
    text = SOURCE
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for r in sorted(
        replacements(found, "increment"), key=lambda r: (r.line, r.start), reverse=True
    ):
        start, end = offsets[r.line - 1] + r.start, offsets[r.end_line - 1] + r.end
        assert text[start:end] == r.old
        text = text[:start] + r.new + text[end:]
    declared = "  PRIVATE SECTION.\n    METHODS increment\n      CHANGING\n        lv_sum TYPE i."
    assert f"{declared}\nENDCLASS." in text
    assert "    increment( CHANGING lv_sum = lv_sum )." not in text
    assert "    increment(\n      CHANGING lv_sum = lv_sum )." in text
    assert "  METHOD increment.\n    lv_sum = lv_sum + 1.\n  ENDMETHOD." in text
    again = analyse(_index(text), "u", _line("APPEND", text), _line("APPEND", text))
    assert [p.name for p in again.parameters] == ["lt_rows"], "the result is indexable ABAP"


@pytest.mark.parametrize(
    ("first", "last", "said"),
    [
        ("LOOP AT lt_rows", "CLEAR ev_text.", "opens a block it does not close"),
        ("CLEAR ev_text.", "ENDLOOP.", "splits a block"),
        ("DATA lv_sum TYPE i.", "lv_sum = iv_a.", "declared in the selection and used after"),
        ("METHOD run.", "DATA lv_sum TYPE i.", "inside one method"),
    ],
)
def test_selections_that_cannot_be_a_method(first: str, last: str, said: str) -> None:
    with pytest.raises(ExtractionRefused, match=said):
        analyse(_index(), "u", _line(first), _line(last))


def test_a_taken_or_invalid_name_is_refused() -> None:
    found = analyse(_index(), "u", _line("lv_sum = iv_a."), _line("lv_sum = iv_a."))
    with pytest.raises(ExtractionRefused, match="already has a component other"):
        replacements(found, "other")
    with pytest.raises(ExtractionRefused, match="not a valid method name"):
        replacements(found, "two words")
