"""What a new user types wrong gets a clear message and an exit code, never a traceback."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest


def _run(
    *args: str, timeout: float = 60, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        env=None if env is None else {**os.environ, **env},
    )


@pytest.mark.parametrize(
    "command",
    [
        ["emulator", "--port", "99999"],
        ["demo", "--port", "99999", "--no-serve"],
        ["mcp", "--transport", "http", "--port", "-1"],
    ],
)
def test_a_port_out_of_range_is_a_usage_error(command: list[str]) -> None:
    result = _run("-m", "adt.app", *command)
    assert result.returncode == 2
    assert "port must be between 0 and 65535" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_demo_on_a_busy_port_says_so() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = _run("-m", "adt.app", "demo", "--port", str(port), "--no-serve")
    assert result.returncode == 2
    assert f"cannot listen on 127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr


def test_an_empty_seed_folder_is_refused(tmp_path: Path) -> None:
    result = _run("-m", "adt.app", "emulator", "--seed", str(tmp_path))
    assert result.returncode == 2
    assert "no abapGit files" in result.stderr


def test_no_command_is_a_usage_error() -> None:
    result = _run("-m", "adt.app", timeout=30)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: abap-adt") and "choose a command" in result.stderr


@pytest.mark.parametrize("module", ["adt.app", "lsp_server", "mcp_bridge"])
def test_every_entry_point_has_help_and_a_version(module: str) -> None:
    helped = _run("-m", module, "--help", timeout=30)
    assert helped.returncode == 0 and "usage:" in helped.stdout
    versioned = _run("-m", module, "--version", timeout=30)
    assert versioned.returncode == 0 and versioned.stdout.startswith("abap-adt ")


def test_an_unreachable_system_fails_fast_and_names_the_host() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed again: nobody listens there
    # The read is timed inside the child: the interpreter's start on a busy machine is not
    # what this test is about (a refused connection answers in milliseconds; retries with
    # back-off would take seconds).
    code = (
        "import asyncio, sys, time\n"
        "from adt import AdtClient, ConnectionProfile\n"
        f"profile = ConnectionProfile(base_url='http://127.0.0.1:{port}', user='U', password='p')\n"
        "async def main():\n"
        "    async with AdtClient(profile) as client:\n"
        "        await client.read_source('/sap/bc/adt/programs/programs/zx/source/main')\n"
        "started = time.monotonic()\n"
        "try:\n"
        "    asyncio.run(main())\n"
        "finally:\n"
        "    print(f'read took {time.monotonic() - started:.3f} s', file=sys.stderr)\n"
    )
    result = _run("-c", code)
    took = re.search(r"read took ([0-9.]+) s", result.stderr)
    assert took is not None, result.stderr
    assert float(took.group(1)) < 3, "no retries against a port nobody listens on"
    assert f"http://127.0.0.1:{port}" in result.stderr and "ConnectError" in result.stderr


TOKEN = {"MCP_HTTP_TOKEN": "t" * 40, "ABAP_ADT_CONFIG": os.devnull}


@pytest.mark.parametrize(
    ("case", "command", "env", "says"),
    [
        (
            "log file in a missing folder",
            ["lsp", "--log-file", "/nonexistent/folder/lsp.log"],
            {},
            "cannot write the log file /nonexistent/folder/lsp.log",
        ),
        (
            "missing certificate",
            ["mcp", "--transport", "http", "--tls-cert", "nope.pem", "--tls-key", "nope.key"],
            TOKEN,
            "--tls-cert nope.pem and --tls-key nope.key: no such file",
        ),
        (
            "certificate that is no PEM",
            ["mcp", "--transport", "http", "--tls-cert", "{junk}", "--tls-key", "{junk}"],
            TOKEN,
            "are not a PEM certificate and its private key",
        ),
        (
            "unknown log level",
            ["mcp"],
            {"ABAP_ADT_LOG_LEVEL": "LOUD", "ABAP_ADT_CONFIG": os.devnull},
            "ABAP_ADT_LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, CRITICAL, not 'LOUD'",
        ),
        (
            "systems.toml that is not UTF-8",
            ["mcp"],
            {"ABAP_ADT_CONFIG": "{latin1}"},
            "is not UTF-8 text",
        ),
    ],
)
def test_bad_input_is_a_message_not_a_traceback(
    case: str, command: list[str], env: dict[str, str], says: str, tmp_path: Path
) -> None:
    junk = tmp_path / "junk.pem"
    junk.write_text("not a certificate\n")
    latin1 = tmp_path / "systems.toml"
    latin1.write_bytes(b"# Gr\xfc\xdfe\n")
    latin1.chmod(0o600)

    def fill(text: str) -> str:
        return text.format(junk=junk, latin1=latin1)

    result = _run("-m", "adt.app", *map(fill, command), env={k: fill(v) for k, v in env.items()})
    assert result.returncode == 2, (case, result.stderr)
    assert says in result.stderr, case
    assert "Traceback" not in result.stderr, case
