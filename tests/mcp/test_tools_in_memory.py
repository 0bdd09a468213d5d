"""The MCP bridge with the SDK's in-memory client: every tool and every error code."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from mcp import Client
from support.emulated import GREETER, LARGE, REPORT, USERS
from support.mcp_calls import agent_workflow, call, conflict_workflow, error

from adt import AdtClient, ConnectionProfile
from adt.agent import WritePolicy
from adt.emulator import Emulator
from adt.source import SourceConfig
from adt.source.errors import ALL_ERRORS
from adt.systems import Connections, SystemsConfig
from mcp_bridge.server import make_bridge

REPORT_SOURCE = f"{REPORT}/source/main"
COUNTER = "/sap/bc/adt/oo/classes/zcl_demo_counter"
MODES = ["auto", "legacy"]


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(users=USERS)


def _connections(emulator: Emulator, **config: Any) -> Connections:
    profile = ConnectionProfile(
        base_url="http://emulator", user="DEVELOPER", password=USERS["DEVELOPER"], name="A4H"
    )
    return Connections(
        SystemsConfig({"A4H": profile}),
        source_config=SourceConfig(retry_delays=(0.0,), **config),
        client_factory=lambda p: AdtClient(p, transport=httpx.ASGITransport(app=emulator.app)),
    )


@contextlib.asynccontextmanager
async def bridge(
    emulator: Emulator, mode: str = "auto", policy: WritePolicy | None = None, **options: Any
) -> AsyncIterator[Client]:
    limit = options.pop("max_response_chars", None)
    server = make_bridge(
        connections=_connections(emulator, **options),
        policy=policy or WritePolicy(),
        passthrough=False,
        max_response_chars=limit,
    )
    async with Client(server, mode=mode) as client:
        yield client


@pytest.mark.parametrize("mode", MODES)
async def test_tool_list_is_compact_and_annotated(emulator: Emulator, mode: str) -> None:
    async with bridge(emulator, mode) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert len(tools) == 12
    assert tools["getObjectSourceV2"].annotations.read_only_hint is True  # type: ignore[union-attr]
    assert tools["setObjectSourceV2"].annotations.destructive_hint is True  # type: ignore[union-attr]
    assert tools["lock"].annotations.read_only_hint is False  # type: ignore[union-attr]
    for tool in tools.values():
        assert tool.description and tool.input_schema["additionalProperties"] is False
        assert "system" in tool.input_schema["properties"]
    size = len(
        json.dumps(
            [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in tools.values()],
            separators=(",", ":"),
        )
    )
    assert size < 12_000, f"the tool list costs {size} bytes"


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
        emulator.write_as("COLLEAGUE", REPORT_SOURCE, report["data"]["content"] + "\n*")
        seen.add(
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
    v2_codes = {cls.code for cls in ALL_ERRORS if cls.code <= 4008}
    assert v2_codes <= seen, f"missing: {sorted(v2_codes - seen)}"
    assert {4009, 4011, 4012, 4013, 4014, 4015, 4018} <= seen
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


async def test_unknown_system_lists_the_configured_ones(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        unknown = await error(client, "searchObjects", query="Z*", system="PRD")
    assert unknown["name"] == "UNKNOWN_SYSTEM" and unknown["details"]["available"] == ["A4H"]
    assert "A4H" in unknown["error"]
