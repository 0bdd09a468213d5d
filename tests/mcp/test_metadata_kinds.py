"""An agent on the metadata kinds (official MCP client, in memory): ``objectStructure``
answers a data element's facts compactly, and its label is found with
``grepObjectSource`` and changed with a token-checked ``setObjectSourceV2`` on the
object's document; a stale token writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.emulated import USERS, make_client
from support.mcp_calls import call, error
from support.mcp_memory import bridge

from adt.emulator import Emulator

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kinds" / "$zkinds"
DTEL = "/sap/bc/adt/ddic/dataelements/zkinds_trip_id"


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(seed_dirs=[FIXTURE], users=USERS)


async def test_facts_grep_and_a_token_checked_label_change(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        facts = (await call(client, "objectStructure", objectUrl="DTEL:ZKINDS_TRIP_ID"))["data"]
        assert facts["objectUrl"] == DTEL and facts["fields"]["labels"]["medium"]["text"]
        found = await call(client, "grepObjectSource", objectUrl=DTEL, pattern="mediumFieldLabel>")
        line = found["data"]["matches"][0]["lineNumber"]
        read = (
            await call(client, "getObjectSourceV2", objectUrl=DTEL, startLine=line, endLine=line)
        )["data"]
        old = facts["fields"]["labels"]["medium"]["text"]
        new = read["content"].rstrip("\n").replace(f">{old}<", ">Trip number<")
        written = await call(
            client,
            "setObjectSourceV2",
            objectUrl=DTEL,
            token=read["token"],
            startLine=line,
            endLine=line,
            content=new,
        )
        assert written["ok"], written
        stale = await error(
            client,
            "setObjectSourceV2",
            objectUrl=DTEL,
            token="0" * len(read["token"]),
            startLine=line,
            endLine=line,
            content=read["content"].rstrip("\n"),
        )
        assert stale["name"] in {"VERSION_CONFLICT", "TOKEN_INVALID"}, stale
    async with make_client(emulator) as adt:
        assert (await adt.dictionary.read(DTEL)).fields["labels"]["medium"]["text"] == "Trip number"
    assert emulator.locks() == []
