"""A raw HTTP/1.1 load generator for JSON-RPC over streamable HTTP: pre-encoded requests on
keep-alive connections, no MCP client library, so that the generator is not the bottleneck.
Used by the bridge benchmarks; it measures latency per call and throughput."""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from dataclasses import dataclass
from typing import Any


def request_bytes(host: str, port: int, token: str, body: dict[str, Any]) -> bytes:
    payload = json.dumps(body).encode()
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: {host}:{port}\r\nAuthorization: Bearer {token}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        f"Content-Length: {len(payload)}\r\n\r\n"
    )
    return head.encode() + payload


async def _one_connection(
    host: str, port: int, request: bytes, calls: int, latencies: list[float], sizes: list[int]
) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        for _ in range(calls):
            started = time.perf_counter()
            writer.write(request)
            await writer.drain()
            head = await reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = next(
                int(line.split(b":", 1)[1])
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-length:")
            )
            body = await reader.readexactly(length)
            latencies.append(time.perf_counter() - started)
            sizes.append(len(body))
            if status != 200:
                raise RuntimeError(f"HTTP {status}: {body[:200]!r}")
    finally:
        writer.close()


@dataclass(frozen=True)
class LoadResult:
    clients: int
    calls: int
    seconds: float
    p50_ms: float
    p99_ms: float
    answer_bytes: int

    @property
    def calls_per_second(self) -> float:
        return self.calls / self.seconds


async def run_load(
    host: str, port: int, request: bytes, clients: int, calls_per_client: int
) -> LoadResult:
    latencies: list[float] = []
    sizes: list[int] = []
    started = time.perf_counter()
    await asyncio.gather(
        *(
            _one_connection(host, port, request, calls_per_client, latencies, sizes)
            for _ in range(clients)
        )
    )
    seconds = time.perf_counter() - started
    ordered = sorted(latencies)
    return LoadResult(
        clients=clients,
        calls=len(latencies),
        seconds=seconds,
        p50_ms=statistics.median(ordered) * 1000,
        p99_ms=ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] * 1000,
        answer_bytes=int(statistics.median(sizes)),
    )
