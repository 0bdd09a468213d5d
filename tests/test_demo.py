"""The README's demo: ``abap-adt demo`` runs its whole cycle (here without serving on), and the
installed ``abap-adt`` command the README uses."""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import sysconfig
from pathlib import Path

import httpx
import pytest


def test_demo_cycle_runs_end_to_end() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "adt.app", "demo", "--no-serve"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "ADT emulator listening on http://127.0.0.1:" in out
    assert "refused: 4003 VERSION_CONFLICT - changed by COLLEAGUE" in out
    assert "both changes are in the source: True" in out
    assert "activated: True" in out
    assert "locks left: 0" in out


def test_the_installed_console_command_lists_its_subcommands() -> None:
    name = "abap-adt.exe" if os.name == "nt" else "abap-adt"
    command = Path(sysconfig.get_path("scripts")) / name
    assert command.is_file(), f"{command} missing: install the package (pip install -e .)"
    result = subprocess.run(
        [str(command), "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    for subcommand in ("emulator", "lsp", "mcp", "demo"):
        assert subcommand in result.stdout


def test_the_demo_keeps_serving_until_ctrl_c(tmp_path: Path) -> None:
    # stderr to a file: a pipe nobody reads could fill and hold the demo at its exit
    errors = (tmp_path / "stderr.txt").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "adt.app", "demo"],
        stdout=subprocess.PIPE,
        stderr=errors,
        text=True,
        # Ctrl-C as a terminal sends it, whatever an earlier test left in this process's
        # SIGINT disposition (an ignored SIGINT is inherited, and Python then never raises
        # KeyboardInterrupt: seen in full runs)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        assert proc.stdout is not None
        url = None
        commands: list[str] = []
        for line in proc.stdout:
            found = re.search(r"keeps running at (http://127\.0\.0\.1:\d+)", line)
            url = found.group(1) if found else url
            shown = re.match(r"\s+(.+) (lsp|mcp)\s+#", line)
            commands += [shown.group(1)] if shown else []
            if "Press Ctrl-C" in line:
                break
        assert url, "the demo says where the emulator runs"
        assert len(commands) == 2, "the demo shows how to start the language server and bridge"
        for command in commands:  # copied into a shell without the virtualenv on PATH
            assert Path(shlex.split(command)[0]).is_absolute(), command
            ran = subprocess.run(
                [*shlex.split(command), "--version"], capture_output=True, text=True, timeout=30
            )
            assert ran.returncode == 0 and ran.stdout.startswith("abap-adt "), command
        response = httpx.get(
            f"{url}/sap/bc/adt/programs/programs/zdemo_report/source/main",
            auth=("DEVELOPER", "developer"),
            timeout=10,
        )
        assert response.status_code == 200 and "REPORT zdemo_report." in response.text
        proc.send_signal(signal.SIGINT)
        try:
            assert proc.wait(timeout=15) == 0
        except subprocess.TimeoutExpired:
            pytest.fail(f"the demo kept running after Ctrl-C; its stderr: {_tail(tmp_path)}")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        errors.close()


def _tail(folder: Path) -> str:
    return (folder / "stderr.txt").read_text(encoding="utf-8", errors="replace")[-2000:]
