"""The bridge as its own process (``abap-adt mcp``), for tests over real transports."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from support.emulated import USERS


def bridge_env(emulator_url: str, tmp: str) -> dict[str, str]:
    return {
        **os.environ,
        "ADT_URL": emulator_url,
        "ADT_USER": "DEVELOPER",
        "ADT_PASSWORD": USERS["DEVELOPER"],
        "ADT_SYSTEM": "A4H",
        "ABAP_ADT_CONFIG": os.devnull,
        "ABAP_ADT_RUNTIME_DIR": tmp,
    }


@dataclass
class HttpBridge:
    url: str
    token: str
    port: int = 0
    pid: int = 0


@contextlib.contextmanager
def http_process(
    env: dict[str, str], *options: str, stderr: Path | None = None
) -> Iterator[HttpBridge]:
    """``abap-adt mcp --transport http`` in its own process; the token is read from its
    output when it generates one, else taken from ``MCP_HTTP_TOKEN``. ``stderr``: a file
    that receives the process's log."""
    command = [sys.executable, "-m", "adt.app", "mcp", "--transport", "http", "--port", "0"]
    log = stderr.open("w") if stderr is not None else subprocess.DEVNULL
    process = subprocess.Popen(
        [*command, "--no-passthrough", *options],
        env=env,
        stdout=subprocess.PIPE,
        stderr=log,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        url_line = process.stdout.readline()
        url = re.search(r"(http://\S+:(\d+)/mcp)", url_line)
        assert url, url_line
        token = env.get("MCP_HTTP_TOKEN", "")
        if not token:
            token_line = process.stdout.readline()
            generated = re.search(r"token \(generated.*\): (\S+)", token_line)
            assert generated, token_line
            token = generated.group(1)
        yield HttpBridge(url.group(1), token, int(url.group(2)), process.pid)
    finally:
        process.terminate()
        process.wait(timeout=10)
        if stderr is not None:
            log.close()  # type: ignore[union-attr]
