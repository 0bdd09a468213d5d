"""Benchmark: the MCP bridge over streamable HTTP under concurrent load, beside a bare MCP
SDK server.

Method. The emulator serves on a socket from a thread of this process; the bridge runs as its
own process (``abap-adt mcp --transport http``), once with the answer's text copy (the
default) and once without (``MCP_TEXT_CONTENT=false``); the anchor is a bare MCP SDK server on
the same transport (stateless, JSON answers) with one tool answering a fixed payload of the
size of our answer (``bench/anchors/bare_mcp_server.py``), run twice: as the SDK leaves it,
and with its start-up objects frozen (``gc.freeze()``) as the bridge freezes its own (a full
garbage collection otherwise walks every SDK object and stalls all callers for ~40 ms, which
sets the p99 from ten clients on). The load generator
(``bench/loadgen.py``) sends pre-encoded ``tools/call`` requests over raw keep-alive
HTTP/1.1 connections — no MCP client library, so the generator is not the bottleneck — one
connection per client, ``--calls`` calls each, for 1, 2, 5, 10 and 20 clients. The call is a
warm ``getObjectSourceV2`` of 100 lines of the 10,000-line class (answered from the cache: no
ADT request), so what is measured is the bridge itself. Latency per call (p50, p99) and
calls per second; each configuration after a warm-up burst.

Run: ``python bench/bridge_load.py`` (writes bench/results/bridge_load.md and .png;
matplotlib from ``pip install -e '.[bench]'``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from loadgen import LoadResult, request_bytes, run_load

from adt.emulator import Emulator

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
TOKEN = "bench-load-" + "t" * 32
CALL = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {
        "name": "getObjectSourceV2",
        "arguments": {
            "objectUrl": "/sap/bc/adt/oo/classes/zcl_demo_large",
            "startLine": 100,
            "endLine": 199,
        },
    },
}
CLIENTS = (1, 2, 5, 10, 20)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_listening(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}")


@contextlib.contextmanager
def bridge(emulator_url: str, *, text_content: bool) -> Iterator[int]:
    env = {
        **os.environ,
        "ADT_URL": emulator_url,
        "ADT_USER": "DEVELOPER",
        "ADT_PASSWORD": "developer",
        "ADT_SYSTEM": "A4H",
        "MCP_HTTP_TOKEN": TOKEN,
        "ABAP_ADT_CONFIG": os.devnull,
        "MCP_TEXT_CONTENT": "true" if text_content else "false",
    }
    command = [sys.executable, "-m", "adt.app", "mcp", "--transport", "http"]
    process = subprocess.Popen(
        [*command, "--no-passthrough", "--port", "0"],
        env=env,
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        yield int(line.rsplit(":", 1)[1].split("/", 1)[0])
    finally:
        process.terminate()
        process.wait(10)


@contextlib.contextmanager
def anchor(payload_bytes: int, *, freeze: bool = False) -> Iterator[int]:
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            str(HERE / "anchors" / "bare_mcp_server.py"),
            str(port),
            str(payload_bytes),
            *(["freeze"] if freeze else []),
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_listening(port)
        yield port
    finally:
        process.terminate()
        process.wait(10)


def _series(port: int, calls: int, token: str, call: dict[str, object]) -> list[LoadResult]:
    request = request_bytes("127.0.0.1", port, token, call)
    asyncio.run(run_load("127.0.0.1", port, request, 2, 50))  # warm-up
    return [asyncio.run(run_load("127.0.0.1", port, request, n, calls)) for n in CLIENTS]


def _content_size(emulator_url: str) -> int:
    """The size of our answer's data, for the anchor's fixed payload."""
    with bridge(emulator_url, text_content=False) as port:
        request = request_bytes("127.0.0.1", port, TOKEN, CALL)
        result = asyncio.run(run_load("127.0.0.1", port, request, 1, 3))
    return result.answer_bytes


def run(calls: int) -> dict[str, list[LoadResult]]:
    emulator = Emulator()
    series: dict[str, list[LoadResult]] = {}
    with emulator.serve_in_thread() as url:
        size = _content_size(url)
        with bridge(url, text_content=True) as port:
            series["abap-adt mcp (structured + text)"] = _series(port, calls, TOKEN, CALL)
        with bridge(url, text_content=False) as port:
            series["abap-adt mcp (structured only)"] = _series(port, calls, TOKEN, CALL)
        bare_call = {**CALL, "params": {"name": "read", "arguments": {}}}
        with anchor(size // 2) as port:
            series["bare MCP SDK server"] = _series(port, calls, "unused", bare_call)
        with anchor(size // 2, freeze=True) as port:
            series["bare MCP SDK server, start-up heap frozen"] = _series(
                port, calls, "unused", bare_call
            )
    return series


def report(series: dict[str, list[LoadResult]], calls: int) -> str:
    lines = [
        "# The MCP bridge under load (streamable HTTP, warm 100-line reads)",
        "",
        f"{calls} calls per client; measured {time.strftime('%Y-%m-%d')}. Method: the "
        "docstring of bench/bridge_load.py.",
        "",
        "| server | clients | calls/s | p50 ms | p99 ms | answer bytes |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, results in series.items():
        for r in results:
            lines.append(
                f"| {name} | {r.clients} | {r.calls_per_second:,.0f} | {r.p50_ms:.1f} | "
                f"{r.p99_ms:.1f} | {r.answer_bytes:,} |"
            )
    return "\n".join(lines) + "\n"


def plot(series: dict[str, list[LoadResult]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for name, results in series.items():
        clients = [r.clients for r in results]
        (line,) = left.plot(clients, [r.p99_ms for r in results], "o-", label=f"{name} p99")
        color = line.get_color()
        left.plot(clients, [r.p50_ms for r in results], ":", color=color, label=f"{name} p50")
        right.plot(clients, [r.calls_per_second for r in results], "o-", color=color, label=name)
    left.set_xlabel("concurrent clients")
    left.set_ylabel("latency per call (ms)")
    left.set_title("Latency against concurrency")
    right.set_xlabel("concurrent clients")
    right.set_ylabel("calls per second")
    right.set_title("Throughput")
    for axis in (left, right):
        axis.grid(True, alpha=0.3)
        axis.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=200, help="calls per client")
    args = parser.parse_args()
    series = run(args.calls)
    text = report(series, args.calls)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "bridge_load.md").write_text(text)
    plot(series, RESULTS / "bridge_load.png")
    print(text)
    print(json.dumps({k: [r.calls_per_second for r in v] for k, v in series.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
