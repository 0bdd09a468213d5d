"""Fuzzing the tool arguments: nothing crashes, and every failure is a clear error."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from support.emulated import REPORT, USERS

from adt import AdtClient, ConnectionProfile
from adt.agent import TOOLS, AgentTools
from adt.emulator import Emulator
from adt.source import SourceConfig
from adt.source.errors import ALL_ERRORS
from adt.systems import Connections, SystemsConfig
from mcp_bridge.server import make_bridge

CODES = {cls.code for cls in ALL_ERRORS}
NAMES = [tool.name for tool in TOOLS]
KEYS = sorted({key for tool in TOOLS for key in tool.input_schema["properties"]})

urls = st.sampled_from(
    [
        REPORT,
        f"{REPORT}/source/main",
        "/sap/bc/adt/oo/classes/zcl_demo_greeter",
        "/sap/bc/adt/oo/classes/zcl_demo_greeter/includes/definitions",
        "/sap/bc/adt/programs/programs/znope",
        "/sap/bc/adt/../../etc/passwd",
        "https://evil.example/sap/bc/adt/x",
        "/sap/bc/adt/x\r\nX: 1",
        "",
    ]
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    urls,
    st.sampled_from(["main", "definitions", "0_empty", "1_0123456789abcdef", "(", ".*"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=6,
)
arguments = st.dictionaries(
    st.one_of(st.sampled_from(KEYS), st.text(max_size=10)), values, max_size=6
)


def _connections(emulator: Emulator) -> Connections:
    profile = ConnectionProfile(
        base_url="http://emulator", user="DEVELOPER", password=USERS["DEVELOPER"], name="A4H"
    )  # type: ignore[arg-type]
    return Connections(
        SystemsConfig({"A4H": profile}),
        source_config=SourceConfig(retry_delays=(), grep_timeout_s=0.5),
        client_factory=lambda p: AdtClient(
            p.with_options(retry_delays=()), transport=httpx.ASGITransport(app=emulator.app)
        ),
    )


def _assert_clear(name: str, payload: dict[str, Any], ok: bool) -> None:
    json.dumps(payload)  # always serialisable
    assert isinstance(payload["executionTimeMs"], float)
    if ok:
        assert payload["status"] == "success" and "data" in payload
        return
    assert payload["code"] in CODES, payload
    assert isinstance(payload["error"], str) and len(payload["error"]) > 10, payload
    assert not payload["error"].startswith("unexpected"), f"{name}: {payload['error']}"
    assert isinstance(payload["retry"], bool)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.one_of(st.sampled_from(NAMES), st.text(max_size=12)), args=arguments)
def test_random_arguments_get_results_or_clear_errors(name: str, args: dict[str, Any]) -> None:
    emulator = Emulator(users=USERS)
    tools = AgentTools(_connections(emulator), max_response_chars=20_000)

    async def run() -> None:
        try:
            outcome = await tools.call(name, args)
            _assert_clear(name, outcome.payload, outcome.ok)
        finally:
            await tools.connections.close()

    asyncio.run(run())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(NAMES), args=arguments)
def test_random_arguments_through_the_mcp_client(name: str, args: dict[str, Any]) -> None:
    emulator = Emulator(users=USERS)

    async def run() -> None:
        server = make_bridge(connections=_connections(emulator), passthrough=False)
        async with Client(server, mode="legacy") as client:
            result = await client.call_tool(name, args)
        payload = json.loads(result.content[0].text)  # type: ignore[union-attr]
        _assert_clear(name, payload, not result.is_error)

    asyncio.run(run())
