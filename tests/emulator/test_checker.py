"""The block checker (adt.emulator.checker)."""

from __future__ import annotations

import pytest

from adt.emulator.checker import check, statements


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("CLASS lcl DEFINITION.", "ENDCLASS."),
        ("CLASS lcl IMPLEMENTATION.", "ENDCLASS."),
        ("INTERFACE lif.", "ENDINTERFACE."),
        ("METHOD m.", "ENDMETHOD."),
        ("FORM f.", "ENDFORM."),
        ("FUNCTION z_f.", "ENDFUNCTION."),
        ("MODULE m OUTPUT.", "ENDMODULE."),
        ("IF a = b.", "ENDIF."),
        ("CASE a.", "ENDCASE."),
        ("DO 3 TIMES.", "ENDDO."),
        ("WHILE a < 3.", "ENDWHILE."),
        ("LOOP AT t INTO DATA(l).", "ENDLOOP."),
        ("TRY.", "ENDTRY."),
    ],
)
def test_each_block_pair(start: str, end: str) -> None:
    assert check(f"{start}\n  x = 1.\n{end}") == []
    [unclosed] = check(f"{start}\n  x = 1.")
    assert unclosed.line == 1
    assert "is not closed" in unclosed.message
    [stray] = check(f"x = 1.\n{end}")
    assert (stray.line, stray.column) == (2, 0)
    assert "without a preceding" in stray.message


def test_nesting_error_reports_the_inner_block() -> None:
    findings = check("IF a = 1.\n  LOOP AT t INTO l.\n  ENDIF.\nENDLOOP.")
    assert findings[0].line == 3
    assert '"LOOP" block from line 2' in findings[0].message


def test_comments_and_literals_are_not_code() -> None:
    text = "\n".join(
        [
            "* IF this is a comment line.",
            "WRITE 'ENDIF. \"not a comment'. \" ENDLOOP. in a comment",
            "WRITE `ENDDO.`.",
            "WRITE |ENDCASE. { lv WIDTH = 2 PAD = '0' }. \\| ENDTRY.|.",
            "WRITE 'it''s'.",
        ]
    )
    assert check(text) == []


def test_statement_positions_and_chains() -> None:
    found = statements("DATA: a TYPE i,\n      b TYPE i.\n  x = 1. y = 2.")
    assert [(s.words[0], s.line, s.column) for s in found] == [
        ("DATA", 1, 0),
        ("X", 3, 2),
        ("Y", 3, 9),
    ]


def test_missing_period_and_open_literal() -> None:
    [missing] = check("REPORT x.\nWRITE 'a'")
    assert "period missing" in missing.message
    assert missing.line == 2
    findings = check("WRITE 'abc.\nWRITE 'x'.")
    assert any("more than one line" in f.message for f in findings)


def test_deferred_and_local_friends_open_no_block() -> None:
    assert check("CLASS lcl DEFINITION DEFERRED.\nINTERFACE lif DEFERRED.") == []
    assert check("CLASS zcl DEFINITION LOCAL FRIENDS ltcl.") == []


def test_macro_bodies_are_skipped() -> None:
    assert check("DEFINE m.\n  IF &1 = 1.\nEND-OF-DEFINITION.") == []
    assert "not closed" in check("DEFINE m.\n  x = 1.")[0].message
