"""Benchmark: a warm (cached) 100-line range read at 10,000 and 100,000 lines.

Method. A source service on the in-process emulator reads the whole program once (cold:
one GET), then reads lines 5,000-5,099 (or the middle hundred) 2,000 times from the cache;
we report the median time per read with ``time.perf_counter_ns``. Beside it, in the same run:
the anchor "re-split" — what a cache that keeps only the text must do per read (split the
whole cached text, then slice) — and the floor, slicing an already split list and joining
the hundred lines.

Run: ``python bench/range_reads.py`` (writes bench/results/range_reads.md).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

from keystroke import seeded_emulator
from support_path import emulated_client

from adt.source import SourceService
from adt.source.lines import read_range

RESULTS = Path(__file__).resolve().parent / "results"
READS = 2_000


def _median_us(run: object, repeat: int = READS) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter_ns()
        run()  # type: ignore[operator]
        times.append(time.perf_counter_ns() - started)
    return statistics.median(times) / 1000


async def _ours(service: SourceService, url: str, first: int) -> float:
    times = []
    for _ in range(READS):
        started = time.perf_counter_ns()
        read = await service.get_source_v2(url, start_line=first, end_line=first + 99)
        times.append(time.perf_counter_ns() - started)
        assert read.cached
    return statistics.median(times) / 1000


async def measure(size: int) -> tuple[float, float, float]:
    emulator, (name,) = seeded_emulator([size])
    service = SourceService(emulated_client(emulator), system="A4H")
    url = f"/sap/bc/adt/programs/programs/{name}"
    await service.get_source_v2(url)  # cold: one GET fills the cache
    first = size // 2
    ours = await _ours(service, url, first)
    text = service.cache.get(service.resolve(url).key).text  # type: ignore[union-attr]
    resplit = _median_us(lambda: read_range(text, first, first + 99), repeat=200)
    lines = text.split("\n")
    floor = _median_us(lambda: "\n".join(lines[first - 1 : first + 99]))
    await service.close()
    await service.client.close()
    return ours, resplit, floor


def main() -> int:
    rows = [(size, *asyncio.run(measure(size))) for size in (10_000, 100_000)]
    text = "\n".join(
        [
            "# Warm 100-line range reads (median per read)",
            "",
            f"{READS} cached reads of lines in the middle of a program. Method: the docstring of",
            "bench/range_reads.py.",
            "",
            "| lines | ours (ms) | anchor: re-split the cached text (ms) "
            "| floor: slice + join (ms) |",
            "|---:|---:|---:|---:|",
            *(
                f"| {size:,} | {ours / 1000:.3f} | {resplit / 1000:.3f} | {floor / 1000:.3f} |"
                for size, ours, resplit, floor in rows
            ),
        ]
    )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "range_reads.md").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
