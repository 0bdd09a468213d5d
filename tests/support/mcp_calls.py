"""MCP calls and the V2 design's agent workflows, shared by the in-memory, stdio and HTTP
tests so every transport runs exactly the same scenario."""

from __future__ import annotations

import json
from typing import Any

from mcp import Client

from adt.emulator import Emulator
from support.emulated import LARGE, REPORT

REPORT_SOURCE = f"{REPORT}/source/main"


async def call(client: Client, name: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool; return its JSON payload with ``ok`` (not isError) added."""
    result = await client.call_tool(name, arguments)
    payload = json.loads(result.content[0].text)  # type: ignore[union-attr]
    assert result.structured_content == payload, "text and structured content agree"
    assert isinstance(payload["executionTimeMs"], float | int)
    payload["ok"] = not result.is_error
    return payload


async def error(client: Client, name: str, **arguments: Any) -> dict[str, Any]:
    payload = await call(client, name, **arguments)
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
    """The V2 design's §6.2: a conflict, re-read, re-apply on the current version."""
    read = await call(client, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=5)
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, read["data"]["content"] + "\n* theirs")
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
    assert stored.startswith("* mine\n") and stored.endswith("* theirs")
