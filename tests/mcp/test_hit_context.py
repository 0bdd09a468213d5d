"""Answers that point at lines say where they are: grep matches and where-used hits name the
part they are in (``in``), and a read warns of an inactive draft (``draft``) — each one field,
so the agent needs no second call to find out."""

from __future__ import annotations

from support.emulated import GREETER, REPORT
from support.mcp_calls import call, error
from support.mcp_memory import bridge

from adt.emulator import Emulator


async def test_grep_matches_name_the_method_they_are_in(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        found = await call(client, "grepObjectSource", objectUrl=GREETER, pattern=r"greet\(")
        matches = found["data"]["matches"]
        assert matches, found
        inside = [m for m in matches if m.get("in") == "zcl_demo_greeter=>greet_all"]
        assert inside, matches
        read = await call(client, "getObjectSourceV2", objectUrl=GREETER, symbol=inside[0]["in"])
        symbol = read["data"]["symbol"]
        assert symbol["startLine"] <= inside[0]["lineNumber"] <= symbol["endLine"]


async def test_where_used_hits_name_the_part_they_are_in(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        found = await call(client, "navigate", action="usages", name="ZCL_DEMO_GREETER=>greet_all")
        usages = found["data"]["usages"]
        assert usages and all("in" in u for u in usages), usages
        in_test = [u for u in usages if u["sourceUrl"].endswith("/includes/testclasses")]
        assert in_test and in_test[0]["in"] == "ltcl_greeter=>greets_everyone", usages


async def test_a_read_warns_of_an_inactive_draft(emulator: Emulator) -> None:
    source_url = f"{REPORT}/source/main"
    emulator.write_as("COLLEAGUE", source_url, (emulator.source(source_url) or "") + "\n*")
    async with bridge(emulator) as client:
        active = await call(client, "getObjectSourceV2", objectUrl=GREETER, startLine=1, endLine=2)
        assert "draft" not in active["data"], "an active source has no draft"
        drafted = await call(client, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=2)
        draft = drafted["data"]["draft"]
        assert draft["version"] == "inactive" and draft["changedBy"] == "COLLEAGUE"
        assert draft["changedAt"] // 1000 == drafted["data"]["changedAt"] // 1000
        written = await call(  # our own save: the draft is ours now, and the read says so
            client,
            "setObjectSourceV2",
            objectUrl=GREETER,
            token=active["data"]["token"],
            startLine=1,
            endLine=0,
            content="* agent",
        )
        assert written["ok"], written
        ours = await call(client, "getObjectSourceV2", objectUrl=GREETER, startLine=1, endLine=1)
        assert ours["data"]["draft"]["changedBy"] == "DEVELOPER"
    assert emulator.locks() == []


async def test_a_package_search_names_the_part_of_each_hit(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        found = await call(
            client, "grepObjectSource", package="$ZDEMO", pattern="mv_salutation =", maxMatches=1
        )
        [hit] = found["data"]["hits"]
        assert (
            hit["objectUrl"].endswith("zcl_demo_greeter")
            and hit["in"] == "zcl_demo_greeter=>constructor"
        )
        assert "nextOffset" not in found["data"], "the one assignment in the package"
        both = await error(
            client, "grepObjectSource", package="$ZDEMO", objectUrl="CLAS:ZCL_X", pattern="x"
        )
        assert both["name"] == "INVALID_ARGUMENT"
