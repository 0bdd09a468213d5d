"""MCP calls and the V2 design's agent workflows, shared by the in-memory, stdio and HTTP
tests so every transport runs exactly the same scenario."""

from __future__ import annotations

import json
from typing import Any

from mcp import Client

from adt.emulator import Emulator
from support.emulated import LARGE, REPORT

REPORT_SOURCE = f"{REPORT}/source/main"


async def call(client: Client, tool: str, /, **arguments: Any) -> dict[str, Any]:
    """Call a tool; return its JSON payload with ``ok`` (not isError) added."""
    result = await client.call_tool(tool, arguments)
    payload = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert result.structured_content == payload, "text and structured content agree"
    assert isinstance(payload["executionTimeMs"], float | int)
    assert isinstance(payload["adtRequests"], int) and payload["adtRequests"] >= 0
    payload["ok"] = not result.is_error
    return payload


async def error(client: Client, tool: str, /, **arguments: Any) -> dict[str, Any]:
    payload = await call(client, tool, **arguments)
    assert not payload["ok"], payload
    assert set(payload) >= {"error", "code", "details", "retry", "retryAction"}
    assert payload["error"], "every error says what went wrong"
    return payload


async def agent_workflow(client: Client, emulator: Emulator) -> None:
    """The V2 design's §6: grep, range read, lock, setObjectSourceV2, unLock."""
    found = await call(
        client, "grepObjectSource", objectUrl=LARGE, pattern=r"METHOD calc_0042\.", contextLines=1
    )
    (match,) = found["data"]["matches"]
    line = match["lineNumber"]
    read = await call(
        client, "getObjectSourceV2", objectUrl=LARGE, startLine=line, endLine=line + 13
    )
    assert read["data"]["content"].startswith("  METHOD calc_0042.")
    lock = await call(client, "lock", objectUrl=LARGE)
    handle = lock["data"]["lockHandle"]
    written = await call(
        client,
        "setObjectSourceV2",
        objectUrl=LARGE,
        token=read["data"]["token"],
        startLine=line + 1,
        endLine=line + 1,
        content='    " Reviewed by the agent.',
        lockHandle=handle,
    )
    assert written["ok"] and written["data"]["newRange"] == [line + 1, line + 1]
    assert (await call(client, "unLock", objectUrl=LARGE, lockHandle=handle))["ok"]
    assert emulator.locks() == []
    stored = emulator.source(f"{LARGE}/source/main") or ""
    assert stored.split("\n")[line] == '    " Reviewed by the agent.'


async def conflict_workflow(client: Client, emulator: Emulator) -> None:
    """The V2 design's §6.2: a conflict, re-read, re-apply on the current version. The
    colleague changed line 2, next to the agent's line 1: an overlap, so no rebase."""
    read = await call(client, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=5)
    lines = (emulator.source(REPORT_SOURCE) or "").split("\n")
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, "\n".join([lines[0], "* theirs", *lines[2:]]))
    conflict = await error(
        client,
        "setObjectSourceV2",
        objectUrl=REPORT,
        token=read["data"]["token"],
        startLine=1,
        endLine=1,
        content="* mine",
    )
    assert (conflict["code"], conflict["name"]) == (4003, "VERSION_CONFLICT")
    assert conflict["details"]["changedBy"] == "COLLEAGUE"
    assert conflict["details"]["overlap"] == {"yourLines": [[1, 1]], "theirLines": [[2, 2]]}
    assert conflict["retry"] is True and conflict["retryAction"] == "getObjectSourceV2"
    again = await call(client, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=1)
    assert again["data"]["token"] == conflict["details"]["currentToken"]
    done = await call(
        client,
        "setObjectSourceV2",
        objectUrl=REPORT,
        token=again["data"]["token"],
        startLine=1,
        endLine=1,
        content="* mine",
    )
    assert done["ok"]
    stored = emulator.source(REPORT_SOURCE) or ""
    assert stored.startswith("* mine\n* theirs\n")


LOOP_CLASS = "/sap/bc/adt/oo/classes/zcl_agent_loop"
LOOP_MAIN = """CLASS zcl_agent_loop DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    METHODS twice IMPORTING iv TYPE i RETURNING VALUE(rv) TYPE i.
ENDCLASS.

CLASS zcl_agent_loop IMPLEMENTATION.
  METHOD twice.
    rv = iv + 1.
  ENDMETHOD.
ENDCLASS."""
LOOP_TESTS = """CLASS ltcl_twice DEFINITION FINAL FOR TESTING DURATION SHORT RISK LEVEL HARMLESS.
  PRIVATE SECTION.
    METHODS doubles FOR TESTING.
ENDCLASS.

CLASS ltcl_twice IMPLEMENTATION.
  METHOD doubles.
    cl_abap_unit_assert=>fail( msg = 'twice( 2 ) is not 4' ).
  ENDMETHOD.
ENDCLASS."""


