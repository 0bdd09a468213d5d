"""The MCP bridge over its real transports, with the SDK's clients: stdio (a subprocess) and
streamable HTTP (the ``abap-adt mcp --transport http`` process on 127.0.0.1)."""

from __future__ import annotations

import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from support.bridge_process import HttpBridge, bridge_env, http_process
from support.emulated import REPORT, USERS
from support.mcp_calls import agent_workflow, call, conflict_workflow, development_loop, error

from adt.emulator import Emulator

# --- stdio ----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_stdio_workflows(
    emulator: Emulator, emulator_url: str, tmp_path: object, mode: str
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mcp_bridge", "--no-passthrough"],
        env=bridge_env(emulator_url, str(tmp_path)),
    )
    with anyio.fail_after(60):
        async with Client(params, mode=mode, read_timeout_seconds=30) as client:
            assert len((await client.list_tools()).tools) == 16
            await agent_workflow(client, emulator)
            await conflict_workflow(client, emulator)
            await development_loop(client, emulator)
    assert emulator.locks() == []


# --- streamable HTTP ------------------------------------------------------------------------


@pytest.fixture
def http_bridge(emulator_url: str, tmp_path: object) -> Iterator[HttpBridge]:
    env = bridge_env(emulator_url, str(tmp_path))
    env.pop("MCP_HTTP_TOKEN", None)
    with http_process(env) as bridge:
        assert bridge.url.startswith("http://127.0.0.1:")
        yield bridge


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_http_workflows(emulator: Emulator, http_bridge: HttpBridge, mode: str) -> None:
    headers = {"Authorization": f"Bearer {http_bridge.token}"}
    with anyio.fail_after(60):
        async with httpx2.AsyncClient(headers=headers) as http:
            transport = streamable_http_client(http_bridge.url, http_client=http)
            async with Client(transport, mode=mode) as client:
                assert len((await client.list_tools()).tools) == 16
                await agent_workflow(client, emulator)
                await conflict_workflow(client, emulator)
                await development_loop(client, emulator)
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


async def test_an_empty_http_token_counts_as_unset(emulator_url: str, tmp_path: object) -> None:
    env = {**bridge_env(emulator_url, str(tmp_path)), "MCP_HTTP_TOKEN": ""}
    with http_process(env) as bridge:  # fails unless the generated token is printed
        assert len(bridge.token) > 20
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {bridge.token}"}) as http:
            async with Client(streamable_http_client(bridge.url, http_client=http)) as client:
                assert (await call(client, "searchObjects", query="ZDEMO*"))["ok"]


CHOSEN = "a-chosen-token-that-is-long-enough-0123456789"


async def test_binding_all_interfaces_accepts_the_machines_names_only(
    emulator_url: str, tmp_path: object
) -> None:
    env = {**bridge_env(emulator_url, str(tmp_path)), "MCP_HTTP_TOKEN": CHOSEN}
    options = ("--host", "0.0.0.0", "--insecure-http", "--allowed-host", "abap.example")
    with http_process(env, *options) as bridge:
        assert bridge.url == f"http://{socket.gethostname()}:{bridge.port}/mcp"
        local = f"http://127.0.0.1:{bridge.port}/mcp"
        body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
        headers = {
            "Authorization": f"Bearer {CHOSEN}",
            "Accept": "application/json, text/event-stream",
        }

        async def status(**extra: str) -> int:
            async with httpx2.AsyncClient() as raw:
                answer = await raw.post(local, json=body, headers={**headers, **extra})
                return answer.status_code

        assert await status() == 200  # Host: 127.0.0.1:<port>
        assert await status(Host=f"localhost:{bridge.port}") == 200
        assert await status(Host=f"{socket.gethostname()}:{bridge.port}") == 200
        assert await status(Host="abap.example") == 200
        assert await status(Host=f"evil.example:{bridge.port}") == 421
        assert await status(Origin="http://evil.example") == 403
        assert await status(Origin=f"http://{socket.gethostname()}:{bridge.port}") == 200


