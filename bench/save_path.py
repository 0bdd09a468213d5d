"""Benchmark: what one save moves on the wire (10 hunks in a 100,000-line program).

Method. The language server's workspace (in-process, with a quiet editor) opens the program
through ``adt/readDocument``, ten lines spread over it are changed, and the document is
saved. A transport between the client and the in-process emulator counts every request and
the bytes of each request and response body. Reported: requests, full-source GETs, bytes
sent and received for the save, next to the floor — one verifying GET of the source under
the lock plus the PUT of it (source size each way) — and the median time of 5 saves.

Run: ``python bench/save_path.py`` (writes bench/results/save_path.md).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import httpx
from keystroke import seeded_emulator
from support_path import emulated_client

from adt.systems import Connections, EditorSettings, SystemsConfig
from lsp_server.buffer import UTF16, Edit
from lsp_server.editor import Diagnostic, Severity
from lsp_server.workspace import EditorWorkspace

RESULTS = Path(__file__).resolve().parent / "results"
SIZE = 100_000


class Counting(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.sent = 0
        self.received = 0
        self.calls: Counter[str] = Counter()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        self.sent += len(body)
        response = await self.inner.handle_async_request(request)
        content = await response.aread()
        self.received += len(content)
        self.calls[f"{request.method} {'source' if 'source' in request.url.path else 'other'}"] += 1
        return httpx.Response(response.status_code, headers=response.headers, content=content)

    def reset(self) -> None:
        self.sent = self.received = 0
        self.calls.clear()


class QuietEditor:
    async def apply_edits(
        self, uri: str, edits: Sequence[Edit], label: str, version: int | None
    ) -> bool:
        return False

    async def ask(self, message: str, choices: Sequence[str]) -> str | None:
        return None

    def notify(self, severity: Severity, message: str) -> None:
        return None

    def publish(self, uri: str, diagnostics: Sequence[Diagnostic]) -> None:
        return None


async def one_save(run: int) -> tuple[float, Counting, int]:
    emulator, (name,) = seeded_emulator([SIZE])
    counting = Counting(httpx.ASGITransport(app=emulator.app))
    client = emulated_client(emulator, counting)
    connections = Connections(
        SystemsConfig({"A4H": client.profile}), client_factory=lambda p: client
    )
    workspace = EditorWorkspace(connections, EditorSettings(poll_interval=0), QuietEditor())
    uri = f"adt://A4H/sap/bc/adt/programs/programs/{name}/source/main"
    read = await workspace.objects.read_document(uri)
    workspace.did_open(uri, read.text, 1, UTF16)
    for number, line in enumerate(range(500, SIZE, SIZE // 10)):
        workspace.did_change(uri, 2 + number, [((line, 0), (line, 0), f"x{run}")])
    await workspace.diagnostics.ctx.tasks.wait_idle()
    counting.reset()
    started = time.perf_counter()
    result = await workspace.saving.save(uri)  # the save alone (its syntax check runs after)
    elapsed = (time.perf_counter() - started) * 1000
    assert result.status == "saved" and result.hunks == 10, result
    during = Counting(counting.inner)  # what the save moved (closing logs off afterwards)
    during.sent, during.received, during.calls = (
        counting.sent,
        counting.received,
        Counter(counting.calls),
    )
    await workspace.close()
    source_bytes = len(
        (emulator.source(f"/sap/bc/adt/programs/programs/{name}/source/main") or "")
        .replace("\n", "\r\n")
        .encode()
    )
    return elapsed, during, source_bytes


def main() -> int:
    runs = [asyncio.run(one_save(run)) for run in range(5)]
    elapsed = statistics.median(r[0] for r in runs)
    _, counting, source = runs[-1]
    full_gets = counting.calls["GET source"]
    kinds = ", ".join(f"{k}: {v}" for k, v in sorted(counting.calls.items()))
    text = "\n".join(
        [
            f"# One save of 10 hunks in a {SIZE:,}-line program",
            "",
            "Method: the docstring of bench/save_path.py. Median of 5 saves for the time.",
            "",
            "| | ours | floor (one verifying GET + the PUT) |",
            "|---|---:|---:|",
            f"| ADT requests | {sum(counting.calls.values())} ({kinds}) "
            "| 4 (lock, GET, PUT, unlock) |",
            f"| full-source GETs | {full_gets} | 1 |",
            f"| bytes sent | {counting.sent:,} | {source:,} |",
            f"| bytes received | {counting.received:,} | {source:,} |",
            f"| time (ms) | {elapsed:.0f} | |",
        ]
    )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "save_path.md").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
