"""Short dumps: a unit test that raises an uncaught exception leaves one in the emulator;
the feed lists it for the user and for the object, and reading it gives the error, the
position as an object URL and line, and the calls."""

from __future__ import annotations

import pytest

from adt.areas.dumps import parse_formatted
from adt.emulator import Emulator
from adt.source.errors import InvalidArgument, ObjectNotFound
from adt.workbench import Workbench

GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
TESTS = f"{GREETER}/includes/testclasses"
RAISING = """
  METHOD greets_by_name.
    DATA(lv_name) = `aDA`.
    RAISE EXCEPTION TYPE cx_sy_zerodivide.
  ENDMETHOD.
"""


def _raising_test(emulator: Emulator) -> int:
    """Make ``greets_by_name`` raise; the line of the RAISE in the test-class include."""
    text = emulator.source(TESTS) or ""
    start = text.index("  METHOD greets_by_name.")
    end = text.index("ENDMETHOD.", start) + len("ENDMETHOD.")
    changed = text[:start] + RAISING.strip("\n") + text[end:]
    emulator.write_as("DEVELOPER", TESTS, changed)
    emulator.activate_all()
    return changed[: changed.index("RAISE EXCEPTION")].count("\n") + 1


async def test_a_raising_unit_test_leaves_a_dump_that_reads_as_a_summary(
    workbench: Workbench, emulator: Emulator
) -> None:
    line = _raising_test(emulator)
    assert (await workbench.dumps.recent())["dumps"] == []
    report = await workbench.quality.unit_tests((GREETER,))
    [failed] = [t for t in report.to_dict()["failures"]]
    assert "UNCAUGHT_EXCEPTION" in str(failed)

    mine = await workbench.dumps.recent()
    of_class = await workbench.dumps.recent(GREETER)
    other = await workbench.dumps.recent("/sap/bc/adt/programs/programs/zdemo_report")
    assert mine["count"] == of_class["count"] == 1 and other["count"] == 0
    [entry] = mine["dumps"]
    assert entry["error"] == "UNCAUGHT_EXCEPTION" and entry["user"] == "DEVELOPER"
    assert entry["program"] == "ZCL_DEMO_GREETER".ljust(30, "=") + "CP"

    dump = await workbench.dumps.read(entry["id"])
    assert dump["exception"] == "CX_SY_ZERODIVIDE"
    assert dump["at"] == {"objectUrl": GREETER, "includeType": "testclasses", "line": line}
    assert dump["stack"][0]["name"] == "LTCL_GREETER=>GREETS_BY_NAME"
    assert dump["stack"][0]["at"]["line"] == line and len(dump["stack"]) == 2
    assert (await workbench.dumps.recent(user="COLLEAGUE"))["count"] == 0


async def test_unknown_or_malformed_ids_are_refused(workbench: Workbench) -> None:
    with pytest.raises(InvalidArgument):
        await workbench.dumps.read("../../etc")
    with pytest.raises(ObjectNotFound):
        await workbench.dumps.read("20261127000000vhcala4hci_DEVELOPER_001_99")


def test_the_st22_text_without_calls_or_position_still_reads() -> None:
    text = "Runtime Errors         MESSAGE_TYPE_X\nABAP Program           ZX\n"
    report = parse_formatted(text)
    assert (report.error, report.program, report.line, report.frames) == (
        "MESSAGE_TYPE_X",
        "ZX",
        0,
        (),
    )
