"""Benchmark: the first documents an editor opens, on a system some way off.

Method. A fresh language-server workspace opens one document, then (afresh) three at once,
against the in-process emulator behind a transport that holds every request ``--delay``
seconds (a round trip to a system elsewhere). Reported: wall time (median of ``--runs``),
ADT requests, and the most requests in flight at once. A session's first request goes alone
(one logon, not one per request: ``docs/client.md``), so this is where that costs a round
trip. Anchor: run the same file from another checkout's directory,
``cd DIR && PYTHONPATH=DIR python /work/main/bench/first_open.py`` (the checkout first on
the path is the one measured).

Run: ``python bench/first_open.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

import httpx
from save_path import QuietEditor

from adt import AdtClient, ConnectionProfile, Secret
from adt.emulator import Emulator
from adt.systems import Connections, EditorSettings, SystemsConfig
from lsp_server.workspace import EditorWorkspace

DOCUMENTS = (
    "adt://A4H/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main",
    "adt://A4H/sap/bc/adt/programs/programs/zdemo_report/source/main",
    "adt://A4H/sap/bc/adt/oo/classes/zcl_demo_counter/source/main",
)


class Distant(httpx.AsyncBaseTransport):
    """Holds each request ``delay`` seconds; counts requests and the most in flight."""

    def __init__(self, inner: httpx.AsyncBaseTransport, delay: float) -> None:
        self.inner, self.delay = inner, delay
        self.requests = self.in_flight = self.peak = 0

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            await asyncio.sleep(self.delay)
            return await self.inner.handle_async_request(request)
        finally:
            self.in_flight -= 1


async def open_fresh(uris: tuple[str, ...], delay: float) -> tuple[float, int, int]:
    """Seconds to open ``uris`` at once in a fresh workspace; requests; most in flight."""
    emulator = Emulator()
    distant = Distant(httpx.ASGITransport(app=emulator.app), delay)
    profile = ConnectionProfile(
        base_url="http://emulator", user="DEVELOPER", password=Secret("developer"), name="A4H"
    )
    client = AdtClient(profile, transport=distant)
    connections = Connections(SystemsConfig({"A4H": profile}), client_factory=lambda p: client)
    workspace = EditorWorkspace(connections, EditorSettings(poll_interval=0), QuietEditor())
    started = time.perf_counter()
    await asyncio.gather(*(workspace.objects.read_document(uri) for uri in uris))
    elapsed = time.perf_counter() - started
    await workspace.close()
    return elapsed, distant.requests, distant.peak


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--delay", type=float, default=0.05, help="seconds per request")
    args = parser.parse_args()
    for uris in (DOCUMENTS[:1], DOCUMENTS):
        runs = [asyncio.run(open_fresh(uris, args.delay)) for _ in range(args.runs)]
        median = statistics.median(r[0] for r in runs) * 1000
        print(
            f"{len(uris)} document(s), {args.delay * 1000:.0f} ms per request: {median:.0f} ms "
            f"(median of {args.runs}), {runs[0][1]} requests, at most {runs[0][2]} at once"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
