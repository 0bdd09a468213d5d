"""The HTTP bridge facing a network: slow or silent connections are cut off, connections are
capped, a flood does not flood the log, GET opens no stream, weak tokens and plain HTTP on a
network address are refused. All over real sockets, against the real process."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2
from support.bridge_process import bridge_env, http_process

TOKEN = "t" * 40
CALL = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
HEADERS = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json, text/event-stream"}


def _limits(emulator_url: str, tmp_path: Path, **extra: str) -> dict[str, str]:
    return {
        **bridge_env(emulator_url, str(tmp_path)),
        "MCP_HTTP_TOKEN": TOKEN,
        "MCP_HTTP_HEADER_TIMEOUT": "0.5",
        "MCP_HTTP_MAX_CONNECTIONS": "20",
        **extra,
    }


def _closed_by_server(sock: socket.socket) -> bool:
    sock.settimeout(1)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False  # still open
    finally:
        sock.close()


async def test_silent_and_slow_connections_are_closed_and_calls_still_work(
    emulator_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "bridge.log"
    with http_process(_limits(emulator_url, tmp_path), stderr=log) as bridge:
        silent = [socket.create_connection(("127.0.0.1", bridge.port)) for _ in range(60)]
        slow = socket.create_connection(("127.0.0.1", bridge.port))
        slow.sendall(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
        await asyncio.sleep(1.2)
        async with httpx2.AsyncClient() as http:
            answer = await http.post(bridge.url, json=CALL, headers=HEADERS, timeout=5)
        assert answer.status_code == 200 and "getObjectSourceV2" in answer.text
        assert _closed_by_server(slow), "a request head that never ends is cut off"
        closed = [_closed_by_server(sock) for sock in silent]
        assert all(closed), f"{closed.count(False)} silent connections were kept open"
    text = log.read_text()
    assert text.count("more than 20 connections") <= 5, "a flood of refusals is not logged flat"


async def test_get_opens_no_stream(emulator_url: str, tmp_path: Path) -> None:
    with http_process(_limits(emulator_url, tmp_path)) as bridge:
        async with httpx2.AsyncClient() as http:
            answer = await http.get(bridge.url, headers=HEADERS, timeout=5)
            anonymous = await http.get(bridge.url, timeout=5)
    assert answer.status_code == 405 and answer.headers["allow"] == "POST"
    assert anonymous.status_code == 401


def _start(env: dict[str, str], *options: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "adt.app", "mcp", "--transport", "http", *options]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60)


def test_a_short_token_is_refused(emulator_url: str, tmp_path: Path) -> None:
    env = {**bridge_env(emulator_url, str(tmp_path)), "MCP_HTTP_TOKEN": "x"}
    result = _start(env)
    assert result.returncode == 2
    assert "MCP_HTTP_TOKEN is 1 characters long; use at least 32" in result.stderr


def test_a_network_bind_needs_tls_or_an_explicit_flag(emulator_url: str, tmp_path: Path) -> None:
    env = {**bridge_env(emulator_url, str(tmp_path)), "MCP_HTTP_TOKEN": TOKEN}
    result = _start(env, "--host", "0.0.0.0")
    assert result.returncode == 2 and "--tls-cert" in result.stderr
    assert "--insecure-http" in result.stderr
    lonely = _start(env, "--host", "127.0.0.1", "--tls-cert", "cert.pem")
    assert lonely.returncode == 2 and "go together" in lonely.stderr
    bad_port = _start(env, "--port", "99999")
    assert bad_port.returncode == 2 and "between 0 and 65535" in bad_port.stderr


def test_plain_http_on_a_network_address_warns_loudly(emulator_url: str, tmp_path: Path) -> None:
    env = {**bridge_env(emulator_url, str(tmp_path)), "MCP_HTTP_TOKEN": TOKEN}
    log = tmp_path / "bridge.log"
    with http_process(env, "--host", "0.0.0.0", "--insecure-http", stderr=log):
        time.sleep(0.5)
    assert "WARNING: serving plain HTTP on a network address" in log.read_text()
