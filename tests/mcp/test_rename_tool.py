"""Rename for agents: ``navigate`` with ``action: rename`` through the official MCP client
(in memory). The answer lists, per object, the sources with the changed lines and new
tokens; every object answers to the write policy; a colleague's change writes nothing."""

from __future__ import annotations

from pathlib import Path

from support.cds_loop import cds_emulator
from support.cds_samples import TRAVEL_VIEW
from support.emulated import GREETER, make_client
from support.mcp_calls import call, error
from support.mcp_memory import bridge

from adt.agent import WritePolicy
from adt.emulator import Emulator

MAIN = f"{GREETER}/source/main"
TESTS = f"{GREETER}/includes/testclasses"
INTF = "/sap/bc/adt/oo/interfaces/zif_demo_greeting"
#: ``METHOD zif_demo_greeting~greet.`` in the class: renaming it changes the interface too
IMPLEMENTED_GREET = {"action": "rename", "objectUrl": GREETER, "line": 34, "identifier": "greet"}


async def test_rename_by_name_lists_every_object_with_new_tokens(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        planned = await call(
            client,
            "navigate",
            action="rename",
            name="ZCL_DEMO_GREETER=>GREET_ALL",
            newName="greet_each",
            preview=True,
        )
        assert planned["ok"], planned
        assert planned["data"]["written"] is False
        assert "greet_each" not in (emulator.source(MAIN) or "")
        done = await call(
            client,
            "navigate",
            action="rename",
            name="ZCL_DEMO_GREETER=>GREET_ALL",
            newName="greet_each",
        )
        assert done["ok"], done
        data = done["data"]
        assert (data["oldName"], data["newName"], data["written"]) == (
            "greet_all",
            "greet_each",
            True,
        )
        assert data["activated"] is True
        [greeter] = data["objects"]
        sources = {s["sourceUrl"]: s for s in greeter["sources"]}
        assert set(sources) == {MAIN, TESTS}
        read = await call(client, "getObjectSourceV2", objectSourceUrl=TESTS)
        assert sources[TESTS]["token"] == read["data"]["token"], "the new token, usable at once"
        assert "mo_cut->greet_each(" in read["data"]["content"]
    assert emulator.locks() == []


async def test_rename_answers_to_the_policy_for_every_object(emulator: Emulator) -> None:
    policy = WritePolicy(allow=("$ZDEMO",), allow_objects=("ZCL_DEMO_GREETER",))
    async with bridge(emulator, policy=policy) as client:
        refused = await error(client, "navigate", **IMPLEMENTED_GREET, newName="salute")
        assert refused["name"] == "WRITE_REFUSED" and "ZIF_DEMO_GREETING" in refused["error"]
    assert "salute" not in (emulator.source(MAIN) or "").lower()
    assert emulator.locks() == []


async def test_a_rename_by_name_answers_to_the_policy_object_by_object(emulator: Emulator) -> None:
    """By name there is no objectUrl to check up front: each object the rename would write
    answers to the policy (one allowed, one not; and one allowed alone)."""
    narrow = WritePolicy(allow=("$ZDEMO",), allow_objects=("ZCL_DEMO_GREETER",))
    by_name = {"action": "rename", "name": "ZIF_DEMO_GREETING=>GREET", "newName": "salute"}
    async with bridge(emulator, policy=narrow) as client:
        refused = await error(client, "navigate", **by_name)
        assert refused["name"] == "WRITE_REFUSED" and "ZIF_DEMO_GREETING" in refused["error"]
    assert "salute" not in (emulator.source(MAIN) or "").lower()
    wide = WritePolicy(allow=("$ZDEMO",))
    async with bridge(emulator, policy=wide) as client:
        done = await call(client, "navigate", **by_name)
        assert done["ok"], done
    assert "salute" in (emulator.source(MAIN) or "").lower()
    assert emulator.locks() == []


async def test_a_colleagues_lock_writes_nothing(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        colleague = make_client(emulator, "COLLEAGUE")
        lock = await colleague.lock(INTF)
        try:
            refused = await error(client, "navigate", **IMPLEMENTED_GREET, newName="salute")
            assert "nothing was renamed" in refused["error"]
            assert "ZIF_DEMO_GREETING" in refused["error"]
        finally:
            await colleague.unlock(INTF, lock.handle)
            await colleague.close()
    assert "salute" not in (emulator.source(MAIN) or "").lower()
    assert emulator.locks() == []


async def test_a_class_renamed_by_name_becomes_a_new_object(emulator: Emulator) -> None:
    new = "/sap/bc/adt/oo/classes/zcl_demo_hello"
    report = "/sap/bc/adt/programs/programs/zdemo_report/source/main"
    async with bridge(emulator) as client:
        planned = await call(
            client,
            "navigate",
            action="rename",
            name="ZCL_DEMO_GREETER",
            newName="zcl_demo_hello",
            preview=True,
        )
        assert planned["ok"], planned
        renamed = {o["objectUrl"]: o for o in planned["data"]["objects"]}
        assert renamed[new]["renamedFrom"] == GREETER
        assert emulator.source(f"{new}/source/main") is None, "a preview writes nothing"
        taken = await error(
            client, "navigate", action="rename", name="ZCL_DEMO_GREETER", newName="zcl_demo_counter"
        )
        assert "ZCL_DEMO_COUNTER already exists" in taken["error"]
        done = await call(
            client, "navigate", action="rename", name="ZCL_DEMO_GREETER", newName="zcl_demo_hello"
        )
        assert done["ok"], done
        data = done["data"]
        assert (data["oldName"], data["written"], data["activated"]) == (
            "zcl_demo_greeter",
            True,
            True,
        )
        objects = {o["objectUrl"]: o for o in data["objects"]}
        assert set(objects) == {new, "/sap/bc/adt/programs/programs/zdemo_report"}
        sources = {s["sourceUrl"]: s for s in objects[new]["sources"]}
        read = await call(client, "getObjectSourceV2", objectSourceUrl=f"{new}/source/main")
        assert read["data"]["content"].startswith("CLASS zcl_demo_hello DEFINITION")
        assert sources[f"{new}/source/main"]["token"] == read["data"]["token"]
        assert "NEW zcl_demo_hello( )" in (emulator.source(report, "active") or "")
        assert emulator.source(MAIN) is None
    assert emulator.locks() == []


async def test_a_cds_alias_is_renamed_in_the_view_and_what_builds_on_it(tmp_path: Path) -> None:
    emulator = cds_emulator(tmp_path)
    view = "/sap/bc/adt/ddic/ddl/sources/zi_travel"
    line = next(n for n, t in enumerate(TRAVEL_VIEW.split("\n"), 1) if "as AgencyID" in t)
    async with bridge(emulator) as client:
        done = await call(
            client,
            "navigate",
            action="rename",
            objectUrl=view,
            line=line,
            identifier="AgencyID",
            newName="AgencyCode",
        )
        assert done["ok"], done
        names = {(o["objectUrl"].rsplit("/", 3)[-3], o["name"]) for o in done["data"]["objects"]}
        assert names == {
            ("ddl", "ZI_TRAVEL"),
            ("ddl", "ZC_TRAVEL"),
            ("ddlx", "ZC_TRAVEL"),
            ("bo", "ZI_TRAVEL"),
            ("dcl", "ZI_TRAVEL"),
        }
        assert done["data"]["activated"] is True
        assert "as AgencyCode," in (emulator.source(f"{view}/source/main", "active") or "")
    assert emulator.locks() == []


async def test_the_new_class_answers_to_the_policy_too(emulator: Emulator) -> None:
    policy = WritePolicy(allow=("$ZDEMO",), allow_objects=("ZCL_DEMO_GREETER", "ZDEMO_REPORT"))
    async with bridge(emulator, policy=policy) as client:
        refused = await error(
            client,
            "navigate",
            action="rename",
            objectUrl=GREETER,
            line=1,
            identifier="zcl_demo_greeter",
            newName="zcl_demo_hello",
        )
        assert refused["name"] == "WRITE_REFUSED" and "ZCL_DEMO_HELLO" in refused["error"]
    assert emulator.source("/sap/bc/adt/oo/classes/zcl_demo_hello/source/main") is None
    assert emulator.source(MAIN) is not None
    assert emulator.locks() == []


async def test_a_service_alias_and_an_element_from_abap_are_renamed(tmp_path: Path) -> None:
    emulator = cds_emulator(tmp_path)
    service = "/sap/bc/adt/ddic/srvd/sources/zui_travel"
    report = "/sap/bc/adt/programs/programs/zr_travels"
    async with bridge(emulator) as client:
        alias = await call(
            client,
            "navigate",
            action="rename",
            objectUrl=service,
            line=3,
            identifier="Travel",
            newName="Trips",
        )
        assert alias["ok"], alias
        assert [o["name"] for o in alias["data"]["objects"]] == ["ZUI_TRAVEL"]
        assert "expose ZC_Travel as Trips;" in (
            emulator.source(f"{service}/source/main", "active") or ""
        )
        element = await call(
            client,
            "navigate",
            action="rename",
            objectUrl=report,
            line=2,
            identifier="totalprice",
            newName="GrossPrice",
        )
        assert element["ok"], element
        names = {o["name"] for o in element["data"]["objects"]}
        assert names == {"ZI_TRAVEL", "ZC_TRAVEL", "ZR_TRAVELS"}
        assert "SELECT travelid, GrossPrice FROM zc_travel" in (
            emulator.source(f"{report}/source/main", "active") or ""
        )
    assert emulator.locks() == []