SET_LINE_1: dict[str, Any] = {"startLine": 1, "endLine": 0, "content": "* written by the agent"}
TRANSPORTABLE = "/sap/bc/adt/programs/programs/zdemo_tr_report"  # package ZDEMO_TR


async def _try_write(client: Client, url: str) -> dict[str, Any]:
    read = await call(client, "getObjectSourceV2", objectUrl=url, startLine=1, endLine=1)
    return await call(
        client, "setObjectSourceV2", objectUrl=url, token=read["data"]["token"], **SET_LINE_1
    )


@pytest.mark.parametrize(
    ("options", "variables", "allowed", "refused_allowlist"),
    [
        (["--read-only"], {}, [], None),
        ([], {"MCP_READ_ONLY": "Yes"}, [], None),
        (["--allow", "ZDEMO_TR"], {}, [TRANSPORTABLE], ["ZDEMO_TR"]),  # by package
        (
            ["--allow", "ZNOPE"],
            {"MCP_WRITE_ALLOWLIST": " $zdemo ,, "},
            [REPORT],
            ["ZNOPE", "$zdemo"],
        ),
        ([], {"MCP_READ_ONLY": "no", "MCP_WRITE_ALLOWLIST": ""}, [REPORT, TRANSPORTABLE], None),
    ],
    ids=["--read-only", "MCP_READ_ONLY", "--allow-package", "MCP_WRITE_ALLOWLIST", "none"],
)
async def test_write_policy_from_the_command_line_and_environment(
    emulator: Emulator,
    emulator_url: str,
    tmp_path: object,
    options: list[str],
    variables: dict[str, str],
    allowed: list[str],
    refused_allowlist: list[str] | None,
) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "mcp_bridge", "--no-passthrough", *options],
        env={**bridge_env(emulator_url, str(tmp_path)), **variables},
    )
    with anyio.fail_after(60):
        async with Client(params, read_timeout_seconds=30) as client:
            for url in (REPORT, TRANSPORTABLE):
                outcome = await _try_write(client, url)
                if url in allowed:
                    assert outcome["ok"], outcome
                    continue
                assert outcome["name"] == "WRITE_REFUSED", outcome
                if refused_allowlist is None:
                    assert "read-only" in outcome["error"]
                else:
                    assert outcome["details"]["allowlist"] == refused_allowlist
            if not allowed:
                assert (await error(client, "lock", objectUrl=REPORT))["name"] == "WRITE_REFUSED"
    assert emulator.locks() == []


async def test_a_system_without_its_password_is_reported_when_used(
    emulator_url: str, tmp_path: Path
) -> None:
    """A missing password of one non-default system once stopped the whole bridge (exit 2;
    the agent saw "connection closed"): the bridge starts, and that system's calls say why."""
    config = tmp_path / "systems.toml"
    config.write_text(
        f'default = "A4H"\n\n[systems.A4H]\nurl = "{emulator_url}"\nuser = "DEVELOPER"\n'
        'password_env = "A4H_PASSWORD"\n\n[systems.QAS]\nurl = "https://qas.example"\n'
        'user = "TESTER"\npassword_env = "QAS_PASSWORD_NOT_SET"\n'
    )
    env = {
        **bridge_env(emulator_url, str(tmp_path)),
        "ABAP_ADT_CONFIG": str(config),
        "A4H_PASSWORD": USERS["DEVELOPER"],
    }
    for variable in ("ADT_URL", "ADT_USER", "ADT_PASSWORD", "ADT_SYSTEM"):
        env.pop(variable)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "mcp_bridge", "--no-passthrough"], env=env
    )
    with anyio.fail_after(60):
        async with Client(params, read_timeout_seconds=30) as client:
            broken = await error(client, "getObjectSourceV2", objectUrl=REPORT, system="QAS")
            assert broken["name"] == "AUTH_FAILED"
            assert "system 'QAS' cannot be used" in broken["error"]
            assert "QAS_PASSWORD_NOT_SET" in broken["error"]
            assert (await call(client, "getObjectSourceV2", objectUrl=REPORT))["ok"]
