"""The MCP bridge with the SDK's in-memory client: every tool and every error code."""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
from mcp import Client
from support.emulated import GREETER, LARGE, REPORT
from support.mcp_calls import agent_workflow, call, conflict_workflow, error
from support.mcp_memory import bridge, emulator_connections

from adt import AdtClient, ConnectionProfile
from adt.agent import AgentTools, WritePolicy
from adt.emulator import Emulator
from adt.source import SourceConfig
from adt.source.errors import ALL_ERRORS
from adt.systems import BridgeSettings, Connections, Settings, SystemsConfig
from mcp_bridge.server import make_bridge

REPORT_SOURCE = f"{REPORT}/source/main"
COUNTER = "/sap/bc/adt/oo/classes/zcl_demo_counter"
MODES = ["auto", "legacy"]


def _closed_port() -> int:
    """A 127.0.0.1 port nobody listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextlib.asynccontextmanager
async def standalone(profile: ConnectionProfile) -> AsyncIterator[Client]:
    """A bridge on a real ADT client (no retries) for ``profile``: to see ADT-level failures."""
    server = make_bridge(
        connections=Connections(
            SystemsConfig({"A4H": profile}),
            source_config=SourceConfig(retry_delays=()),
            client_factory=lambda p: AdtClient(p.with_options(retry_delays=())),
        ),
        passthrough=False,
    )
    async with Client(server) as client:
        yield client


@pytest.mark.parametrize("mode", MODES)
async def test_tool_list_is_compact_and_annotated(emulator: Emulator, mode: str) -> None:
    async with bridge(emulator, mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert len(tools) == 16
    assert tools["getObjectSourceV2"].annotations.read_only_hint is True  # type: ignore[union-attr]
    assert tools["setObjectSourceV2"].annotations.destructive_hint is True  # type: ignore[union-attr]
    assert not tools["lock"].annotations.read_only_hint  # type: ignore[union-attr]
    for tool in tools.values():
        assert tool.description and tool.input_schema["additionalProperties"] is False
        assert "system" in tool.input_schema["properties"]
    size = len(
        json.dumps(
            [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in tools.values()],
            separators=(",", ":"),
        )
    )
    assert size <= 16 * 1024, f"the tool list costs {size} bytes"


@pytest.mark.parametrize("mode", MODES)
async def test_agent_workflow(emulator: Emulator, mode: str) -> None:
    async with bridge(emulator, mode) as client:
        await agent_workflow(client, emulator)
    assert emulator.locks() == []


@pytest.mark.parametrize("mode", MODES)
async def test_conflict_workflow(emulator: Emulator, mode: str) -> None:
    async with bridge(emulator, mode) as client:
        await conflict_workflow(client, emulator)


async def test_every_other_tool(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        structure = await call(client, "objectStructure", objectUrl=GREETER)
        assert "testclasses" in [i["includeType"] for i in structure["data"]["includes"]]
        search = await call(client, "searchObjects", query="ZDEMO*", maxResults=5)
        assert 0 < search["data"]["count"] <= 5
        v1 = await call(client, "getObjectSource", objectSourceUrl=REPORT_SOURCE)
        assert v1["data"]["source"] == emulator.source(REPORT_SOURCE)
        v1_write = await call(
            client,
            "setObjectSource",
            objectSourceUrl=REPORT_SOURCE,
            source=v1["data"]["source"] + "\n* v1",
        )
        assert v1_write["ok"]
        first = v1["data"]["source"].split("\n")[5]
        replaced = await call(
            client,
            "replaceInObjectSource",
            objectUrl=REPORT,
            oldString=first,
            newString=first + ' " renamed',
        )
        assert replaced["ok"] and replaced["data"]["oldRange"] == [6, 6]
        check = await call(client, "syntaxCheck", objectUrl=REPORT, content="REPORT x.\nIF 1 = 1.")
        assert check["data"]["errorCount"] == 1 and check["data"]["findings"][0]["line"] == 2
        activated = await call(client, "activate", objectUrl=REPORT)
        assert activated["data"]["activated"] is True
        multi = await call(client, "getObjectSourceV2", objectUrl=REPORT)
        patches = [
            {"startLine": 1, "endLine": 0, "content": "* top"},
            {"startLine": 3, "endLine": 3, "content": "* third"},
        ]
        result = await call(
            client,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=multi["data"]["token"],
            patches=patches,
        )
        assert len(result["data"]["patches"]) == 2
    assert emulator.locks() == []


async def test_every_error_code(emulator: Emulator) -> None:
    seen: set[int] = set()
    async with bridge(emulator, cache_ttl_ms=0, strict_cache=True) as client:
        read = await call(client, "getObjectSourceV2", objectUrl=REPORT)
        token = read["data"]["token"]
        count = read["data"]["lineCount"]
        cases: list[tuple[str, dict[str, Any]]] = [
            (
                "setObjectSourceV2",
                {"objectUrl": REPORT, "token": token, "startLine": 1, "endLine": 1, "content": "x"},
            ),  # 4000 in strict mode
            (
                "setObjectSourceV2",
                {
                    "objectUrl": REPORT,
                    "token": "nonsense",
                    "startLine": 1,
                    "endLine": 1,
                    "content": "x",
                },
            ),
            ("getObjectSourceV2", {"objectUrl": REPORT, "startLine": count + 5}),
            ("grepObjectSource", {"objectUrl": REPORT, "pattern": "(unclosed"}),
            ("getObjectSourceV2", {"objectUrl": COUNTER, "includeType": "macros"}),
            ("getObjectSourceV2", {"objectSourceUrl": f"{REPORT}/includes/definitions"}),
            ("getObjectSourceV2", {"objectUrl": "/sap/bc/adt/programs/programs/znope"}),
            ("getObjectSourceV2", {"objectUrl": "https://evil.example/sap/bc/adt/x"}),
            (
                "replaceInObjectSource",
                {"objectUrl": REPORT, "oldString": "ENDFORM.", "newString": "ENDFORM. "},
            ),
            ("getObjectSourceV2", {"objectUrl": REPORT, "system": "PRD"}),
            ("noSuchTool", {}),
        ]
        for name, arguments in cases:
            seen.add((await error(client, name, **arguments))["code"])
    async with bridge(emulator) as client:
        read = await call(client, "getObjectSourceV2", objectUrl=GREETER, includeType="definitions")
        mismatch = await error(
            client,
            "setObjectSourceV2",
            objectUrl=GREETER,
            includeType="implementations",
            token=read["data"]["token"],
            startLine=1,
            endLine=0,
            content="x",
        )
        seen.add(mismatch["code"])
        report = await call(client, "getObjectSourceV2", objectUrl=REPORT)
        emulator.write_as("COLLEAGUE", REPORT_SOURCE, "*\n" + report["data"]["content"])
        seen.add(  # their line above ours touches it: no rebase
            (
                await error(
                    client,
                    "setObjectSourceV2",
                    objectUrl=REPORT,
                    token=report["data"]["token"],
                    startLine=1,
                    endLine=1,
                    content="x",
                )
            )["code"]
        )
        fresh = await call(client, "getObjectSourceV2", objectUrl=REPORT)
        lock = await call(client, "lock", objectUrl=REPORT)
        emulator.expire_contexts()
        seen.add(
            (
                await error(
                    client,
                    "setObjectSourceV2",
                    objectUrl=REPORT,
                    token=fresh["data"]["token"],
                    startLine=1,
                    endLine=1,
                    content="x",
                    lockHandle=lock["data"]["lockHandle"],
                )
            )["code"]
        )
        emulator.lock_as("COLLEAGUE", REPORT)
        seen.add(
            (
                await error(
                    client,
                    "setObjectSourceV2",
                    objectUrl=REPORT,
                    token=fresh["data"]["token"],
                    startLine=1,
                    endLine=1,
                    content="x",
                )
            )["code"]
        )
        emulator.unlock_as("COLLEAGUE", REPORT)
        emulator.faults.fail_next(status=500, method="GET", path_prefix=f"{LARGE}/source")
        seen.add((await error(client, "getObjectSourceV2", objectUrl=LARGE))["code"])
    async with bridge(emulator, policy=WritePolicy(read_only=True)) as client:
        seen.add((await error(client, "lock", objectUrl=REPORT))["code"])
    async with bridge(emulator) as client:  # the ABAP session that held a lock ends
        await call(client, "lock", objectUrl=REPORT)
        emulator.expire_contexts()
        expired = await error(client, "lock", objectUrl=GREETER)
        assert expired["name"] == "SESSION_EXPIRED" and expired["retryAction"] == "lock"
        seen.add(expired["code"])
    with emulator.serve_in_thread() as url:  # a wrong password: the server answers 401
        wrong = ConnectionProfile(base_url=url, user="DEVELOPER", password="wrong", name="A4H")  # type: ignore[arg-type]
        async with standalone(wrong) as client:
            refused = await error(client, "getObjectSourceV2", objectUrl=REPORT)
            assert refused["name"] == "AUTH_FAILED"
            seen.add(refused["code"])
    unreachable = ConnectionProfile(
        base_url=f"http://127.0.0.1:{_closed_port()}", user="DEVELOPER", password="x", name="A4H"
    )  # type: ignore[arg-type]
    async with standalone(unreachable) as client:
        down = await error(client, "getObjectSourceV2", objectUrl=REPORT)
        assert down["name"] == "NETWORK_ERROR" and down["retry"] is True
        seen.add(down["code"])
    # Every code of the source tools (4000-4018) reaches an agent through MCP; the codes of
    # the development loop (4019-4022) are proven by tests/mcp/test_loop_tools.py, 4023
    # (PREVIEW_REFUSED) by tests/mcp/test_cds_loop.py, 4024 (RELEASE_REFUSED) by
    # tests/mcp/test_transport_release.py.
    all_codes = {cls.code for cls in ALL_ERRORS}
    assert all_codes == set(range(4000, 4025))
    assert seen == set(range(4000, 4019)), f"missing: {sorted(set(range(4000, 4019)) - seen)}"
    assert emulator.locks() == []


async def test_truncation_says_so_and_how_to_continue(emulator: Emulator) -> None:
    async with bridge(emulator, max_response_chars=20_000) as client:
        read = await call(client, "getObjectSourceV2", objectUrl=LARGE)
        data = read["data"]
        assert data["truncated"] is True and data["nextStartLine"] == data["endLine"] + 1
        assert len(json.dumps(read)) <= 20_000
        rest = await call(
            client, "getObjectSourceV2", objectUrl=LARGE, startLine=data["nextStartLine"]
        )
        assert rest["data"]["startLine"] == data["nextStartLine"]
        v1 = await call(client, "getObjectSource", objectSourceUrl=f"{LARGE}/source/main")
        assert v1["data"]["truncated"] and "getObjectSourceV2" in v1["data"]["notes"][0]
        grep = await call(
            client,
            "grepObjectSource",
            objectUrl=LARGE,
            pattern="METHOD",
            contextLines=5,
            maxMatches=500,
        )
        assert grep["data"]["truncated"] is True and grep["data"]["nextStartLine"]
        assert grep["data"]["matchCount"] == len(grep["data"]["matches"]) < 500
        exact = await call(
            client, "grepObjectSource", objectUrl=REPORT, pattern="^REPORT", maxMatches=1
        )
        assert exact["data"]["matchCount"] == 1 and exact["data"]["truncated"] is False


async def test_read_only_and_allowlist(emulator: Emulator) -> None:
    async with bridge(emulator, policy=WritePolicy(read_only=True)) as client:
        read = await call(client, "getObjectSourceV2", objectUrl=REPORT)
        refused = await error(
            client,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=read["data"]["token"],
            startLine=1,
            endLine=1,
            content="x",
        )
        assert refused["name"] == "WRITE_REFUSED" and "read-only" in refused["error"]
        assert (await call(client, "syntaxCheck", objectUrl=REPORT))["ok"]
    async with bridge(emulator, policy=WritePolicy(allow=("ZDEMO_TR*",))) as client:
        read = await call(client, "getObjectSourceV2", objectUrl=REPORT)
        refused = await error(
            client,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=read["data"]["token"],
            startLine=1,
            endLine=1,
            content="x",
        )
        assert refused["details"]["package"] == "$ZDEMO" and "allowlist" in refused["error"]
        transportable = "/sap/bc/adt/programs/programs/zdemo_tr_report"
        tr = await call(client, "getObjectSourceV2", objectUrl=transportable)
        assert (
            await call(
                client,
                "setObjectSourceV2",
                objectUrl=transportable,
                token=tr["data"]["token"],
                startLine=1,
                endLine=0,
                content="* allowed",
            )
        )["ok"]
    assert emulator.source(REPORT_SOURCE) == read["data"]["content"]


async def test_the_allowlist_names_packages_not_objects(emulator: Emulator) -> None:
    """``--allow 'ZSANDBOX*'`` meant as a package once let an agent create and delete
    ZSANDBOX_EVIL in the transportable package ZDEMO_TR, matched by the object's name."""
    transportable = "/sap/bc/adt/programs/programs/zdemo_tr_report"
    before = emulator.source(f"{transportable}/source/main")
    async with bridge(emulator, policy=WritePolicy(allow=("ZSANDBOX*", "ZDEMO_TR_*"))) as client:
        created = await error(
            client,
            "manageObject",
            action="create",
            kind="program",
            name="ZSANDBOX_EVIL",
            description="x",
            package="ZDEMO_TR",
            transport="A4HK900001",
        )
        assert created["name"] == "WRITE_REFUSED" and created["details"]["package"] == "ZDEMO_TR"
        deleted = await error(client, "manageObject", action="delete", objectUrl=transportable)
        assert deleted["name"] == "WRITE_REFUSED" and "package ZDEMO_TR" in deleted["error"]
    assert emulator.source(f"{transportable}/source/main") == before
    async with bridge(emulator) as client:  # no allowlist: still only the kinds we create
        for url in (
            "/sap/bc/adt/packages/zdemo_tr",
            "/sap/bc/adt/packages/%24zdemo",
            "/sap/bc/adt/cts/transportrequests/A4HK900001",
            "/sap/bc/adt/ddic/tables/ztable",
        ):
            refused = await error(client, "manageObject", action="delete", objectUrl=url)
            assert refused["name"] in ("WRITE_REFUSED", "INVALID_ARGUMENT"), (url, refused)
    assert emulator.source(f"{transportable}/source/main") == before
    assert emulator.locks() == []


