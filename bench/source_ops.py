"""Benchmark: the V2 design's §8.1 scenarios on the 10,000-line sample class, V1 against V2.

Method: the emulator runs in-process (httpx ASGI transport, no network), seeded with the
built-in samples. For each scenario we call the source operations the way a tool call would
and measure

* bytes returned to the caller: the JSON body ``{"status": "success", "data": ...}`` a tool
  would send back (UTF-8 length);
* bytes sent by the caller: the JSON of the arguments;
* ADT requests: counted by the emulator's request log (the CSRF fetch included when it
  happens);
* wall time: median of ``--repeat`` runs, each on a fresh emulator and client (cold cache).

Run: ``python bench/source_ops.py`` (writes bench/results/source_ops.md).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from adt import AdtClient, ConnectionProfile, Secret
from adt.emulator import Emulator
from adt.source import SourceService

LARGE = "/sap/bc/adt/oo/classes/zcl_demo_large"
MAIN = f"{LARGE}/source/main"


def _size(payload: object) -> int:
    return len(json.dumps(payload, ensure_ascii=False).encode("utf-8"))


def _ok(data: object) -> dict[str, Any]:
    return {"status": "success", "data": data}


@dataclass
class Measure:
    returned: int = 0
    sent: int = 0
    requests: int = 0
    seconds: float = 0.0


Scenario = Callable[[SourceService], Awaitable[Measure]]


async def _run(scenario: Scenario) -> Measure:
    emulator = Emulator()
    profile = ConnectionProfile(
        base_url="http://emulator", user="DEVELOPER", password=Secret("developer")
    )
    client = AdtClient(profile, transport=httpx.ASGITransport(app=emulator.app))
    service = SourceService(client, system="A4H")
    try:
        emulator.reset_request_log()
        started = time.perf_counter()
        measure = await scenario(service)
        measure.seconds = time.perf_counter() - started
        measure.requests = sum(emulator.request_counts().values())
        assert emulator.locks() == []
        return measure
    finally:
        await service.close()
        await client.close()


# --- V1: whole sources travel ------------------------------------------------------------


async def v1_read_100(service: SourceService) -> Measure:
    args = {"objectSourceUrl": MAIN}
    text = await service.get_source(MAIN)
    return Measure(returned=_size(_ok({"source": text})), sent=_size(args))


async def v1_modify_10(service: SourceService) -> Measure:
    text = await service.get_source(MAIN)
    returned = _size(_ok({"source": text}))
    lines = text.split("\n")
    lines[499:509] = [f'    " changed line {i}' for i in range(10)]
    new = "\n".join(lines)
    lock = await service.lock(LARGE)
    args = {"objectSourceUrl": MAIN, "source": new, "lockHandle": lock.lock_handle}
    result = await service.set_source(MAIN, source=new, lock_handle=lock.lock_handle)
    await service.unlock(LARGE, lock.lock_handle)
    returned += _size(_ok(lock.to_dict())) + _size(_ok(result.to_dict())) + _size(_ok({}))
    return Measure(returned=returned, sent=_size(args) + 2 * _size({"objectUrl": LARGE}))


async def v1_search(service: SourceService) -> Measure:
    text = await service.get_source(MAIN)  # the agent searches the whole text itself
    return Measure(returned=_size(_ok({"source": text})), sent=_size({"objectSourceUrl": MAIN}))


async def v1_main_500(service: SourceService) -> Measure:
    text = await service.get_source(MAIN)  # V1 has no ranges: the whole main part travels
    return Measure(returned=_size(_ok({"source": text})), sent=_size({"objectSourceUrl": MAIN}))


async def v1_include(service: SourceService) -> Measure:
    text = await service.get_source(MAIN)  # V1 agents read the class source to find it
    return Measure(returned=_size(_ok({"source": text})), sent=_size({"objectSourceUrl": MAIN}))


# --- V2: ranges, grep, patches -----------------------------------------------------------


async def v2_read_100(service: SourceService) -> Measure:
    args = {"objectUrl": LARGE, "startLine": 100, "endLine": 199}
    read = await service.get_source_v2(LARGE, start_line=100, end_line=199)
    return Measure(returned=_size(_ok(read.to_dict())), sent=_size(args))


async def v2_modify_10(service: SourceService) -> Measure:
    read = await service.get_source_v2(LARGE, start_line=500, end_line=509)
    content = "\n".join(f'    " changed line {i}' for i in range(10))
    args = {
        "objectUrl": LARGE,
        "token": read.token,
        "startLine": 500,
        "endLine": 509,
        "content": content,
    }
    result = await service.set_source_v2(
        LARGE, token=read.token, start_line=500, end_line=509, content=content
    )
    returned = _size(_ok(read.to_dict())) + _size(_ok(result.to_dict()))
    return Measure(returned=returned, sent=_size(args) + _size({"objectUrl": LARGE}))


async def v2_search(service: SourceService) -> Measure:
    pattern = r"METHODS\s+calc_0042\b"
    args = {"objectUrl": LARGE, "pattern": pattern, "contextLines": 2}
    found = await service.grep(LARGE, pattern=pattern, context_lines=2)
    assert found.match_count == 1
    return Measure(returned=_size(_ok(found.to_dict())), sent=_size(args))


async def v2_search_all(service: SourceService) -> Measure:
    pattern = r"^\s*METHODS\s+\w+"
    args = {"objectUrl": LARGE, "pattern": pattern, "maxMatches": 100}
    found = await service.grep(LARGE, pattern=pattern, max_matches=100)
    assert found.match_count == 100 and found.truncated
    return Measure(returned=_size(_ok(found.to_dict())), sent=_size(args))


async def v2_main_500(service: SourceService) -> Measure:
    args = {"objectUrl": LARGE, "includeType": "main", "startLine": 1, "endLine": 500}
    read = await service.get_source_v2(LARGE, include_type="main", start_line=1, end_line=500)
    assert (read.start_line, read.end_line) == (1, 500)
    return Measure(returned=_size(_ok(read.to_dict())), sent=_size(args))


async def v2_include(service: SourceService) -> Measure:
    args = {"objectUrl": LARGE, "includeType": "definitions"}
    read = await service.get_source_v2(LARGE, include_type="definitions")
    return Measure(returned=_size(_ok(read.to_dict())), sent=_size(args))


async def v2_warm_read(service: SourceService) -> Measure:
    await service.get_source_v2(LARGE, start_line=1, end_line=1)
    emulator_requests_before = service.client.request_count
    read = await service.get_source_v2(LARGE, start_line=100, end_line=199)
    assert service.client.request_count == emulator_requests_before, "warm read made a request"
    return Measure(returned=_size(_ok(read.to_dict())), sent=0)


SCENARIOS: list[tuple[str, Scenario, Scenario]] = [
    ("Read 100 lines of 10,000", v1_read_100, v2_read_100),
    ("Modify 10 lines", v1_modify_10, v2_modify_10),
    ("Find one method definition", v1_search, v2_search),
    ("List method definitions (first 100)", v1_search, v2_search_all),
    ("Read 500 lines of a class's main part", v1_main_500, v2_main_500),
    ("Read the local definitions include", v1_include, v2_include),
]


async def main(repeat: int) -> str:
    rows = []
    for title, v1, v2 in SCENARIOS:
        v1_runs = [await _run(v1) for _ in range(repeat)]
        v2_runs = [await _run(v2) for _ in range(repeat)]
        a, b = v1_runs[0], v2_runs[0]
        saved = 100 * (1 - b.returned / a.returned)
        rows.append(
            f"| {title} | {a.returned:,} | {b.returned:,} | {saved:.1f}% | {a.sent:,} | {b.sent:,} "
            f"| {a.requests} | {b.requests} "
            f"| {statistics.median(r.seconds for r in v1_runs) * 1000:.1f} "
            f"| {statistics.median(r.seconds for r in v2_runs) * 1000:.1f} |"
        )
    warm = await _run(v2_warm_read)
    header = (
        "| Scenario | V1 bytes returned | V2 bytes returned | saved | V1 bytes sent | "
        "V2 bytes sent | V1 ADT requests | V2 ADT requests | V1 ms | V2 ms |\n"
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    return "\n".join(
        [
            "# Source operations: V1 against V2 (ZCL_DEMO_LARGE, 10,000 lines)",
            "",
            f"Measured {time.strftime('%Y-%m-%d')} by "
            f"`python bench/source_ops.py --repeat {repeat}` "
            "on the in-process emulator (see the module docstring for the method). "
            "ADT requests include the session's first CSRF token fetch where one was needed; "
            "times are medians of cold runs on this machine and include the emulator's own work.",
            "",
            header,
            *rows,
            "",
            f"A warm V2 read (within the cache's freshness) returned {warm.returned:,} bytes and "
            f"made 0 ADT requests (the warm-up read made {warm.requests}).",
            "",
        ]
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results" / "source_ops.md"
    )
    options = parser.parse_args()
    report = asyncio.run(main(options.repeat))
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(report)
    print(report)
