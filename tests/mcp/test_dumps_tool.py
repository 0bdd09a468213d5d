"""Short dumps through the history tool: list the recent ones of an object, read one."""

from __future__ import annotations

from support.mcp_calls import call, error
from support.mcp_memory import bridge

from adt.emulator import Emulator

GREETER = "CLAS:ZCL_DEMO_GREETER"
TESTS = "/sap/bc/adt/oo/classes/zcl_demo_greeter/includes/testclasses"


async def test_an_agent_finds_the_dump_of_its_failing_test(emulator: Emulator) -> None:
    text = emulator.source(TESTS) or ""
    marker = "  METHOD greets_the_world.\n"
    emulator.write_as(
        "DEVELOPER",
        TESTS,
        text.replace(marker, marker + "    RAISE EXCEPTION TYPE cx_sy_itab_line_not_found.\n"),
    )
    emulator.activate_all()
    async with bridge(emulator) as client:
        ran = await call(client, "syntaxCheck", kind="unit", objectUrl=GREETER)
        assert ran["data"]["failed"] == 1
        listed = await call(client, "history", action="dumps", objectUrl=GREETER)
        [entry] = listed["data"]["dumps"]
        read = await call(client, "history", action="dump", id=entry["id"])
        assert read["data"]["exception"] == "CX_SY_ITAB_LINE_NOT_FOUND"
        assert read["data"]["at"]["includeType"] == "testclasses"
        missing = await error(client, "history", action="dump")
        assert missing["name"] == "INVALID_ARGUMENT"
    assert emulator.locks() == []
