"""The transports tool's request actions through the official MCP client: a request's
objects, an object moved into it, a refused release naming the object, then the release;
and what the write policy makes of them."""

from __future__ import annotations

from support.mcp_calls import call, error
from support.mcp_memory import bridge

from adt.agent import WritePolicy
from adt.emulator import Emulator

REPORT = "PROG:ZDEMO_TR_REPORT"
ROW = "R3TR PROG ZDEMO_TR_REPORT"


async def test_move_show_refuse_and_release_a_request(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        made = await call(
            client, "transports", action="create", description="Agent", package="ZDEMO_TR"
        )
        number = made["data"]["transport"]
        moved = await call(
            client, "transports", action="reassign", objectUrl=REPORT, request=number
        )
        assert moved["data"]["moved"] and moved["data"]["to"] == number
        shown = await call(client, "transports", action="objects", request=number)
        assert shown["data"]["objects"] == [ROW] and shown["data"]["status"] == "modifiable"

        read = (await call(client, "getObjectSourceV2", objectUrl=REPORT, startLine=1))["data"]
        written = await call(
            client,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=read["token"],
            startLine=1,
            endLine=0,
            content="* agent",
            transport=number,
        )
        assert written["ok"], written
        refused = await error(client, "transports", action="release", request=number)
        assert refused["name"] == "RELEASE_REFUSED" and refused["details"]["objects"] == [ROW]
        assert (await call(client, "activate", objectUrl=REPORT))["data"]["activated"]
        released = await call(client, "transports", action="release", request=number)
        assert released["data"]["released"][-1] == number
        missing = await error(client, "transports", action="release")
        assert missing["name"] == "INVALID_ARGUMENT" and "request" in missing["error"]
    assert [r.status for r in emulator.transport_requests() if r.number == number] == ["R"]
    assert emulator.locks() == []


async def test_a_restricted_bridge_releases_nothing(emulator: Emulator) -> None:
    [seeded] = emulator.transport_requests()
    for policy in (WritePolicy(read_only=True), WritePolicy(allow=("ZDEMO_TR",))):
        async with bridge(emulator, policy=policy) as client:
            refused = await error(client, "transports", action="release", request=seeded.number)
            assert refused["name"] == "WRITE_REFUSED"
            shown = await call(client, "transports", action="objects", request=seeded.number)
            assert shown["data"]["objects"] == [ROW], "showing a request is no write"
    assert [r.status for r in emulator.transport_requests()] == ["D"]
