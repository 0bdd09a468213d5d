"""Benchmark: the MCP bridge — bytes an agent receives (V1 against V2) and overhead per call.

Method.

1. Bytes: the bridge runs in-process with the SDK's in-memory client (protocol 2025-11-25,
   as third-party agents use it) on the emulator seeded with the built-in samples. For each
   §8.1 scenario of the V2 design we sum the UTF-8 length of the tool results' text (what the
   agent reads) and of the arguments it sends. The response limit is lifted for this part so
   that V1 shows its full cost; with the default limit (80,000 characters) V1 reads of the
   10,000-line class are cut and say so.
2. Overhead: the real ``abap-adt mcp --transport http`` runs in its own process on 127.0.0.1
   (stateless JSON mode, bearer token), connected to the emulator on a socket. One client,
   then ``--clients`` clients at once, each with its own HTTP connection, call
   ``getObjectSourceV2`` (lines 100-199 of the large class; after the first call the cache is
   warm and no ADT request is made) ``--calls`` times each. We report p50 and p99 of the
   end-to-end latency and the throughput, beside the same call made directly on the tool
   executor in-process. The bridge's overhead is measured per call: the client-measured
   latency minus the ``executionTimeMs`` the server reports for that call (the tool's own
   work), i.e. HTTP, MCP framing, JSON and waiting for the bridge's event loop; we report its
   p50 and p99 with one client and with ``--clients`` clients.

Run: ``python bench/bridge_bytes_and_overhead.py`` (writes bench/results/mcp_bridge.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from adt import AdtClient, ConnectionProfile, Secret
from adt.agent import AgentTools
from adt.emulator import Emulator
from adt.systems import Connections, SystemsConfig
from mcp_bridge.server import make_bridge, tool_list

LARGE = "/sap/bc/adt/oo/classes/zcl_demo_large"
MAIN = f"{LARGE}/source/main"
TOKEN = "bench-token-" + "b" * 32  # the bridge refuses tokens under 32 characters


def _connections(emulator: Emulator) -> Connections:
    profile = ConnectionProfile(
        base_url="http://emulator", user="DEVELOPER", password=Secret("developer"), name="A4H"
    )
    return Connections(
        SystemsConfig({"A4H": profile}),
        client_factory=lambda p: AdtClient(p, transport=httpx.ASGITransport(app=emulator.app)),
    )


class Meter:
    def __init__(self, client: Client) -> None:
        self.client = client
        self.received = 0
        self.sent = 0

    async def call(self, name: str, **arguments: Any) -> dict[str, Any]:
        self.sent += len(json.dumps(arguments).encode())
        result = await self.client.call_tool(name, arguments)
        text = result.content[0].text  # type: ignore[union-attr]
        self.received += len(text.encode())
        payload: dict[str, Any] = json.loads(text)
        assert not result.is_error, payload
        return payload


async def _scenario(name: str, version: int) -> tuple[int, int]:
    emulator = Emulator()
    server = make_bridge(
        connections=_connections(emulator), passthrough=False, max_response_chars=10_000_000
    )
    async with Client(server, mode="legacy") as client:
        meter = Meter(client)
        if name == "read":
            if version == 1:
                await meter.call("getObjectSource", objectSourceUrl=MAIN)
            else:
                await meter.call("getObjectSourceV2", objectUrl=LARGE, startLine=100, endLine=199)
        elif name == "modify":
            new = "\n".join(f'    " changed line {i}' for i in range(10))
            if version == 1:
                text = (await meter.call("getObjectSource", objectSourceUrl=MAIN))["data"]["source"]
                lines = text.split("\n")
                lines[499:509] = new.split("\n")
                await meter.call("setObjectSource", objectSourceUrl=MAIN, source="\n".join(lines))
            else:
                read = await meter.call(
                    "getObjectSourceV2", objectUrl=LARGE, startLine=500, endLine=509
                )
                await meter.call(
                    "setObjectSourceV2",
                    objectUrl=LARGE,
                    token=read["data"]["token"],
                    startLine=500,
                    endLine=509,
                    content=new,
                )
        elif name == "search":
            if version == 1:
                await meter.call("getObjectSource", objectSourceUrl=MAIN)
            else:
                await meter.call(
                    "grepObjectSource",
                    objectUrl=LARGE,
                    pattern=r"METHODS\s+calc_0042\b",
                    contextLines=2,
                )
        elif name == "main500":
            if version == 1:
                await meter.call("getObjectSource", objectSourceUrl=MAIN)
            else:
                await meter.call(
                    "getObjectSourceV2",
                    objectUrl=LARGE,
                    includeType="main",
                    startLine=1,
                    endLine=500,
                )
        elif name == "include":
            if version == 1:
                await meter.call("getObjectSource", objectSourceUrl=MAIN)
            else:
                await meter.call("getObjectSourceV2", objectUrl=LARGE, includeType="definitions")
    return meter.received, meter.sent


SCENARIOS = [
    ("read", "Read 100 lines of 10,000"),
    ("modify", "Modify 10 lines"),
    ("search", "Find one method definition"),
    ("main500", "Read 500 lines of a class's main part"),
    ("include", "Read the local definitions include"),
]


@contextmanager
def _bridge_process(emulator_url: str) -> Iterator[str]:
    """The real ``abap-adt mcp --transport http`` in its own process (no shared GIL)."""
    env = {
        **os.environ,
        "ADT_URL": emulator_url,
        "ADT_USER": "DEVELOPER",
        "ADT_PASSWORD": "developer",
        "ADT_SYSTEM": "A4H",
        "MCP_HTTP_TOKEN": TOKEN,
        "ABAP_ADT_CONFIG": os.devnull,
    }
    process = subprocess.Popen(
        [sys.executable, "-m", "adt.app", "mcp", "--transport", "http", "--no-passthrough"],
        env=env,
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        yield line.split("listening on ", 1)[1].strip()
    finally:
        process.terminate()
        process.wait(10)


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[int(len(ordered) * 0.99) - 1] * 1000


async def _overhead(clients: int, calls: int) -> dict[str, Any]:
    emulator = Emulator()
    tools = AgentTools(_connections(emulator))
    args = {"objectUrl": LARGE, "startLine": 100, "endLine": 199}
    await tools.call("getObjectSourceV2", args)  # warm the cache
    direct: list[float] = []
    for _ in range(clients * calls):
        started = time.perf_counter()
        await tools.call("getObjectSourceV2", args)
        direct.append(time.perf_counter() - started)
    await tools.connections.close()

    results = {}
    overheads = {}
    with emulator.serve_in_thread() as emulator_url, _bridge_process(emulator_url) as url:
        for concurrency in (1, clients):
            latencies: list[float] = []
            overhead: list[float] = []

            async def agent(
                samples: list[float] = latencies, extra: list[float] = overhead
            ) -> None:
                headers = {"Authorization": f"Bearer {TOKEN}"}
                async with httpx2.AsyncClient(headers=headers) as http:
                    async with Client(streamable_http_client(url, http_client=http)) as client:
                        await client.call_tool("getObjectSourceV2", args)  # warm up
                        for _ in range(calls):
                            started = time.perf_counter()
                            result = await client.call_tool("getObjectSourceV2", args)
                            elapsed = time.perf_counter() - started
                            assert not result.is_error and result.structured_content
                            samples.append(elapsed)
                            tool_ms = float(result.structured_content["executionTimeMs"])
                            extra.append(elapsed - tool_ms / 1000)

            started = time.perf_counter()
            async with anyio.create_task_group() as group:
                for _ in range(concurrency):
                    group.start_soon(agent)
            results[concurrency] = (
                _percentiles(latencies),
                len(latencies),
                time.perf_counter() - started,
            )
            overheads[concurrency] = _percentiles(overhead)
    return {"direct": _percentiles(direct), "http": results, "overhead": overheads}


async def main(clients: int, calls: int) -> str:
    rows = []
    for key, title in SCENARIOS:
        v1_received, v1_sent = await _scenario(key, 1)
        v2_received, v2_sent = await _scenario(key, 2)
        saved = 100 * (1 - v2_received / v1_received)
        rows.append(
            f"| {title} | {v1_received:,} | {v2_received:,} | {saved:.1f}% "
            f"| {v1_sent:,} | {v2_sent:,} |"
        )
    overhead = await _overhead(clients, calls)
    d50, d99 = overhead["direct"]
    rows_overhead = [f"| tool executor, in-process | - | {d50:.2f} | {d99:.2f} | - |"]
    for concurrency, ((h50, h99), count, wall) in overhead["http"].items():
        rows_overhead.append(
            f"| MCP over HTTP, {concurrency} client(s) | {count} | {h50:.2f} | {h99:.2f} "
            f"| {count / wall:.0f} |"
        )
    rows_per_call = [
        f"| {concurrency} | {o50:.2f} | {o99:.2f} |"
        for concurrency, (o50, o99) in overhead["overhead"].items()
    ]
    tools = len(
        json.dumps(
            [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in tool_list()],
            separators=(",", ":"),
        )
    )
    return "\n".join(
        [
            "# MCP bridge: bytes to the agent, and overhead per call",
            "",
            f"Measured {time.strftime('%Y-%m-%d')} by `python bench/bridge_bytes_and_overhead.py "
            f"--clients {clients} --calls {calls}` on this machine (see the module docstring "
            "for the method).",
            "",
            f"The advertised tool list (12 tools) is {tools:,} bytes of JSON.",
            "",
            "| Scenario | V1 bytes to the agent | V2 bytes to the agent | saved "
            "| V1 bytes sent | V2 bytes sent |",
            "|---|---:|---:|---:|---:|---:|",
            *rows,
            "",
            "Latency of getObjectSourceV2 (warm cache: no ADT request), the bridge in its own "
            "process serving streamable HTTP on 127.0.0.1:",
            "",
            "| Path | calls | p50 ms | p99 ms | calls/s |",
            "|---|---:|---:|---:|---:|",
            *rows_overhead,
            "",
            "Bridge overhead per call: for each call, the client-measured latency minus the "
            "`executionTimeMs` the server reported for it:",
            "",
            "| concurrent clients | overhead p50 ms | overhead p99 ms |",
            "|---:|---:|---:|",
            *rows_per_call,
            "",
            "Timings vary from run to run (shared machine); byte counts vary only by a byte or "
            "two (the digits of `executionTimeMs`).",
            "",
        ]
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results" / "mcp_bridge.md"
    )
    options = parser.parse_args()
    report = anyio.run(main, options.clients, options.calls)
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(report)
    print(report)