async def test_unknown_system_lists_the_configured_ones(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        unknown = await error(client, "searchObjects", query="Z*", system="PRD")
    assert unknown["name"] == "UNKNOWN_SYSTEM" and unknown["details"]["available"] == ["A4H"]
    assert "A4H" in unknown["error"]


async def test_search_says_when_max_results_cut_it(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        everything = await call(client, "searchObjects", query="Z*", maxResults=200)
        total = everything["data"]["count"]
        assert total > 2 and everything["data"]["truncated"] is False
        assert "notes" not in everything["data"]
        cut = await call(client, "searchObjects", query="Z*", maxResults=2)
        assert cut["data"]["count"] == 2 and cut["data"]["truncated"] is True
        assert "Narrow the query" in cut["data"]["notes"][0]
        exact = await call(client, "searchObjects", query="Z*", maxResults=total)
        assert exact["data"]["count"] == total and exact["data"]["truncated"] is False


async def test_search_cut_for_size_says_how_to_continue(emulator: Emulator) -> None:
    async with bridge(emulator, max_response_chars=1_500) as client:
        cut = await call(client, "searchObjects", query="Z*", maxResults=200)
    data = cut["data"]
    assert data["truncated"] is True and 0 < data["count"] < 10
    assert "response limit" in data["notes"][-1] and "narrow the query" in data["notes"][-1]
    assert len(json.dumps(cut)) <= 1_500


async def test_a_call_can_bring_its_own_response_limit(emulator: Emulator) -> None:
    tools = AgentTools(emulator_connections(emulator))
    try:
        default = await tools.call("getObjectSourceV2", {"objectUrl": LARGE})
        small = await tools.call(
            "getObjectSourceV2", {"objectUrl": LARGE}, max_response_chars=5_000
        )
    finally:
        await tools.connections.close()
    assert len(json.dumps(default.payload)) > 20_000
    assert small.payload["data"]["truncated"] is True
    assert len(json.dumps(small.payload)) <= 5_000


async def test_the_text_copy_of_answers_can_be_left_out(emulator: Emulator) -> None:
    """Clients that read structuredContent can save the second copy of every answer."""
    settings = Settings(bridge=BridgeSettings(text_content=False))
    server = make_bridge(settings, connections=emulator_connections(emulator), passthrough=False)
    async with Client(server) as client:
        result = await client.call_tool("getObjectSourceV2", {"objectUrl": REPORT, "endLine": 3})
    assert result.content == [] and not result.is_error
    assert result.structured_content is not None
    assert result.structured_content["data"]["endLine"] == 3
