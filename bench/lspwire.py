"""A minimal JSON-RPC client for language servers over stdio, for the benchmarks: no client
library between the measurement and the server (pytest-lsp would parse every message)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
from pathlib import Path
from queue import Queue
from typing import IO, Any


class StdioServer:
    def __init__(
        self, command: list[str], env: dict[str, str] | None = None, *, socket_stdin: bool = False
    ) -> None:
        """``socket_stdin``: the server's stdin is a socket, not a pipe (the language server
        then reads it with a thread, as it did for every stdin before it read pipes in its
        event loop)."""
        self.started = time.perf_counter()
        ours, theirs = socket.socketpair() if socket_stdin else (None, None)
        self.process = subprocess.Popen(
            command,
            stdin=theirs.fileno() if theirs is not None else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
        )
        assert self.process.stdout is not None
        if ours is not None and theirs is not None:
            theirs.close()
            self._socket = ours
            self.stdin: IO[bytes] = ours.makefile("wb")
        else:
            assert self.process.stdin is not None
            self.stdin = self.process.stdin
        self.answers: Queue[dict[str, Any]] = Queue()
        self._next = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while (line := stream.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not line:
                return
            message = json.loads(stream.read(length))
            if "id" in message and "method" in message:  # a request from the server
                self.send({"id": message["id"], "result": None})
            elif "id" in message:
                self.answers.put(message)

    @staticmethod
    def frame(message: dict[str, Any]) -> bytes:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)

    def send(self, message: dict[str, Any]) -> None:
        self.stdin.write(self.frame(message))
        self.stdin.flush()

    def send_many(self, frames: bytes) -> None:
        self.stdin.write(frames)
        self.stdin.flush()

    def request(self, method: str, params: Any, timeout: float = 120) -> dict[str, Any]:
        self._next += 1
        self.send({"id": self._next, "method": method, "params": params})
        while True:
            answer = self.answers.get(timeout=timeout)
            if answer.get("id") == self._next:
                return answer

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def cpu_seconds(self) -> float:
        """User + system CPU time of every thread of the server process (ns resolution)."""
        total = 0
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            total += int((task / "schedstat").read_text().split()[0])
        return total / 1e9

    def rss_bytes(self) -> int:
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise RuntimeError("no VmRSS")

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
