"""Benchmark: planning a CDS element rename on the RAP flight scenario (evaluate, then
preview), first and warm, beside an ABAP method rename on the same system as the anchor.

Method. The emulator runs in this process, seeded with the flight scenario
(``--corpus``, default /work/corpora/flight-2023/src; the script says so and stops when it
is absent), and is driven through the project's client over an in-memory ASGI transport,
as the workbench does: ``rename_evaluate`` at the element's alias in its data definition,
then ``rename_preview`` with a new name. The first evaluate parses the CDS catalog and
indexes the ABAP programs that name the element and one of its entities (the places in
ABAP: SQL, EML, typed components); the repeats find those indexes cached. Per element the
wall time of each request (this process does the server's work too, so it is CPU-bound) and
the places found; the anchor is the same two requests for the ABAP method
``setTravelNumber`` of the travel behavior pool. The machine's load average is printed with
the figures: on a shared machine they move with it.

Run: ``python bench/cds_rename.py`` (writes bench/results/cds_rename.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

import httpx

from adt import AdtClient, ConnectionProfile, Secret
from adt.emulator import Emulator
from adt.urls import object_url

RESULTS = Path(__file__).resolve().parent / "results"
DEFAULT_CORPUS = "/work/corpora/flight-2023/src"
USERS = {"DEVELOPER": "developer"}
VIEW = "/DMO/R_TRAVEL_D"
ELEMENTS = [("TravelID", "TripID"), ("Description", "Memo"), ("TotalPrice", "GrossPrice")]
POOL = "/sap/bc/adt/oo/classes/%2fdmo%2fbp_travel_d/includes/implementations"
Target = tuple[str, str, int, int, int, str]  # label, source URL, line, start, end, new


def _targets(emulator: Emulator) -> list[Target]:
    url = object_url("DDLS/DF", VIEW) + "/source/main"
    lines = (emulator.source(url) or "").split("\n")
    found: list[Target] = []
    for name, new in ELEMENTS:
        line = next(n for n, text in enumerate(lines, 1) if f"as {name}" in text)
        column = lines[line - 1].rindex(name)
        found.append((f"{VIEW}.{name}", url, line, column, column + len(name), new))
    pool = (emulator.source(POOL) or "").split("\n")
    line = next(n for n, text in enumerate(pool, 1) if "METHOD setTravelNumber." in text)
    column = pool[line - 1].index("setTravelNumber")
    found.append(("anchor: ABAP method setTravelNumber", POOL, line, column, column + 15, "x"))
    return found


async def _measure(emulator: Emulator, target: Target, runs: int) -> tuple[list[float], int]:
    _, url, line, start, end, new = target
    profile = ConnectionProfile(
        base_url="http://emulator", user="DEVELOPER", password=Secret("developer"), name="A4H"
    )
    timings: list[float] = []
    places = 0
    async with AdtClient(profile, transport=httpx.ASGITransport(app=emulator.app)) as adt:
        for _ in range(runs):
            started = time.perf_counter()
            evaluated = await adt.refactorings.rename_evaluate(url, line, start, end)
            previewed = await adt.refactorings.rename_preview(evaluated, new)
            timings.append((time.perf_counter() - started) * 1000)
            places = sum(len(a.replacements) for a in previewed.affected)
    return timings, places


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--corpus", default=os.environ.get("ADT_FLIGHT_CORPUS", DEFAULT_CORPUS))
    parser.add_argument("--runs", type=int, default=4)
    args = parser.parse_args()
    if not Path(args.corpus).is_dir():
        print(f"no flight scenario at {args.corpus}: nothing measured", file=sys.stderr)
        return 1
    emulator = Emulator(users=USERS, seed_dirs=[args.corpus])
    rows = []
    for target in _targets(emulator):
        timings, places = asyncio.run(_measure(emulator, target, args.runs))
        warm = statistics.median(timings[1:]) if len(timings) > 1 else timings[0]
        rows.append(f"| {target[0]} | {places} | {timings[0]:,.0f} | {warm:,.0f} |")
    load = " / ".join(f"{x:.2f}" for x in os.getloadavg())
    text = "\n".join(
        [
            "# CDS element rename on the flight scenario (evaluate + preview, wall ms)",
            "",
            f"Load average (1/5/15 min) at the end: {load}. First: the first evaluate and "
            f"preview of the element in the process; warm: median of the {args.runs - 1} "
            "repeats. Method: the docstring of bench/cds_rename.py.",
            "",
            "| element | places | first ms | warm ms |",
            "|---|---:|---:|---:|",
            *rows,
            "",
        ]
    )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "cds_rename.md").write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
