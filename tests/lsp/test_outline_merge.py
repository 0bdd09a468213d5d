"""The ABAP outline and the three-way merge."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from adt.abap.outline import outline
from lsp_server.buffer import Hunk
from lsp_server.merge import OURS_MARK, THEIRS_MARK, diff_hunks, marked_blocks, merge, ours_view

CLASS_SOURCE = """CLASS zcl_demo DEFINITION PUBLIC.
  PUBLIC SECTION.
    METHODS greet IMPORTING iv_name TYPE string.
    CLASS-METHODS create RETURNING VALUE(ro_x) TYPE REF TO zcl_demo.
    " METHODS commented_out.
ENDCLASS.

CLASS zcl_demo IMPLEMENTATION.
  METHOD greet.
    WRITE 'METHOD not_a_method.'.
  ENDMETHOD.
  METHOD create. ro_x = NEW #( ). ENDMETHOD.
ENDCLASS.
FORM legacy. ENDFORM.
CLASS zcl_other DEFINITION DEFERRED."""


def test_outline_of_a_class() -> None:
    symbols = outline(CLASS_SOURCE)
    assert [(s.name, s.kind, s.detail) for s in symbols] == [
        ("ZCL_DEMO", "class", "definition"),
        ("ZCL_DEMO", "class", "implementation"),
        ("LEGACY", "function", "form"),
    ]
    definition, implementation, form = symbols
    assert [c.name for c in definition.children] == ["GREET", "CREATE"]
    assert (definition.start, definition.end) == ((1, 0), (6, 9))
    assert [c.name for c in implementation.children] == ["GREET", "CREATE"]
    greet = implementation.children[0]
    assert (greet.start[0], greet.end[0]) == (9, 11)
    assert (form.start, form.end) == ((14, 0), (14, 21))


def test_outline_of_interfaces_functions_and_modules() -> None:
    text = (
        "INTERFACE zif_x PUBLIC.\n  METHODS run.\nENDINTERFACE.\n"
        "FUNCTION z_add.\n  e_sum = i_a + i_b.\nENDFUNCTION.\n"
        "MODULE status_0100 OUTPUT.\nENDMODULE."
    )
    assert [(s.name, s.kind) for s in outline(text)] == [
        ("ZIF_X", "interface"),
        ("Z_ADD", "function"),
        ("STATUS_0100", "module"),
    ]
    assert outline(text)[0].children[0].name == "RUN"


def test_disjoint_changes_merge_cleanly() -> None:
    base = ["a", "b", "c", "d", "e"]
    ours = [Hunk(1, 1, ("A",))]
    theirs = diff_hunks(base, ["a", "b", "c", "d", "E", "f"])
    result = merge(base, ours, theirs)
    assert result.clean and result.lines == ("A", "b", "c", "d", "E", "f")


def test_overlapping_changes_keep_both_sides() -> None:
    base = ["a", "b", "c"]
    result = merge(base, [Hunk(2, 2, ("mine",))], diff_hunks(base, ["a", "theirs", "c"]))
    assert not result.clean
    (conflict,) = result.conflicts
    assert result.lines[conflict.start - 1] == OURS_MARK
    assert result.lines[conflict.end - 1] == THEIRS_MARK
    assert conflict.ours == ("mine",) and conflict.theirs == ("theirs",)
    assert "mine" in result.lines and "theirs" in result.lines


def test_touching_changes_conflict_and_identical_changes_do_not() -> None:
    base = ["a", "b", "c"]
    touching = merge(base, [Hunk(1, 1, ("A",))], diff_hunks(base, ["a", "B", "c"]))
    assert not touching.clean
    same = merge(base, [Hunk(2, 2, ("X",))], diff_hunks(base, ["a", "X", "c"]))
    assert same.clean and same.lines == ("a", "X", "c")


lines = st.lists(st.sampled_from(["a", "b", "c", "d"]), max_size=10)


@given(base=lines, ours=lines, theirs=lines)
def test_a_clean_merge_contains_both_sides(
    base: list[str], ours: list[str], theirs: list[str]
) -> None:
    result = merge(base, diff_hunks(base, ours), diff_hunks(base, theirs))
    if ours == base:
        assert result.lines == tuple(theirs)
    elif theirs == base:
        assert result.lines == tuple(ours)
    if result.clean:
        # Every line either side added survives the merge.
        for added in set(ours) - set(base):
            assert added in result.lines
        for added in set(theirs) - set(base):
            assert added in result.lines
    else:
        assert OURS_MARK in result.lines


def test_the_outline_of_a_text_with_markers_follows_our_side() -> None:
    lines = CLASS_SOURCE.split("\n")
    marked = [
        *lines[:10],
        OURS_MARK,
        "    WRITE 'mine'.",
        "=======",
        "    WRITE 'theirs' \" without its period",
        THEIRS_MARK,
        *lines[10:],
    ]
    assert [b.start for b in marked_blocks(marked)] == [10]
    view = ours_view(marked)
    assert len(view.split("\n")) == len(marked), "every line keeps its number"
    symbols = outline(view)
    assert [(s.name, s.detail) for s in symbols] == [
        ("ZCL_DEMO", "definition"),
        ("ZCL_DEMO", "implementation"),
        ("LEGACY", "form"),
    ]
    greet = symbols[1].children[0]
    assert (greet.start[0], greet.end[0]) == (9, 16)  # 1-based: METHOD .. ENDMETHOD
    broken = outline("\n".join(marked))
    assert len(broken[1].children) < 2, "without the view the markers swallow the methods"


def test_incomplete_markers_are_no_block() -> None:
    assert marked_blocks(["<<<<<<< mine", "a", "b"]) == []
    assert marked_blocks(["a", "=======", ">>>>>>> theirs"]) == []
    assert ours_view(["a", "=======", "b"]) == "a\n=======\nb"
