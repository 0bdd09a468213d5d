"""Serving on a real socket: ``serve()``, ``serve_in_thread()`` and the CLI."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx

import adt.emulator
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


@contextlib.contextmanager
def _cli(*args: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``abap-adt emulator ARGS`` in a subprocess: the process and its first output line.
    Stopped with Ctrl-C by the test, killed if it is still running afterwards."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "adt.app", "emulator", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        yield proc, proc.stdout.readline()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_cli_prints_the_url_and_stops_on_ctrl_c() -> None:
    with _cli("--user", "alice:pw") as (proc, line):
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


def test_cli_serves_its_own_seed_system_and_client(tmp_path: Path) -> None:
    samples = Path(adt.emulator.__file__).parent / "samples" / "src" / "$zdemo"
    package = tmp_path / "src" / "$zdemo"
    package.mkdir(parents=True)
    for name in ("package.devc.xml", "zdemo_report.prog.abap", "zdemo_report.prog.xml"):
        shutil.copy(samples / name, package / name)
    with _cli("--seed", str(tmp_path), "--sid", "NPL", "--client", "100") as (proc, line):
        match = re.match(
            r"ADT emulator listening on (\S+) \(SID NPL, client 100, user DEVELOPER\)", line
        )
        assert match, line
        auth = ("DEVELOPER", "developer")
        with httpx.Client(base_url=match.group(1), auth=auth, timeout=10) as client:
            report = client.get(f"{REPORT}?sap-client=100", headers={"Accept": "*/*"})
            greeter = client.get(f"{GREETER}?sap-client=100", headers={"Accept": "*/*"})
            other_client = client.get(f"{REPORT}?sap-client=001", headers={"Accept": "*/*"})
        assert (report.status_code, greeter.status_code) == (200, 404), "only the seed"
        assert other_client.status_code == 401
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=15) == 0


def test_cli_rejects_a_bad_user() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "adt.app", "emulator", "--user", "nopassword"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "NAME:PASSWORD" in result.stderr
