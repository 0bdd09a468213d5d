"""An agent changes a message of a class in a transportable package and on no request:
``setObjectSourceV2`` without ``transport`` is refused with TRANSPORT_REQUIRED naming the
requests that fit (nothing written); with one of them the message lands on that request."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.emulated import make_client
from support.mcp_calls import call, error
from support.mcp_memory import bridge
from support.transportable_msag import (
    MSAG,
    PACKAGE,
    recorded_on,
    release_seeded_request,
    transportable_message_class,
)

from adt.emulator import Emulator


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return transportable_message_class(tmp_path)


async def _texts(emulator: Emulator) -> dict[str, str]:
    async with make_client(emulator) as adt:
        document = await adt.dictionary.read(MSAG)
    return {m["number"]: m["text"] for m in document.fields["messages"]}


async def test_a_message_change_names_the_requests_then_lands_on_one(emulator: Emulator) -> None:
    await release_seeded_request(emulator)
    mine = emulator.create_transport_request("Messages")
    before = await _texts(emulator)
    async with bridge(emulator) as client:
        found = await call(client, "grepObjectSource", objectUrl=MSAG, pattern='msgtext="')
        line = found["data"]["matches"][0]["lineNumber"]
        read = (
            await call(client, "getObjectSourceV2", objectUrl=MSAG, startLine=line, endLine=line)
        )["data"]
        change = {
            "objectUrl": MSAG,
            "token": read["token"],
            "startLine": line,
            "endLine": line,
            "content": re.sub(
                r'msgtext="[^"]*"', 'msgtext="Trip &amp;1 is gone."', read["content"].rstrip("\n")
            ),
        }
        refused = await error(client, "setObjectSourceV2", **change)
        assert refused["name"] == "TRANSPORT_REQUIRED", refused
        assert mine in {c["number"] for c in refused["details"]["candidates"]}
        assert refused["details"]["package"] == PACKAGE
        assert await _texts(emulator) == before  # nothing written
        written = await call(client, "setObjectSourceV2", **change, transport=mine)
        assert written["ok"], written
    assert (await _texts(emulator))["001"] == "Trip &1 is gone."
    assert recorded_on(emulator, mine)
    assert emulator.locks() == []
