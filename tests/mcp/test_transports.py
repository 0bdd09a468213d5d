"""The MCP bridge over its real transports, with the SDK's clients: stdio (a subprocess) and
streamable HTTP (the ``abap-adt mcp --transport http`` process on 127.0.0.1)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import anyio
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from support.emulated import USERS
from support.mcp_calls import agent_workflow, call, conflict_workflow

from adt.emulator import Emulator


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(users=USERS)


@pytest.fixture
def emulator_url(emulator: Emulator) -> Iterator[str]:
    with emulator.serve_in_thread() as url:
        yield url


def _env(emulator_url: str, tmp: str) -> dict[str, str]:
    return {
        **os.environ,
        "ADT_URL": emulator_url,
        "ADT_USER": "DEVELOPER",
        "ADT_PASSWORD": USERS["DEVELOPER"],
        "ADT_SYSTEM": "A4H",
        "ABAP_ADT_CONFIG": os.devnull,
        "ABAP_ADT_RUNTIME_DIR": tmp,
    }


# --- stdio ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_stdio_workflows(
    emulator: Emulator, emulator_url: str, tmp_path: object, mode: str
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mcp_bridge", "--no-passthrough"],
        env=_env(emulator_url, str(tmp_path)),
    )
    with anyio.fail_after(60):
        async with Client(params, mode=mode, read_timeout_seconds=30) as client:
            assert len((await client.list_tools()).tools) == 12
            await agent_workflow(client, emulator)
            await conflict_workflow(client, emulator)
    assert emulator.locks() == []


# --- streamable HTTP ------------------------------------------------------------------------


@dataclass
class HttpBridge:
    url: str
    token: str


@pytest.fixture
def http_bridge(emulator_url: str, tmp_path: object) -> Iterator[HttpBridge]:
    env = _env(emulator_url, str(tmp_path))
    env.pop("MCP_HTTP_TOKEN", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "adt.cli",
            "mcp",
            "--transport",
            "http",
            "--port",
            "0",
            "--no-passthrough",
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        url_line = process.stdout.readline()
        token_line = process.stdout.readline()
        url = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", url_line)
        token = re.search(r"token \(generated.*\): (\S+)", token_line)
        assert url and token, url_line + token_line
        yield HttpBridge(url.group(1), token.group(1))
    finally:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_http_workflows(emulator: Emulator, http_bridge: HttpBridge, mode: str) -> None:
    headers = {"Authorization": f"Bearer {http_bridge.token}"}
    with anyio.fail_after(60):
        async with httpx2.AsyncClient(headers=headers) as http:
            transport = streamable_http_client(http_bridge.url, http_client=http)
            async with Client(transport, mode=mode) as client:
                assert len((await client.list_tools()).tools) == 12
                await agent_workflow(client, emulator)
                await conflict_workflow(client, emulator)
    assert emulator.locks() == []


async def test_http_requires_the_token_and_rejects_foreign_origins(
    http_bridge: HttpBridge,
) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    good = {
        "Authorization": f"Bearer {http_bridge.token}",
        "Accept": "application/json, text/event-stream",
    }
    async with httpx2.AsyncClient() as raw:
        assert (await raw.post(http_bridge.url, json=body)).status_code == 401
        wrong = {**good, "Authorization": "Bearer not-the-token"}
        assert (await raw.post(http_bridge.url, json=body, headers=wrong)).status_code == 401
        foreign = await raw.post(
            http_bridge.url, json=body, headers={**good, "Origin": "http://evil.example"}
        )
        assert foreign.status_code == 403
        rebinding = await raw.post(
            http_bridge.url, json=body, headers={**good, "Host": "evil.example:80"}
        )
        assert rebinding.status_code == 421
    with pytest.raises(BaseExceptionGroup) as refused:
        async with Client(http_bridge.url):
            pass
    assert refused.group_contains(MCPError)
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {http_bridge.token}"}) as http:
        async with Client(streamable_http_client(http_bridge.url, http_client=http)) as client:
            assert (await call(client, "searchObjects", query="ZDEMO*"))["ok"]
