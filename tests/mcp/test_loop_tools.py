"""The development-loop tools through the official MCP client (in memory): the whole loop,
every new error code, symbol-level edits, explicit deletion, navigation, history."""

from __future__ import annotations

import json

import pytest
from mcp import Client
from support.emulated import GREETER, REPORT
from support.mcp_calls import call, development_loop, error
from support.mcp_memory import bridge

from adt.agent import WritePolicy
from adt.emulator import Emulator

REPORT_SOURCE = f"{REPORT}/source/main"


async def test_from_a_new_class_to_green_tests_on_a_transport(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        figures = await development_loop(client, emulator)
    assert figures["calls"] >= 14 and figures["adtRequests"] > figures["calls"]


async def test_the_new_error_codes(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        required = await error(
            client,
            "manageObject",
            action="create",
            kind="program",
            name="ZAGENT_TR",
            description="x",
            package="ZDEMO_TR",
        )
        assert (required["code"], required["name"]) == (4019, "TRANSPORT_REQUIRED")
        assert required["details"]["candidates"], "the refusal names the requests that fit"
        invalid = await error(
            client,
            "manageObject",
            action="create",
            kind="program",
            name="ZAGENT_TR",
            description="x",
            package="ZDEMO_TR",
            transport="A4HK999999",
        )
        assert (invalid["code"], invalid["name"]) == (4020, "TRANSPORT_INVALID")
        missing = await error(client, "getObjectSourceV2", objectUrl=GREETER, symbol="nope")
        assert (missing["code"], missing["name"]) == (4021, "SYMBOL_NOT_FOUND")
        assert "zcl_demo_greeter=>greet_all" in missing["details"]["candidates"]
        taken = await error(
            client,
            "manageObject",
            action="create",
            kind="class",
            name="ZCL_DEMO_GREETER",
            description="x",
            package="$ZDEMO",
        )
        assert (taken["code"], taken["name"]) == (4022, "NAME_REFUSED")
        assert (await call(client, "searchObjects", query="ZAGENT_TR"))["data"]["count"] == 0
    assert emulator.locks() == []


async def _report_read(client: Client) -> dict[str, object]:
    return (await call(client, "getObjectSourceV2", objectUrl=REPORT))["data"]


async def test_empty_content_is_one_empty_line_and_deleting_is_explicit(
    emulator: Emulator,
) -> None:
    async with bridge(emulator) as client:
        before = await _report_read(client)
        lines = str(before["content"]).split("\n")
        kept = await call(
            client,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=before["token"],
            startLine=2,
            endLine=2,
            content="",
        )
        assert kept["ok"] and kept["data"]["newRange"] == [2, 2]
        after = str((await _report_read(client))["content"]).split("\n")
        assert after == [lines[0], "", *lines[2:]]
        deleted = await call(
            client,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=kept["data"]["token"],
            startLine=2,
            endLine=3,
            delete=True,
        )
        assert deleted["ok"]
        also = await call(
            client,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=deleted["data"]["token"],
            startLine=1,
            endLine=1,
            content=None,
        )
        assert also["ok"]
        assert str((await _report_read(client))["content"]).split("\n") == after[3:]
        vague = await error(
            client,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=also["data"]["token"],
            startLine=1,
            endLine=1,
        )
        assert vague["name"] == "INVALID_ARGUMENT" and "delete" in vague["error"]
        both = await error(
            client,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=also["data"]["token"],
            startLine=1,
            endLine=1,
            content="x",
            delete=True,
        )
        assert both["name"] == "INVALID_ARGUMENT"


async def test_refusals_name_the_right_code(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        long_url = await error(
            client, "getObjectSourceV2", objectUrl="/sap/bc/adt/programs/programs/" + "z" * 3000
        )
        assert long_url["name"] == "INVALID_ARGUMENT"
        flags = await error(client, "grepObjectSource", objectUrl=REPORT, pattern="(?V1)a")
        assert flags["name"] == "PATTERN_INVALID"
        read = await _report_read(client)
        for bad in ("WRITE 'a\x00'.", "WRITE 'a'.\x1b", "x\x7f", "x\x85y", "x\x9b2J"):
            refused = await error(
                client,
                "setObjectSourceV2",
                objectUrl=REPORT,
                token=read["token"],
                startLine=1,
                endLine=1,
                content=bad,
            )
            assert refused["name"] == "INVALID_ARGUMENT" and "control character" in refused["error"]
        for code in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]:
            hidden = f'IF is_admin = abap_true. " {chr(code)}check\nENDIF.'
            refused = await error(
                client,
                "setObjectSourceV2",
                objectUrl=REPORT,
                token=read["token"],
                startLine=3,
                endLine=3,
                content=hidden,
            )
            assert refused["name"] == "INVALID_ARGUMENT", hex(code)
            assert refused["details"]["line"] == 3 and refused["details"]["column"] == 28
            assert f"bidirectional override U+{code:04X}" in refused["error"]
        v1 = await error(
            client,
            "setObjectSource",
            objectSourceUrl=f"{REPORT}/source/main",
            source="REPORT x.\n\u202eWRITE 1.",
        )
        assert v1["name"] == "INVALID_ARGUMENT" and "line 2 contains" in v1["error"], v1
        replace = await error(
            client,
            "replaceInObjectSource",
            objectUrl=REPORT,
            oldString="REPORT",
            newString="REPORT\x00",
        )
        assert replace["name"] == "INVALID_ARGUMENT"
        assert (await _report_read(client))["content"] == read["content"], "nothing written"
    assert emulator.locks() == []


async def test_every_answer_counts_its_adt_requests(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        cold = await call(client, "getObjectSourceV2", objectUrl=REPORT)
        warm = await call(client, "getObjectSourceV2", objectUrl=REPORT)
        refused = await error(client, "getObjectSourceV2", objectUrl="/not/adt")
    assert cold["adtRequests"] >= 1
    assert warm["adtRequests"] == 0, "a cached read costs no request"
    assert refused["adtRequests"] == 0


async def test_navigation_by_name_and_by_position(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        named = await call(
            client, "navigate", action="definition", name="ZCL_DEMO_GREETER=>greet_all"
        )
        assert named["data"]["symbol"]["symbol"] == "zcl_demo_greeter=>greet_all"
        assert named["data"]["line"] == 44
        jump = await call(
            client,
            "navigate",
            action="definition",
            objectUrl=GREETER,
            line=39,
            identifier="capitalize",
        )
        data = jump["data"]
        assert data["found"] and data["sourceUrl"].endswith("/includes/definitions")
        assert "capitalize" in data["lineText"].lower()
        assert data["symbol"]["kind"] in ("class definition", "section")
        nothing = await call(
            client, "navigate", action="definition", objectUrl=GREETER, line=36, identifier="IF"
        )
        assert nothing["data"]["found"] is False
        first = await call(client, "navigate", action="usages", name="ZIF_DEMO_GREETING", limit=2)
        assert first["data"]["total"] == 4 and len(first["data"]["usages"]) == 2
        assert first["data"]["nextOffset"] == 2 and first["data"]["truncated"]
        rest = await call(client, "navigate", action="usages", name="ZIF_DEMO_GREETING", offset=2)
        # the name lookup again (1 request), not the where-used search and its snippets
        assert first["adtRequests"] == 3 and rest["adtRequests"] == 1
        assert len(rest["data"]["usages"]) == 2
        lines = {(u["line"], u["column"]) for u in first["data"]["usages"] + rest["data"]["usages"]}
        assert len(lines) == 4
        wrong = await error(
            client, "navigate", action="usages", objectUrl=GREETER, line=36, identifier="nothere"
        )
        assert wrong["name"] == "INVALID_ARGUMENT" and "does not contain" in wrong["error"]
        unknown = await error(client, "navigate", action="definition", name="ZCL_NOPE_NOT_HERE")
        assert unknown["name"] == "OBJECT_NOT_FOUND"


async def test_history_and_quality_reads(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        read = await _report_read(client)
        await call(
            client,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=read["token"],
            startLine=1,
            endLine=0,
            content="* a draft comment",
        )
        inactive = await call(client, "history", action="inactive")
        assert REPORT in [o["objectUrl"] for o in inactive["data"]["objects"]]
        diff = await call(client, "history", action="diff", objectUrl=REPORT)
        assert diff["data"]["added"] == 1 and "+* a draft comment" in diff["data"]["lines"]
        versions = await call(client, "history", action="versions", objectUrl=REPORT)
        assert versions["data"]["versions"][0]["label"] == "inactive version"
        atc = await call(client, "syntaxCheck", kind="atc", objectUrl=REPORT)
        assert atc["data"]["variant"] == "DEFAULT" and "total" in atc["data"]
        unit = await call(client, "syntaxCheck", kind="unit", objectUrl=GREETER)
        assert unit["data"]["green"] and unit["data"]["tests"] == 3
        package = await call(client, "syntaxCheck", kind="unit", package="$ZDEMO", limit=1)
        assert package["data"]["tests"] >= 3
        syntax_only = await error(client, "syntaxCheck", package="$ZDEMO")
        assert syntax_only["name"] == "INVALID_ARGUMENT"


@pytest.mark.parametrize(
    "policy",
    [WritePolicy(read_only=True), WritePolicy(allow=("$ZDEMO",), allow_objects=("ZCL_OK*",))],
)
async def test_the_write_policy_covers_creation_and_transports(
    emulator: Emulator, policy: WritePolicy
) -> None:
    async with bridge(emulator, policy=policy) as client:
        refused = await error(
            client,
            "manageObject",
            action="create",
            kind="program",
            name="ZNOT_ALLOWED",
            description="x",
            package="$ZDEMO",
        )
        assert refused["name"] == "WRITE_REFUSED"
        listing = await call(client, "transports", action="list")
        assert listing["ok"], "reading transports is no write"
        if policy.read_only:
            made = await error(
                client, "transports", action="create", description="x", package="ZDEMO_TR"
            )
            assert made["name"] == "WRITE_REFUSED"
        else:
            allowed = await call(
                client,
                "manageObject",
                action="create",
                kind="program",
                name="ZCL_OK_PROG",
                description="x",
                package="$ZDEMO",
            )
            assert allowed["ok"], allowed
    assert emulator.locks() == []


async def test_the_tool_list_stays_within_16_kb(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        tools = (await client.list_tools()).tools
    listed = json.dumps(
        [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in tools],
        separators=(",", ":"),
        ensure_ascii=False,
    ).encode()
    assert len(tools) == 16
    assert len(listed) <= 16 * 1024, f"the tool list costs {len(listed)} bytes"


async def test_the_instructions_say_once_what_every_tool_shares(emulator: Emulator) -> None:
    """system, workspace and TYPE:NAME are explained once, not in each of the 16 schemas."""
    async with bridge(emulator) as client:
        tools = (await client.list_tools()).tools
        said = client.instructions or ""
    assert all(t.input_schema["properties"]["system"] == {"type": "string"} for t in tools)
    for meaning in ("system (a configured SAP", "workspace (the editor window", "TYPE:NAME"):
        assert meaning in said
