"""Benchmark: completion and hover latency through the language server, beside the backend
alone.

Method. The emulator runs in its own process (``abap-adt emulator``, built-in samples) on a
socket. The language server runs as its own process (``python -m lsp_server``, onSave mode,
polling off) on that emulator; this script drives it over stdio with a minimal JSON-RPC
client (bench/lspwire.py). It opens ``ZCL_DEMO_GREETER``'s main source and types one line
(unsaved) in the constructor, ``mo_formatter->cap``. Then, ``--rounds`` times, in
alternation:

* **through the server**: ``textDocument/completion`` at the end of that line and
  ``textDocument/hover`` on ``capitalize`` in ``greet``; the time from writing the request to
  reading its answer, measured by the client;
* **the backend alone** (the anchor): the same calls on the development loop directly —
  ``Workbench.code.completions`` and ``Workbench.code.symbol_info`` with the same text and
  position — in this process, over its own HTTP connection to the same emulator.

Alternating the two puts both under the same machine load. Reported per request: p50 and p99
of each, and the server's share, the p50 and p99 of the paired differences (through the
server minus the backend alone, round by round): JSON-RPC over stdio, the buffer, the
position mapping, building the LSP answer. The first ``--warmup`` rounds are not counted.

Run: ``python bench/lsp_intelligence.py`` (writes bench/results/lsp_intelligence.md).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from emulated import emulator_process
from lspwire import StdioServer

from adt import AdtClient, ConnectionProfile, Secret
from adt.source import SourceService
from adt.workbench import Workbench

RESULTS = Path(__file__).resolve().parent / "results"
GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
SOURCE = f"{GREETER}/source/main"
URI = f"adt://A4H{SOURCE}"
TYPED_LINE = 30  # 0-based: a new line in the constructor
TYPED = "    mo_formatter->cap"


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


class Server:
    """The language server with the greeter open and the typed line in its buffer."""

    def __init__(self, url: str) -> None:
        self.wire = StdioServer(
            [sys.executable, "-m", "lsp_server"],
            env={"ABAP_ADT_CONFIG": "/dev/null", "ADT_URL": ""},
        )
        options = {
            "systems": [{"name": "A4H", "url": url, "user": "DEVELOPER", "password": "developer"}],
            "pollInterval": 0,
            "agentChannel": False,
        }
        self.wire.request(
            "initialize",
            {
                "processId": None,
                "rootUri": None,
                "capabilities": {},
                "initializationOptions": options,
            },
        )
        self.wire.notify("initialized", {})
        text = self.wire.request("adt/readDocument", {"uri": URI})["result"]["text"]
        document = {"uri": URI, "languageId": "abap", "version": 1, "text": text}
        self.wire.notify("textDocument/didOpen", {"textDocument": document})
        point = {"line": TYPED_LINE, "character": 0}
        self.wire.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": URI, "version": 2},
                "contentChanges": [{"range": {"start": point, "end": point}, "text": TYPED + "\n"}],
            },
        )
        lines = text.split("\n")
        lines.insert(TYPED_LINE, TYPED)
        self.text = "\n".join(lines)
        self.hover_line = TYPED_LINE + 9  # rv_text = |... mo_formatter->capitalize( iv_name ) ...|
        self.hover_column = lines[self.hover_line].index("capitalize") + 2

    def completion(self) -> float:
        started = time.perf_counter()
        answer = self.wire.request(
            "textDocument/completion",
            {
                "textDocument": {"uri": URI},
                "position": {"line": TYPED_LINE, "character": len(TYPED)},
            },
        )
        elapsed = time.perf_counter() - started
        labels = [item["label"] for item in answer["result"]["items"]]
        assert "capitalize" in labels, answer
        return elapsed

    def hover(self) -> float:
        started = time.perf_counter()
        answer = self.wire.request(
            "textDocument/hover",
            {
                "textDocument": {"uri": URI},
                "position": {"line": self.hover_line, "character": self.hover_column},
            },
        )
        elapsed = time.perf_counter() - started
        assert "CAPITALIZE" in answer["result"]["contents"]["value"].upper(), answer
        return elapsed

    def close(self) -> None:
        self.wire.close()


async def _timed(call: Callable[[], Awaitable[Any]], check: Callable[[Any], bool]) -> float:
    started = time.perf_counter()
    found = await call()
    elapsed = time.perf_counter() - started
    assert check(found), found
    return elapsed


async def measure(url: str, rounds: int, warmup: int) -> dict[str, dict[str, list[float]]]:
    server = Server(url)
    profile = ConnectionProfile(
        base_url=url,
        user="DEVELOPER",
        password=Secret("developer"),
        name="A4H",
    )
    backend = Workbench(SourceService(AdtClient(profile), system="A4H"))
    code = backend.code
    text, line, column = server.text, server.hover_line + 1, server.hover_column
    times: dict[str, dict[str, list[float]]] = {
        "completion": {"server": [], "backend": []},
        "hover": {"server": [], "backend": []},
    }
    try:
        for round_ in range(warmup + rounds):
            samples = {
                "completion": (
                    server.completion(),
                    await _timed(
                        lambda: code.completions(SOURCE, text, TYPED_LINE + 1, len(TYPED)),
                        lambda found: any(i.label == "capitalize" for i in found.items),
                    ),
                ),
                "hover": (
                    server.hover(),
                    await _timed(
                        lambda: code.symbol_info(SOURCE, text, line, column),
                        lambda info: info is not None,
                    ),
                ),
            }
            if round_ >= warmup:
                for request, (through, alone) in samples.items():
                    times[request]["server"].append(through * 1000)
                    times[request]["backend"].append(alone * 1000)
    finally:
        server.close()
        await backend.source.client.close()
    return times


def report(times: dict[str, dict[str, list[float]]], rounds: int) -> str:
    lines = [
        "# Completion and hover through the language server (ms per request)",
        "",
        f"{rounds} rounds, the server and the backend alone in alternation; method: the",
        "docstring of bench/lsp_intelligence.py. The server's share is the p50 / p99 of the",
        "paired differences (through the server minus the backend alone, round by round).",
        "",
        "| request | server p50 | server p99 | backend alone p50 | backend alone p99 "
        "| server's share p50 | server's share p99 |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for request, series in times.items():
        through, alone = series["server"], series["backend"]
        share = [a - b for a, b in zip(through, alone, strict=True)]
        lines.append(
            f"| {request} | {statistics.median(through):.2f} | {percentile(through, 0.99):.2f} "
            f"| {statistics.median(alone):.2f} | {percentile(alone, 0.99):.2f} "
            f"| {statistics.median(share):.2f} | {percentile(share, 0.99):.2f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    args = parser.parse_args()
    with emulator_process() as (url, _):
        times = asyncio.run(measure(url, args.rounds, args.warmup))
    RESULTS.mkdir(exist_ok=True)
    text = report(times, args.rounds)
    (RESULTS / "lsp_intelligence.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
