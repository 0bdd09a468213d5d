"""The emulator's syntax check catches what SAP's catches: undefined statements, unknown
fields, unknown methods of known classes, wrong formal parameters and methods implemented
twice — and reports nothing on real code (abapGit, abapOpenChecks, the RAP flight scenario).

Planted errors (tests/support/planted.py) are put into the samples and this folder's
fixtures (always) and into abapGit (when the corpus is on the machine).
"""

from __future__ import annotations

import collections

import pytest
from support.planted import KINDS

from adt.emulator import Emulator
from adt.emulator.syntax.semantic import Part, check_program

from .semantic_support import Verdict, corpus, fixture_emulator, judge, planted_in, state_of


def _caught_report(verdicts: list[Verdict]) -> tuple[int, str]:
    caught = sum(v.caught for v in verdicts)
    missed = [v for v in verdicts if not v.caught]
    lines = [
        f"{v.planted.kind} {v.planted.key} {v.planted.part}:{v.planted.line} "
        f"{v.planted.what} -> {v.messages[:3]}"
        for v in missed
    ]
    return caught, "\n".join(lines)


def test_planted_errors_in_the_fixtures_are_caught() -> None:
    state = state_of(fixture_emulator())
    planted = planted_in(state)
    kinds = collections.Counter(p.kind for p in planted)
    assert kinds == {kind: 20 for kind in KINDS}
    verdicts = [judge(state, p) for p in planted]
    caught, report = _caught_report(verdicts)
    assert caught >= 90, f"caught {caught} of 100; missed:\n{report}"


def test_the_fixtures_and_samples_have_no_findings() -> None:
    state = state_of(fixture_emulator())
    found = [
        (uri, m.line, m.text)
        for uri, obj in state.objects.items()
        for m in state.check_object(obj, "active")
    ]
    assert found == []


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("WRIET 'x'.", 'Statement "WRIET" is not defined. Check your spelling.'),
        ("DATA lv_a TYPE i.\nlv_b = lv_a.", 'Field "LV_B" is unknown.'),
        ("lo_x->nothing( ).", 'Method "NOTHING" is unknown or PROTECTED or PRIVATE.'),
        ("lo_x->run( iv_wrong = 1 ).", 'Formal parameter "IV_WRONG" does not exist.'),
        ("me->run( iv_times = 1 ).", None),
        ("lv_s = lo_x->run( 1 ) && lines( VALUE string_table( ) ).", None),
    ],
)
def test_each_kind_in_one_method(source: str, message: str | None) -> None:
    text = (
        "CLASS lcl_x DEFINITION.\n  PUBLIC SECTION.\n    METHODS run IMPORTING iv_times TYPE i"
        " RETURNING VALUE(rv_s) TYPE string.\nENDCLASS.\nCLASS lcl_x IMPLEMENTATION.\n"
        "  METHOD run.\n    DATA lo_x TYPE REF TO lcl_x.\n    DATA lv_s TYPE string.\n"
        f"    {source}\n  ENDMETHOD.\nENDCLASS."
    )
    found = check_program([Part("main", text)])["main"]
    texts = [f.message for f in found]
    if message is None:
        assert texts == []
    else:
        assert any(t.startswith(message) for t in texts), texts


def test_a_method_implemented_twice_is_reported_at_the_second() -> None:
    text = (
        "CLASS lcl_x DEFINITION.\n  PUBLIC SECTION.\n    METHODS run.\nENDCLASS.\n"
        "CLASS lcl_x IMPLEMENTATION.\n  METHOD run.\n  ENDMETHOD.\n  METHOD run.\n  ENDMETHOD.\n"
        "ENDCLASS."
    )
    found = check_program([Part("main", text)])["main"]
    assert [(f.line, f.column, f.message) for f in found] == [
        (8, 9, 'Method "RUN" has already been implemented.')
    ]


def test_a_class_whose_super_class_is_unknown_is_not_judged() -> None:
    """Inherited attributes and methods cannot be known: no finding rather than a false one."""
    text = (
        "CLASS lcl_x DEFINITION INHERITING FROM cl_somewhere_else.\n  PUBLIC SECTION.\n"
        "    METHODS run.\nENDCLASS.\nCLASS lcl_x IMPLEMENTATION.\n  METHOD run.\n"
        "    mv_inherited = 1.\n    inherited_method( ).\n  ENDMETHOD.\nENDCLASS."
    )
    assert check_program([Part("main", text)])["main"] == []


def test_activation_refuses_a_planted_error(emulator: Emulator) -> None:
    """The check runs where SAP's does: activation keeps the inactive version."""
    state = state_of(emulator)
    uri = "/sap/bc/adt/oo/classes/zcl_demo_counter"
    obj = state.objects[uri]
    text = obj.parts["main"].active.text.replace("ENDMETHOD.", "  WRIET 'x'.\n  ENDMETHOD.", 1)
    emulator.write_as("DEVELOPER", f"{uri}/source/main", text)
    run = state.activate([obj])
    assert not run.activated
    assert any("WRIET" in m.text for m in run.messages)


# corpora ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["abapgit", "abapopenchecks", "flight-2023", "flight-cloud"])
def test_no_false_positive_on_real_code(name: str) -> None:
    state = state_of(Emulator(seed_dirs=[corpus(name)]))
    found = [
        (uri, m.uri, m.line, m.text)
        for uri, obj in sorted(state.objects.items())
        for m in state.check_object(obj, "active")
    ]
    assert found == [], "\n".join(map(str, found[:30]))


def test_planted_errors_in_abapgit_are_caught() -> None:
    state = state_of(Emulator(seed_dirs=[corpus("abapgit")]))
    planted = planted_in(state)
    verdicts = [judge(state, p) for p in planted]
    caught, report = _caught_report(verdicts)
    by_kind = collections.Counter(v.planted.kind for v in verdicts if v.caught)
    assert caught >= 90, f"caught {caught} of 100 ({dict(by_kind)}); missed:\n{report}"
