"""ZCL_DEMO_LARGE: a deterministic class whose main source has exactly 10,000 lines.

Generated at load time instead of shipping 400 KB of text.  Every method body is
different but follows one pattern, and the whole class passes the checker.  The class
also has local includes (definitions, implementations, test classes) so that reading
one include of a large class is a realistic scenario.
"""

from __future__ import annotations

NAME = "ZCL_DEMO_LARGE"
DESCRIPTION = "Large demo class (generated, 10,000 lines)"
TOTAL_LINES = 10_000
_METHODS = 554  # 3 declaration lines + 15 implementation lines each


def _declaration(index: int) -> list[str]:
    return [
        f"    METHODS calc_{index:04d}",
        "      IMPORTING iv_value         TYPE i",
        "      RETURNING VALUE(rv_result) TYPE i.",
    ]


def _implementation(index: int) -> list[str]:
    factor = index % 7 + 1
    offset = index % 11
    loops = index % 4 + 1
    return [
        f"  METHOD calc_{index:04d}.",
        f'    " Step {index} of the large demo class: a deterministic calculation.',
        "    DATA lv_total TYPE i.",
        f"    lv_total = iv_value * {factor} + {offset}.",
        "    IF lv_total > 1000.",
        "      lv_total = lv_total MOD 1000.",
        "    ELSE.",
        "      lv_total = lv_total + 1.",
        "    ENDIF.",
        f"    DO {loops} TIMES.",
        "      lv_total = lv_total + sy-index.",
        "    ENDDO.",
        "    rv_result = lv_total.",
        "  ENDMETHOD.",
    ]


def large_class_source() -> str:
    """The source of ZCL_DEMO_LARGE, LF-joined, exactly :data:`TOTAL_LINES` lines."""
    head = [
        "CLASS zcl_demo_large DEFINITION",
        "  PUBLIC",
        "  FINAL",
        "  CREATE PUBLIC.",
        "",
        '  " Generated for large-object scenarios (range reads, patches, search).',
        "  PUBLIC SECTION.",
    ]
    lines = list(head)
    for index in range(1, _METHODS + 1):
        lines += _declaration(index)
    lines += ["  PROTECTED SECTION.", "  PRIVATE SECTION.", "ENDCLASS.", "", ""]
    lines += ["CLASS zcl_demo_large IMPLEMENTATION.", ""]
    body: list[str] = []
    for index in range(1, _METHODS + 1):
        body += _implementation(index)
        body.append("")
    closing = ["ENDCLASS."]
    filler_needed = TOTAL_LINES - len(lines) - len(body) - len(closing)
    filler = [f'  " Reserved line {i + 1} for future methods.' for i in range(filler_needed)]
    lines += body + filler + closing
    assert len(lines) == TOTAL_LINES, len(lines)
    return "\n".join(lines)


LOCAL_HELPERS = 40


def large_class_includes() -> dict[str, str]:
    """The local includes of ZCL_DEMO_LARGE, keyed by include type."""
    definitions = [
        '*"* use this source file for any type of declarations (class',
        '*"* definitions, interfaces or type declarations) you need for',
        '*"* components in the private section',
        "",
    ]
    implementations = [
        '*"* use this source file for the definition and implementation of',
        '*"* local helper classes, interface definitions and type',
        '*"* declarations',
        "",
    ]
    for index in range(1, LOCAL_HELPERS + 1):
        definitions += [
            f"CLASS lcl_helper_{index:02d} DEFINITION FINAL.",
            "  PUBLIC SECTION.",
            "    CLASS-METHODS twice",
            "      IMPORTING iv_value         TYPE i",
            "      RETURNING VALUE(rv_result) TYPE i.",
            "ENDCLASS.",
            "",
        ]
        implementations += [
            f"CLASS lcl_helper_{index:02d} IMPLEMENTATION.",
            "  METHOD twice.",
            f"    rv_result = iv_value * 2 + {index}.",
            "  ENDMETHOD.",
            "ENDCLASS.",
            "",
        ]
    tests = [
        "CLASS ltc_large DEFINITION FINAL FOR TESTING",
        "  DURATION SHORT",
        "  RISK LEVEL HARMLESS.",
        "  PRIVATE SECTION.",
        "    METHODS first_calc FOR TESTING.",
        "ENDCLASS.",
        "",
        "CLASS ltc_large IMPLEMENTATION.",
        "  METHOD first_calc.",
        "    DATA(lo_cut) = NEW zcl_demo_large( ).",
        "    cl_abap_unit_assert=>assert_equals( act = lo_cut->calc_0001( 1 ) exp = 3 ).",
        "  ENDMETHOD.",
        "ENDCLASS.",
    ]
    return {
        "definitions": "\n".join(definitions),
        "implementations": "\n".join(implementations),
        "testclasses": "\n".join(tests),
    }
