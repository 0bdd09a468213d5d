"""Benchmark: start-up — from launching the process to the first useful answer.

Method. Each server is started as its own process, as an editor or agent starts it, and
spoken to over stdio at once: the language server must answer ``initialize``
(``abap-adt lsp`` with one configured system, against a bare pygls 2 server), the MCP bridge
must answer ``tools/list`` after the MCP handshake (``abap-adt mcp``, against a bare MCP SDK
server with one tool). Wall time from ``Popen`` to the answer, the two commands alternating,
``--runs`` times each after one warm-up run each; medians, and the ratio of medians.

Run: ``python bench/startup.py`` (writes bench/results/startup.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
ENV = {
    **os.environ,
    "ABAP_ADT_CONFIG": os.devnull,
    "ADT_URL": "https://a4h.example:44300",
    "ADT_USER": "DEVELOPER",
    "ADT_PASSWORD": "unused",
}


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def _read_frame(stream: object) -> dict[str, object]:
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):  # type: ignore[attr-defined]
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stream.read(length))  # type: ignore[attr-defined,no-any-return]


def lsp_initialize(command: list[str]) -> float:
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV
    )
    assert process.stdin and process.stdout
    params: dict[str, object] = {"processId": None, "rootUri": None, "capabilities": {}}
    process.stdin.write(_frame({"id": 1, "method": "initialize", "params": params}))
    process.stdin.flush()
    answer = _read_frame(process.stdout)
    elapsed = time.perf_counter() - started
    assert "result" in answer, answer
    process.kill()
    process.wait()
    return elapsed


def mcp_tools_list(command: list[str]) -> float:
    started = time.perf_counter()
    process = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=ENV
    )
    assert process.stdin and process.stdout
    init = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    }
    for message in (
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ):
        process.stdin.write(json.dumps(message).encode() + b"\n")
    process.stdin.flush()
    while True:
        answer = json.loads(process.stdout.readline())
        if answer.get("id") == 2:
            break
    elapsed = time.perf_counter() - started
    assert answer["result"]["tools"], answer
    process.kill()
    process.wait()
    return elapsed


def paired(measure: object, ours: list[str], anchor: list[str], runs: int) -> tuple[float, float]:
    measure(ours), measure(anchor)  # type: ignore[operator]  # warm the file cache
    a, b = [], []
    for _ in range(runs):
        a.append(measure(ours))  # type: ignore[operator]
        b.append(measure(anchor))  # type: ignore[operator]
    return statistics.median(a) * 1000, statistics.median(b) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    py = sys.executable
    lsp = paired(
        lsp_initialize,
        [py, "-m", "lsp_server"],
        [py, str(HERE / "anchors" / "bare_pygls_server.py")],
        args.runs,
    )
    mcp = paired(
        mcp_tools_list,
        [py, "-m", "mcp_bridge", "--no-passthrough"],
        [py, str(HERE / "anchors" / "bare_mcp_server.py"), "stdio"],
        args.runs,
    )
    text = "\n".join(
        [
            "# Start-up: launch to first answer (median of alternating runs)",
            "",
            f"{args.runs} runs each after a warm-up. Method: the docstring of bench/startup.py.",
            "",
            "| | ours (ms) | anchor (ms) | ratio |",
            "|---|---:|---:|---:|",
            f"| `abap-adt lsp` answers initialize / bare pygls | {lsp[0]:.0f} | {lsp[1]:.0f} "
            f"| {lsp[0] / lsp[1]:.2f} |",
            f"| `abap-adt mcp` answers tools/list / bare MCP SDK | {mcp[0]:.0f} | {mcp[1]:.0f} "
            f"| {mcp[0] / mcp[1]:.2f} |",
        ]
    )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "startup.md").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
