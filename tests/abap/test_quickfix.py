"""The quick fixes without a server: when each is offered, and the edits it makes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adt.abap.format.pretty import PrinterSettings
from adt.abap.format.quickfix import FIX_IDS, Edit, FixEdits, evaluate, propose

PRINTING = "pretty_print_statement"


def kinds(text: str, line: int, column: int, context: tuple[str, ...] = ()) -> list[str]:
    """The fixes at a position, the pretty printer's left out (tested on its own)."""
    found = evaluate(text, line, column, context=context)
    return [fix.kind for fix in found if fix.kind != PRINTING]


def names(text: str, line: int, column: int) -> list[str]:
    return [fix.name for fix in evaluate(text, line, column) if fix.kind != PRINTING]


def edits(fix_id: str, text: str, line: int, column: int, *context: str) -> FixEdits:
    result = propose(fix_id, text, line, column, context=context)
    assert result is not None
    return result


# --- add_unimplemented_method -------------------------------------------------------------

CLASSES = """class lcl definition abstract.
  public section.
    methods: a, b abstract.
    class-methods c importing x type i.
endclass.
class lcl implementation.
  method c.
  endmethod. endclass."""


def test_missing_implementations_are_added_in_the_case_of_the_class() -> None:
    assert kinds(CLASSES, 1, 0) == ["add_unimplemented_method"]
    assert names(CLASSES, 1, 0) == ["Add implementation for 'a'"]
    assert edits("unimplemented_methods", CLASSES, 6, 8) == FixEdits(
        (Edit((8, 13), None, "\n  method a.\n\n  endmethod.\n", "Insert method implementation"),),
        (10, 0),
    )


def test_on_a_methods_statement_only_its_methods_count() -> None:
    text = CLASSES.replace("  method c.\n  endmethod.", "")
    assert names(text, 3, 4) == ["Add implementation for 'a'"]
    assert names(text, 4, 4) == ["Add implementation for 'c'"]
    assert names(text, 1, 0) == ["Add 2 unimplemented methods"]


def test_without_the_implementation_in_the_text_nothing_is_offered() -> None:
    text = CLASSES.split("class lcl implementation")[0]
    assert kinds(text, 1, 0) == []


# --- create_method_def --------------------------------------------------------------------


def test_a_method_definition_goes_to_the_private_section() -> None:
    text = (
        "CLASS lcl DEFINITION.\n  PUBLIC SECTION.\n  PRIVATE SECTION.\n    DATA x TYPE i.\n"
        "ENDCLASS.\nCLASS lcl IMPLEMENTATION.\n  METHOD new.\n  ENDMETHOD.\nENDCLASS."
    )
    assert kinds(text, 7, 9) == ["create_method_def"]
    assert edits("create_method_def", text, 7, 9).edits == (
        Edit((3, 18), None, "\n    METHODS new.", "Insert member definition"),
    )
    public_only = text.replace("  PRIVATE SECTION.\n    DATA x TYPE i.\n", "")
    assert edits("create_method_def", public_only, 5, 9).edits == (
        Edit((2, 17), None, "\n  PRIVATE SECTION.\n    METHODS new.", "Insert member definition"),
    )


def test_declared_and_interface_methods_need_no_definition() -> None:
    text = (
        "CLASS lcl DEFINITION.\n  PUBLIC SECTION.\n    METHODS new.\nENDCLASS.\n"
        "CLASS lcl IMPLEMENTATION.\n  METHOD new.\n  ENDMETHOD.\n  METHOD lif~m.\n  ENDMETHOD.\n"
        "ENDCLASS."
    )
    assert kinds(text, 6, 9) == []
    assert kinds(text, 8, 9) == []


# --- declare_local_variable ---------------------------------------------------------------

REPORT = """REPORT z.
FORM f USING p_in TYPE i.
  DATA: lv_a TYPE i,
        lv_b TYPE i.
  lv_new = p_in + lv_a.
  DATA(lv_c) = lv_b.
  WRITE lv_c.
ENDFORM."""


def test_a_chained_declaration_is_extended() -> None:
    assert kinds(REPORT, 5, 3) == ["declare_local_variable"]
    assert edits("declare_local_variable", REPORT, 5, 3) == FixEdits(
        (
            Edit(
                (3, 2),
                (4, 20),
                "DATA: lv_a TYPE i,\n        lv_b TYPE i,\n        lv_new TYPE any.",
                "Insert variable declaration",
            ),
        ),
        (5, 8),
    )


def test_declared_names_and_other_words_are_not_offered() -> None:
    for column in (12, 21):  # p_in (a parameter of the form), lv_a
        assert kinds(REPORT, 5, column) == []
    assert kinds(REPORT, 7, 9) == []  # lv_c, declared inline
    assert kinds(REPORT, 7, 3) == []  # WRITE, a keyword
    assert kinds("DATA x TYPE zundeclared.", 1, 14) == []  # a type, not a variable


def test_top_level_code_gets_its_declaration_before_the_statement() -> None:
    text = "report z.\n\n  lv_x = 1."
    assert edits("declare_local_variable", text, 3, 3) == FixEdits(
        (
            Edit(
                (3, 0),
                None,
                "  data lv_x TYPE any.\n".replace("TYPE", "type"),
                "Insert variable declaration",
            ),
        ),
        (3, 2),
    )


def test_class_definitions_and_interfaces_are_not_executable_code() -> None:
    assert kinds("INTERFACE lif.\n  x = 1.\nENDINTERFACE.", 2, 2) == []