async def development_loop(client: Client, emulator: Emulator) -> dict[str, Any]:
    """Issue 11's bar: from "create ZCL_X with a method and a test" to "tests green, on a
    transport" with the tools alone, no whole-source transfer. Returns the figures."""
    seen: list[dict[str, Any]] = []

    async def step(tool: str, /, **arguments: Any) -> dict[str, Any]:
        payload = await call(client, tool, **arguments)
        seen.append({"tool": tool, "bytes": len(json.dumps(payload)), **payload})
        return payload

    refused = await step(
        "manageObject",
        action="create",
        kind="class",
        name="ZCL_AGENT_LOOP",
        description="Agent loop",
        package="ZDEMO_TR",
        testClasses=True,
    )
    assert not refused["ok"] and refused["name"] == "TRANSPORT_REQUIRED"
    assert refused["retryAction"] == "transports"
    request = await step(
        "transports", action="create", description="Agent loop", package="ZDEMO_TR"
    )
    number = request["data"]["transport"]
    created = await step(
        "manageObject",
        action="create",
        kind="class",
        name="ZCL_AGENT_LOOP",
        description="Agent loop",
        package="ZDEMO_TR",
        transport=number,
        testClasses=True,
    )
    assert created["ok"] and created["data"]["transport"] == number
    main = await step(
        "setObjectSourceV2",
        objectUrl=LOOP_CLASS,
        token=created["data"]["token"],
        startLine=1,
        endLine=created["data"]["lineCount"],
        content=LOOP_MAIN,
    )
    assert main["ok"], main
    written = await step(
        "setObjectSourceV2",
        objectUrl=LOOP_CLASS,
        includeType="testclasses",
        token=created["data"]["testClassesToken"],
        startLine=1,
        endLine=created["data"]["testClassesLineCount"],
        content=LOOP_TESTS,
    )
    assert written["ok"], written
    assert (await step("activate", objectUrl=LOOP_CLASS))["data"]["activated"]
    red = await step("syntaxCheck", kind="unit", objectUrl=LOOP_CLASS)
    assert red["data"]["failed"] == 1 and not red["data"]["green"]
    (failure,) = red["data"]["failures"]
    assert failure["method"].lower() == "doubles" and failure["line"] == 8
    # fix the test by name: read and replace only that method
    part = await step(
        "getObjectSourceV2", objectUrl=LOOP_CLASS, includeType="testclasses", symbol="doubles"
    )
    assert part["data"]["symbol"]["startLine"] == 7 and part["data"]["lineCount"] == 10
    fixed = await step(
        "setObjectSourceV2",
        objectUrl=LOOP_CLASS,
        includeType="testclasses",
        token=part["data"]["token"],
        symbol="ltcl_twice=>doubles",
        content="  METHOD doubles.\n"
        "    cl_abap_unit_assert=>assert_equals( act = NEW zcl_agent_loop( )->twice( 2 ) "
        "exp = 4 ).\n  ENDMETHOD.",
    )
    assert fixed["ok"], fixed
    code = await step("getObjectSourceV2", objectUrl=LOOP_CLASS, symbol="twice")
    corrected = await step(
        "setObjectSourceV2",
        objectUrl=LOOP_CLASS,
        token=code["data"]["token"],
        symbol="twice",
        content="  METHOD twice.\n    rv = iv * 2.\n  ENDMETHOD.",
    )
    assert corrected["ok"], corrected
    diff = await step("history", action="diff", objectUrl=LOOP_CLASS)
    assert "+    rv = iv * 2." in diff["data"]["lines"]
    assert (await step("activate", objectUrl=LOOP_CLASS))["data"]["activated"]
    green = await step("syntaxCheck", kind="unit", objectUrl=LOOP_CLASS)
    assert green["data"]["green"] and green["data"]["failures"] == []
    check = await step("transports", action="check", objectUrl=LOOP_CLASS)
    assert check["data"]["lockedIn"] == number
    on_request = await step("transports", action="list")
    (mine,) = [r for r in on_request["data"]["requests"] if r["number"] == number]
    assert "CLAS ZCL_AGENT_LOOP" in mine["objects"]
    reads = [s for s in seen if s["tool"] == "getObjectSourceV2"]
    assert all("symbol" in s["data"] for s in reads), "no whole-source read"
    assert emulator.locks() == []
    return {
        "calls": len(seen),
        "bytes": sum(s["bytes"] for s in seen),
        "adtRequests": sum(s["adtRequests"] for s in seen),
    }
