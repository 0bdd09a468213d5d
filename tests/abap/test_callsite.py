"""The call around a cursor, for signature help: the innermost open call, the parameters
named at its own level, over lines, past literals and nested calls."""

from __future__ import annotations

from adt.abap.callsite import call_at

LINE = "  lv_x = lo_calc->double( iv_value = lv_x  iv_b = foo( 1 ) "


def test_the_innermost_open_call_and_its_named_parameters() -> None:
    site = call_at(LINE, 1, len(LINE))
    assert site is not None and (site.name, site.column) == ("DOUBLE", 18)
    assert site.named == ("IV_VALUE", "IV_B") and site.current == "IV_B"
    inner = call_at(LINE, 1, LINE.index("1 )"))
    assert inner is not None and (inner.name, inner.named) == ("FOO", ())


def test_a_call_over_lines_with_sections_and_literals() -> None:
    text = "  x = lo->m(\n    EXPORTING a = ')(' \n      b = "
    site = call_at(text, 3, 10)
    assert site is not None and (site.name, site.line, site.named) == ("M", 1, ("A", "B"))


def test_outside_a_call_and_after_a_closed_one() -> None:
    assert call_at("  WRITE x.", 1, 5) is None
    closed = "  run( ). WRITE x."
    assert call_at(closed, 1, len(closed) - 1) is None
    grouping = "  x = ( a + b "
    assert call_at(grouping, 1, len(grouping)) is None
