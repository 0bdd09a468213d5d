"""Finding named parts of a source (the symbol-level reads and writes of agents)."""

from __future__ import annotations

import pytest

from adt.abap.locate import AmbiguousSymbolError, SymbolNotFoundError, find_symbol, symbols

CLASS = """CLASS zcl_x DEFINITION PUBLIC CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES zif_y.
    METHODS run.
  PRIVATE SECTION.
    DATA count TYPE i.
ENDCLASS.

CLASS zcl_x IMPLEMENTATION.
  METHOD run.
    count = count + 1.
  ENDMETHOD.

  METHOD zif_y~greet.
    " METHOD fake. in a comment
    result = 'hi'.
  ENDMETHOD.
ENDCLASS.
"""

LOCALS = """CLASS lcl_a IMPLEMENTATION.
  METHOD run. ENDMETHOD.
ENDCLASS.
CLASS lcl_b IMPLEMENTATION.
  METHOD run.
  ENDMETHOD. METHOD other.
  ENDMETHOD.
ENDCLASS.
FORM write_all USING p TYPE i.
  WRITE p.
ENDFORM.
"""


def test_every_part_of_a_class_with_its_lines() -> None:
    found = {(s.name, s.kind): (s.start_line, s.end_line) for s in symbols(CLASS)}
    assert found == {
        ("zcl_x definition", "class definition"): (1, 7),
        ("zcl_x public section", "section"): (2, 4),
        ("zcl_x private section", "section"): (5, 6),
        ("zcl_x implementation", "class implementation"): (9, 18),
        ("zcl_x=>run", "method"): (10, 12),
        ("zcl_x=>zif_y~greet", "method"): (14, 17),
    }


@pytest.mark.parametrize(
    ("name", "lines"),
    [
        ("RUN", (10, 12)),
        ("zcl_x=>run", (10, 12)),
        ("zif_y~greet", (14, 17)),
        ("greet", (14, 17)),
        ("zcl_x => zif_y~greet", (14, 17)),
        ("ZCL_X PRIVATE SECTION", (5, 6)),
        ("zcl_x definition", (1, 7)),
    ],
)
def test_names_agents_write(name: str, lines: tuple[int, int]) -> None:
    found = find_symbol(CLASS, name)
    assert (found.start_line, found.end_line) == lines


def test_a_comment_never_makes_a_part() -> None:
    with pytest.raises(SymbolNotFoundError) as caught:
        find_symbol(CLASS, "fake")
    assert "zcl_x=>run" in caught.value.candidates


def test_a_name_of_two_parts_lists_both() -> None:
    with pytest.raises(AmbiguousSymbolError) as caught:
        find_symbol(LOCALS, "run")
    assert caught.value.candidates == ("lcl_a=>run", "lcl_b=>run")
    with pytest.raises(AmbiguousSymbolError):
        find_symbol(CLASS, "zcl_x")  # definition or implementation


def test_parts_that_share_a_line_with_other_code_are_marked() -> None:
    found = {s.name: s for s in symbols(LOCALS)}
    assert not found["lcl_a=>run"].shares_line  # one line, but nothing else on it
    assert found["lcl_b=>run"].shares_line  # ENDMETHOD. METHOD other.
    assert found["lcl_b=>other"].shares_line
    assert not found["write_all"].shares_line
    assert (found["write_all"].start_line, found["write_all"].end_line) == (9, 11)


def test_an_interface_method_is_its_declaration() -> None:
    interface = "\n".join(
        [
            "INTERFACE zif_y PUBLIC.",
            "  METHODS greet",
            "    IMPORTING iv_name TYPE string",
            "    RETURNING VALUE(rv) TYPE string.",
            "  CLASS-METHODS make RETURNING VALUE(ro) TYPE REF TO zif_y.",
            "  METHODS: a, b.",
            "ENDINTERFACE.",
        ]
    )
    found = {s.name: (s.kind, s.start_line, s.end_line) for s in symbols(interface)}
    assert found["zif_y=>greet"] == ("method declaration", 2, 4)
    assert found["zif_y=>make"] == ("method declaration", 5, 5)
    assert (
        find_symbol(interface, "greet").start_line,
        find_symbol(interface, "make").end_line,
    ) == (2, 5)
    chained = {s.name: s.shares_line for s in symbols(interface) if s.start_line == 6}
    assert chained == {"zif_y=>a": True, "zif_y=>b": True}  # a write by name is refused
