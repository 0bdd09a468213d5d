"""A request whose id is not a string or an integer is answered with an error (-32600,
``"id": null``), over HTTP and over stdio; the SDK alone took it for a notification and
answered nothing, so the client waited forever."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from support.bridge_process import bridge_env, http_process

TOKEN = "t" * 40
HEADERS = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json, text/event-stream"}
BAD_IDS: list[Any] = [{"a": 1}, [1], 1.5, True, None]


async def test_over_http(emulator_url: str, tmp_path: Path) -> None:
    env = {**bridge_env(emulator_url, str(tmp_path)), "MCP_HTTP_TOKEN": TOKEN}
    with http_process(env) as bridge:
        async with httpx2.AsyncClient() as http:
            for bad in BAD_IDS:
                body = {"jsonrpc": "2.0", "id": bad, "method": "tools/list"}
                answer = await http.post(bridge.url, json=body, headers=HEADERS, timeout=10)
                assert answer.status_code == 400, (bad, answer.status_code)
                error = answer.json()
                assert error["id"] is None and error["error"]["code"] == -32600, bad
                assert "id must be a string or an integer" in error["error"]["message"]
            good = {"jsonrpc": "2.0", "id": "x", "method": "tools/list"}
            answer = await http.post(bridge.url, json=good, headers=HEADERS, timeout=10)
            assert answer.status_code == 200 and answer.json()["id"] == "x"
            notification = {"jsonrpc": "2.0", "method": "notifications/initialized"}
            answer = await http.post(bridge.url, json=notification, headers=HEADERS, timeout=10)
            assert answer.status_code == 202, "a notification (no id at all) is still one"


@pytest.mark.parametrize("bad", [{"a": 1}, [1]])
async def test_over_stdio(emulator_url: str, tmp_path: Path, bad: Any) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "mcp_bridge",
        "--no-passthrough",
        env=bridge_env(emulator_url, str(tmp_path)),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        with anyio.fail_after(60):
            for message in (
                {"jsonrpc": "2.0", "id": bad, "method": "tools/list"},
                {"jsonrpc": "2.0", "id": 7, "method": "ping"},
            ):
                process.stdin.write(json.dumps(message).encode() + b"\n")
                await process.stdin.drain()
                answer = json.loads(await process.stdout.readline())
                if message["id"] == 7:
                    assert answer == {"jsonrpc": "2.0", "id": 7, "result": {}}
                else:
                    assert answer["id"] is None and answer["error"]["code"] == -32600
    finally:
        process.stdin.close()
        with anyio.fail_after(30):
            await process.wait()
