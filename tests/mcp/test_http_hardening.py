"""The HTTP bridge facing a network: slow or silent connections are cut off, connections are
capped, a flood does not flood the log, GET opens no stream, weak tokens and plain HTTP on a
network address are refused. All over real sockets, against the real process."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import anyio
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
        "MCP_HTTP_MAX_CONNECTIONS_PER_CLIENT": "100",  # all from 127.0.0.1: the cap is tested
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


async def _valid_call(url: str) -> float | None:
    """Seconds a valid call took on a new connection (None: it was not answered)."""
    started = time.monotonic()
    async with httpx2.AsyncClient() as http:
        try:
            answer = await http.post(url, json=CALL, headers=HEADERS, timeout=10)
        except httpx2.HTTPError:
            return None
    return time.monotonic() - started if answer.status_code == 200 else None


class Flood:
    """The adversarial run's F4 attack, bounded: unauthenticated connections that send half a
    request head and reconnect as soon as they are closed (from ten addresses), and callers
    with a token that send their body a byte at a time — until ``stop`` is set."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.stop = asyncio.Event()
        self.connections = 0
        self.slow_closed = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._ready = threading.Event()

    async def run(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._ready.set()
        attackers = [
            *(self.half_requests(f"127.0.0.{2 + n % 10}") for n in range(300)),
            *(self.slow_body("127.0.0.12") for _ in range(20)),
        ]
        await asyncio.gather(*attackers)

    def finish(self) -> None:
        self._ready.wait(timeout=30)
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.stop.set)

    async def half_requests(self, source: str) -> None:
        while not self.stop.is_set():
            with contextlib.suppress(OSError):
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(source, 0)
                )
                self.connections += 1
                try:
                    writer.write(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    await reader.read()  # until the server closes it
                finally:
                    writer.close()

    async def slow_body(self, source: str) -> None:
        head = (
            "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {TOKEN}\r\nAccept: application/json, text/event-stream\r\n"
            "Content-Length: 100000\r\n\r\n"
        ).encode()
        while not self.stop.is_set():
            with contextlib.suppress(OSError):
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", self.port, local_addr=(source, 0)
                )
                try:
                    writer.write(head)
                    while not self.stop.is_set() and not reader.at_eof():
                        writer.write(b" ")
                        await writer.drain()
                        with contextlib.suppress(TimeoutError):  # the attacker's pace
                            await asyncio.wait_for(self.stop.wait(), 0.25)
                        with contextlib.suppress(TimeoutError):
                            await asyncio.wait_for(reader.read(1), 0.01)
                    if reader.at_eof():
                        self.slow_closed += 1
                finally:
                    writer.close()


async def test_valid_callers_are_served_under_a_connection_flood(
    emulator_url: str, tmp_path: Path
) -> None:
    limits = {
        "MCP_HTTP_HEADER_TIMEOUT": "1",
        "MCP_HTTP_MAX_CONNECTIONS": "40",
        "MCP_HTTP_MAX_CONNECTIONS_PER_CLIENT": "10",
        "MCP_HTTP_MIN_BODY_RATE": "1000",
    }
    with http_process(_limits(emulator_url, tmp_path, **limits)) as bridge:
        quiet = [await _valid_call(bridge.url) for _ in range(5)]  # the anchor: no flood
        flood = Flood(bridge.port)
        attacking = threading.Thread(target=asyncio.run, args=(flood.run(),), daemon=True)
        attacking.start()  # its own event loop, as another process's would be
        during: list[float | None] = []
        try:
            with anyio.fail_after(120):
                while flood.connections < 600 or flood.slow_closed < 5 or len(during) < 5:
                    during.append(await _valid_call(bridge.url))
        finally:
            flood.finish()
            attacking.join(timeout=30)
        assert not attacking.is_alive(), "the flood stops by itself"
    answered = sorted(t for t in during if t is not None)
    median, slowest = answered[len(answered) // 2], answered[-1]
    anchor = max(q or 0 for q in quiet)
    print(
        f"flood: {flood.connections} half requests, {flood.slow_closed} slow bodies cut off; "
        f"{len(answered)}/{len(during)} valid calls answered, median {median:.2f} s, slowest "
        f"{slowest:.2f} s; without the flood: slowest {anchor:.2f} s"
    )
    assert len(answered) == len(during), f"{len(answered)} of {len(during)} valid calls answered"
    assert answered[-1] < 5, f"slowest valid call took {answered[-1]:.1f} s"
    assert flood.slow_closed >= 5, "bodies sent a byte at a time are cut off"