LOCAL_IMPLEMENTATION = (
    "CLASS lcl IMPLEMENTATION.\n  METHOD m.\n    lv_x = 1.\n  ENDMETHOD.\nENDCLASS."
)
LOCAL_DEFINITION = (
    "CLASS lcl DEFINITION INHERITING FROM lcl_base.\n  PUBLIC SECTION.\n    METHODS m.\nENDCLASS."
)
BASE = "CLASS lcl_base DEFINITION.\n  PROTECTED SECTION.\n    DATA lv_y TYPE i.\nENDCLASS."


def test_in_a_method_every_class_it_inherits_from_must_be_known() -> None:
    assert kinds(LOCAL_IMPLEMENTATION, 3, 5) == []  # the definition is not there
    assert kinds(LOCAL_IMPLEMENTATION, 3, 5, (LOCAL_DEFINITION,)) == []  # nor lcl_base
    assert kinds(LOCAL_IMPLEMENTATION, 3, 5, (LOCAL_DEFINITION, BASE)) == ["declare_local_variable"]
    inherited = LOCAL_IMPLEMENTATION.replace("lv_x", "lv_y")
    assert kinds(inherited, 3, 5, (LOCAL_DEFINITION, BASE)) == []
    assert edits("declare_local_variable", LOCAL_IMPLEMENTATION, 3, 5, LOCAL_DEFINITION, BASE) == (
        FixEdits(
            (Edit((2, 11), None, "\n    DATA lv_x TYPE any.", "Insert variable declaration"),),
            (3, 4),
        )
    )


def test_in_an_interface_method_the_interface_must_be_known() -> None:
    implementation = (
        "CLASS lcl IMPLEMENTATION.\n  METHOD lif~m.\n    lv_z = iv_p.\n  ENDMETHOD.\nENDCLASS."
    )
    definition = "CLASS lcl DEFINITION.\n  PUBLIC SECTION.\n    INTERFACES lif.\nENDCLASS."
    interface = "INTERFACE lif.\n  METHODS m IMPORTING iv_p TYPE i.\nENDINTERFACE."
    assert kinds(implementation, 3, 5, (definition,)) == []
    assert kinds(implementation, 3, 5, (definition, interface)) == ["declare_local_variable"]
    assert kinds(implementation, 3, 12, (definition, interface)) == []


# --- pretty_print_statement ---------------------------------------------------------------


def test_a_statement_the_printer_would_change_can_be_printed() -> None:
    text = "IF a = 1.\nx = 1. y = 2.\n    ENDIF."
    assert [fix.kind for fix in evaluate(text, 2, 0, context=("DATA: x, y.",))] == [PRINTING]
    assert edits("pretty_print_statement", text, 2, 0).edits == (
        Edit((2, 0), (2, 13), "  x = 1.\n  y = 2.", "Pretty print statement"),
    )
    assert evaluate(text, 1, 0) == []
    lower = evaluate(text, 1, 0, settings=PrinterSettings(style="toLower"))
    assert [fix.kind for fix in lower] == ["pretty_print_statement"]


# --- the set ------------------------------------------------------------------------------


def test_no_statement_no_fix_and_unknown_ids_are_none() -> None:
    assert evaluate("WRITE x.\n\n* note", 3, 0) == []
    assert evaluate("WRITE x.", 9, 0) == []
    assert propose("qf_rename", "WRITE x.", 1, 0) is None
    assert propose("declare_local_variable", "", 1, 0) == FixEdits(())
    assert {
        "declare_local_variable",
        "unimplemented_methods",
        "create_method_def",
        "pretty_print_statement",
    } == FIX_IDS


# --- properties ---------------------------------------------------------------------------

STATEMENTS = [
    "REPORT z.",
    "CLASS lcl DEFINITION.",
    "PUBLIC SECTION.",
    "METHODS: a, b.",
    "ENDCLASS.",
    "CLASS lcl IMPLEMENTATION.",
    "METHOD a.",
    "METHOD c.",
    "ENDMETHOD.",
    "FORM f USING p.",
    "ENDFORM.",
    "DATA: x TYPE i,\n      y TYPE i.",
    "DATA z TYPE i.",
    "lv_new = x + y.",
    "IF lv_other = 1.",
    "ENDIF.",
    "WRITE / lv_out.",
    "START-OF-SELECTION.",
    'FUNCTION z_f.\n*"  IMPORTING\n*"     VALUE(IV) TYPE I',
    "ENDFUNCTION.",
    "x = 'lit'. \" comment",
    "data(w) = |t{ lv_t }|.",
]


@st.composite
def sources(draw: st.DrawFn) -> tuple[str, int, int]:
    parts = draw(st.lists(st.sampled_from(STATEMENTS), min_size=1, max_size=14))
    gaps = draw(st.lists(st.sampled_from(["\n", "\n  ", " ", "\n\n"]), min_size=len(parts)))
    text = "".join(part + gap for part, gap in zip(parts, gaps, strict=False))
    lines = text.split("\n")
    line = draw(st.integers(1, len(lines)))
    column = draw(st.integers(0, len(lines[line - 1]) + 1))
    return text, line, column


def _inside(lines: list[str], position: tuple[int, int]) -> bool:
    line, column = position
    return 1 <= line <= len(lines) and 0 <= column <= len(lines[line - 1])


@settings(max_examples=400, deadline=None)
@given(sources())
def test_every_offered_fix_has_edits_inside_the_text(case: tuple[str, int, int]) -> None:
    text, line, column = case
    lines = text.split("\n")
    for fix in evaluate(text, line, column):
        result = propose(fix.id, text, line, column)
        assert result is not None and result.edits, fix
        for edit in result.edits:
            assert _inside(lines, edit.start)
            assert edit.end is None or (_inside(lines, edit.end) and edit.start <= edit.end)
