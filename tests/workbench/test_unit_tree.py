"""A run as a test explorer's tree: where each test is, whether the system's navigation URI
names a position (``#start=``) or only the test (semantic, ``#type=…;name=…``), in which case
the line comes from the test's source."""

from __future__ import annotations

from adt.areas.unit import (
    SourcePosition,
    UnitAlert,
    UnitAlertDetail,
    UnitProgram,
    UnitRunResult,
    UnitStackEntry,
    UnitTestClass,
    UnitTestMethod,
)
from adt.workbench.unit_tree import UnitTree, places_in, sources_to_place

CLASS = "/sap/bc/adt/oo/classes/zcl_x"
TESTS = f"{CLASS}/includes/testclasses"
SOURCE = """CLASS ltc_x DEFINITION FINAL FOR TESTING.
  PRIVATE SECTION.
    METHODS passes FOR TESTING.
    METHODS fails FOR TESTING.
ENDCLASS.
CLASS ltc_x IMPLEMENTATION.
  METHOD passes.
  ENDMETHOD.
  METHOD fails.
    cl_abap_unit_assert=>fail( ).
  ENDMETHOD.
ENDCLASS.
"""


def _failure() -> UnitAlert:
    where = f"{TESTS}#start=10,4"
    return UnitAlert(
        "failedAssertion",
        "critical",
        "Critical Assertion Error: 'Fail'",
        (UnitAlertDetail("Stop", (UnitAlertDetail("nested"),)),),
        (UnitStackEntry(where, "CLAS/OCN", "LTC_X", "", SourcePosition.parse(where)),),
    )


def _run(passes_nav: str, fails_nav: str, class_nav: str) -> UnitRunResult:
    methods = (
        UnitTestMethod(f"{CLASS}#m=passes", "CLAS/OLI", "PASSES", 0.012, passes_nav, ()),
        UnitTestMethod(f"{CLASS}#m=fails", "CLAS/OLI", "FAILS", 0.5, fails_nav, (_failure(),)),
    )
    test_class = UnitTestClass(
        f"{CLASS}#c=ltc_x", "CLAS/OL", "LTC_X", class_nav, "short", "harmless", methods, ()
    )
    return UnitRunResult((UnitProgram(CLASS, "CLAS/OC", "ZCL_X", (test_class,), ()),), ())


def _tree(result: UnitRunResult, places: dict[tuple[str, str, str], int]) -> dict[str, object]:
    return UnitTree(result, 2, 1, 1, (), places).to_dict()


def test_semantic_uris_take_their_lines_from_the_source() -> None:
    semantic = _run(
        f"{TESTS}#type=CLAS%2FOLI;name=LTC_X%20%20PASSES",
        f"{TESTS}#type=CLAS%2FOLI;name=LTC_X%20%20FAILS",
        f"{TESTS}#type=CLAS%2FOL;name=LTC_X",
    )
    assert sources_to_place(semantic) == [TESTS]
    tree = _tree(semantic, places_in(TESTS, SOURCE))
    [obj] = tree["objects"]  # type: ignore[misc]
    [cls] = obj["classes"]
    assert (cls["name"], cls["sourceUrl"], cls["line"], cls["passed"]) == ("LTC_X", TESTS, 1, False)
    passes, fails = cls["methods"]
    assert passes == {
        "name": "PASSES",
        "passed": True,
        "durationMs": 12,
        "sourceUrl": TESTS,
        "line": 7,
    }
    assert (fails["line"], fails["durationMs"], fails["passed"]) == (9, 500, False)
    assert fails["failure"] == {
        "message": "Critical Assertion Error: 'Fail'",
        "details": ["Stop", "nested"],
        "sourceUrl": TESTS,
        "line": 10,
    }
    assert "failure" not in cls


def test_positioned_uris_are_taken_as_they_are_and_no_source_is_read() -> None:
    positioned = _run(f"{TESTS}#start=3,4", f"{TESTS}#start=4,4", f"{TESTS}#start=1,6")
    assert sources_to_place(positioned) == []
    [obj] = _tree(positioned, {})["objects"]  # type: ignore[misc]
    [cls] = obj["classes"]
    assert cls["line"] == 1
    assert [m["line"] for m in cls["methods"]] == [3, 4]


def test_a_test_the_source_does_not_show_has_no_line() -> None:
    elsewhere = _run(f"{TESTS}#type=X;name=Y", "", "")
    [obj] = _tree(elsewhere, places_in(TESTS, "* no tests here\n"))["objects"]  # type: ignore[misc]
    [cls] = obj["classes"]
    assert "sourceUrl" not in cls and "line" not in cls
    passes, fails = cls["methods"]
    assert passes["sourceUrl"] == TESTS and "line" not in passes
    assert "sourceUrl" not in fails
