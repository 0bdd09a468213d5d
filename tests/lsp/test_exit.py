"""Locks are released when the editor goes away without a clean shutdown.

A plain ``python -m lsp_server`` subprocess, spoken to in raw JSON-RPC (pytest-lsp always
shuts down cleanly), takes an ``onEdit`` lock on the emulator (on a socket), then the editor
either closes the pipe or sends ``exit`` without ``shutdown``. The lock table must be empty
afterwards.
"""

from __future__ import annotations

import json
import os
import queue
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import pytest
from support.scratch import scratch

from adt.emulator import Emulator

SYSTEM = "A4H"
REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
REPORT_URI = f"adt://{SYSTEM}{REPORT}/source/main"
TIMEOUT = 30.0


class RawServer:
    """The language server as a subprocess, with just enough JSON-RPC to drive it."""

    def __init__(self, *arguments: str) -> None:
        env = {
            **os.environ,
            "ABAP_ADT_CONFIG": os.devnull,
            "ADT_URL": "",
            "ABAP_ADT_RUNTIME_DIR": scratch("exit"),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-m", "lsp_server", *arguments],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin: IO[bytes] = self.process.stdin
        self.incoming: queue.Queue[dict[str, Any]] = queue.Queue()
        self._next_id = 0
        threading.Thread(target=self._read, args=(self.process.stdout,), daemon=True).start()

    def _read(self, stream: IO[bytes]) -> None:
        while True:
            length = 0
            while True:
                header = stream.readline()
                if not header:
                    return
                if not header.strip():
                    break
                name, _, value = header.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            self.incoming.put(json.loads(stream.read(length)))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> Any:
        self._next_id += 1
        ident = self._next_id
        self.send({"id": ident, "method": method, "params": params})
        deadline = time.monotonic() + TIMEOUT
        while True:
            message = self.incoming.get(timeout=max(0.0, deadline - time.monotonic()))
            if "method" in message:
                if "id" in message:  # a request from the server: answer it plainly
                    self.send({"id": message["id"], "result": None})
                continue
            if message.get("id") == ident:
                assert "error" not in message, message
                return message.get("result")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=TIMEOUT)


def _until(condition: Callable[[], Any]) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


@pytest.mark.parametrize("goodbye", ["stdin closed", "exit without shutdown", "shutdown, exit"])
def test_on_edit_locks_are_released_when_the_editor_goes_away(
    emulator: Emulator, emulator_url: str, goodbye: str, tmp_path: Path
) -> None:
    log = tmp_path / "lsp.log"
    server = RawServer("--log-file", str(log))
    try:
        options = {
            "systems": [
                {"name": SYSTEM, "url": emulator_url, "user": "DEVELOPER", "password": "developer"}
            ],
            "lockMode": "onEdit",
            "pollInterval": 0,
            "agentChannel": False,
        }
        server.request(
            "initialize", {"processId": None, "capabilities": {}, "initializationOptions": options}
        )
        server.notify("initialized", {})
        read = server.request("adt/readDocument", {"uri": REPORT_URI})
        document = {"uri": REPORT_URI, "languageId": "abap", "version": 1, "text": read["text"]}
        server.notify("textDocument/didOpen", {"textDocument": document})
        origin = {"line": 0, "character": 0}
        server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": REPORT_URI, "version": 2},
                "contentChanges": [
                    {"range": {"start": origin, "end": origin}, "text": "* unsaved\n"}
                ],
            },
        )
        _until(lambda: [lock.object_uri for lock in emulator.locks()] == [REPORT])
        if goodbye == "stdin closed":
            server.stdin.close()
        elif goodbye == "exit without shutdown":
            server.notify("exit", None)
        else:
            server.request("shutdown", None)  # an editor sends exit after the answer
            server.notify("exit", None)
        code = server.process.wait(timeout=TIMEOUT)
        # LSP: 0 after shutdown, else 1; never killed by a signal (a negative code)
        assert code == (
            0 if goodbye == "shutdown, exit" else 1 if goodbye.startswith("exit") else 0
        )
        assert emulator.locks() == []
        assert stat.S_IMODE(log.stat().st_mode) == 0o600, "only its owner reads the log"
        text = log.read_text()
        assert "Error sending data" not in text and "Traceback" not in text, text[:2000]
    finally:
        server.kill()
