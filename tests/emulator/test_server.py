"""Serving on a real socket: ``serve()``, ``serve_in_thread()`` and the CLI."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys

import httpx

from adt.emulator import Emulator

from .helpers import GREETER, REPORT, fetch_token, lock, put_source, unlock


async def test_full_cycle_over_a_socket() -> None:
    emulator = Emulator()
    async with emulator.serve() as base_url:
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+", base_url)
        async with httpx.AsyncClient(base_url=base_url, auth=("DEVELOPER", "developer")) as client:
            token = await fetch_token(client, stateful=True)
            handle = await lock(client, token, REPORT)
            put = await put_source(
                client, token, f"{REPORT}/source/main", handle, "REPORT zdemo_report."
            )
            assert put.status_code == 200
            assert (await unlock(client, token, REPORT, handle)).status_code == 200
    assert emulator.locks() == []
    assert emulator.request_counts()[f"PUT {REPORT}/source/main"] == 1


def test_serve_in_thread_for_sync_clients(emulator: Emulator, emulator_url: str) -> None:
    with httpx.Client(base_url=emulator_url, auth=("DEVELOPER", "developer")) as client:
        response = client.get(GREETER, headers={"Accept": "*/*", "x-csrf-token": "fetch"})
    assert response.status_code == 200
    assert response.headers["x-csrf-token"]


def test_cli_prints_the_url_and_stops_on_ctrl_c() -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "adt.cli", "emulator", "--port", "0", "--user", "alice:pw"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        match = re.match(
            r"ADT emulator listening on (http://127\.0\.0\.1:\d+) "
            r"\(SID A4H, client 001, user ALICE\)",
            line,
        )
        assert match, line
        response = httpx.get(f"{match.group(1)}{GREETER}", auth=("ALICE", "pw"), timeout=10)
        assert response.status_code == 200
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_cli_rejects_a_bad_user() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "adt.cli", "emulator", "--user", "nopassword"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "NAME:PASSWORD" in result.stderr
