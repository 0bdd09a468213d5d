"""Extract method for agents: ``navigate`` with ``action: extract`` through the official MCP
client (in memory). Lines startLine..endLine become a method; the write is the rename's (all
or nothing, every object locked and token-checked, activated together); the answer lists the
changed lines and new tokens per object."""

from __future__ import annotations

from support.emulated import GREETER, make_client
from support.mcp_calls import call, error
from support.mcp_memory import bridge

from adt.agent import WritePolicy
from adt.emulator import Emulator

MAIN = f"{GREETER}/source/main"


def _lines_of(text: str, first: str, last: str) -> tuple[int, int]:
    numbered = list(enumerate(text.split("\n"), start=1))
    start = next(n for n, line in numbered if first in line)
    return start, next(n for n, line in numbered if n >= start and last in line)


def _if_block(emulator: Emulator) -> dict[str, object]:
    first, last = _lines_of(emulator.source(MAIN) or "", "IF iv_name IS INITIAL.", "ENDIF.")
    return {"action": "extract", "objectUrl": GREETER, "startLine": first, "endLine": last}


async def test_extract_previews_then_writes_with_new_tokens(emulator: Emulator) -> None:
    before = emulator.source(MAIN)
    block = _if_block(emulator)
    async with bridge(emulator) as client:
        planned = await call(client, "navigate", **block, newName="greeting_for", preview=True)
        assert planned["ok"], planned
        assert planned["data"]["written"] is False
        assert planned["data"]["signature"] == (
            "IMPORTING iv_name TYPE string EXPORTING rv_text TYPE string"
        )
        assert emulator.source(MAIN) == before, "a preview writes nothing"
        done = await call(client, "navigate", **block, newName="greeting_for")
        assert done["ok"], done
        data = done["data"]
        assert (data["newName"], data["written"], data["activated"]) == (
            "greeting_for",
            True,
            True,
        )
        [greeter] = data["objects"]
        [main] = greeter["sources"]
        assert main["sourceUrl"] == MAIN and main["lines"]
        read = await call(client, "getObjectSourceV2", objectSourceUrl=MAIN)
        assert main["token"] == read["data"]["token"], "the new token, usable at once"
    active = emulator.source(MAIN, "active") or ""
    assert "  METHOD greeting_for.\n    IF iv_name IS INITIAL." in active
    assert "    greeting_for(\n      EXPORTING iv_name = iv_name" in active
    assert emulator.locks() == []


async def test_a_colleagues_lock_writes_nothing(emulator: Emulator) -> None:
    before = emulator.source(MAIN)
    async with bridge(emulator) as client:
        colleague = make_client(emulator, "COLLEAGUE")
        lock = await colleague.lock(GREETER)
        try:
            refused = await error(client, "navigate", **_if_block(emulator), newName="greeting")
            assert refused["name"] == "OBJECT_LOCKED" and "ZCL_DEMO_GREETER" in refused["error"]
            assert refused["error"].startswith("nothing was extracted"), refused["error"]
        finally:
            await colleague.unlock(GREETER, lock.handle)
            await colleague.close()
    assert emulator.source(MAIN) == before
    assert emulator.locks() == []


async def test_extract_answers_to_the_write_policy(emulator: Emulator) -> None:
    before = emulator.source(MAIN)
    policy = WritePolicy(allow=("$ZDEMO",), allow_objects=("ZCL_DEMO_COUNTER",))
    async with bridge(emulator, policy=policy) as client:
        refused = await error(client, "navigate", **_if_block(emulator), newName="greeting")
        assert refused["name"] == "WRITE_REFUSED"
        planned = await call(client, "navigate", **_if_block(emulator), preview=True)
        assert planned["ok"] and planned["data"]["written"] is False, "a preview only reads"
    assert emulator.source(MAIN) == before
    assert emulator.locks() == []


async def test_a_bad_selection_is_refused_in_words(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        block = _if_block(emulator)
        backwards = {**block, "startLine": block["endLine"], "endLine": block["startLine"]}
        refused = await error(client, "navigate", **backwards)
        assert refused["name"] == "INVALID_ARGUMENT" and "startLine..endLine" in refused["error"]
        missing = await error(client, "navigate", action="extract", objectUrl=GREETER, startLine=3)
        assert "startLine and endLine" in missing["error"]
        half = await error(client, "navigate", **{**block, "endLine": block["startLine"]})
        assert "block" in half["error"], half  # half an IF: ADT's reason, in words
    assert emulator.locks() == []
