"""Benchmark: where-used on a real code base (abapGit's own 580 objects), cold and warm,
with the emulator's CPU time and memory, beside anchors measured in the same run.

Method. The emulator runs in its own process (``abap-adt emulator``) seeded with the built-in
samples and the corpus (``--corpus``, default ``$ABAP_ADT_ABAPGIT`` or
/work/corpora/abapgit/src; the script says so and stops when it is absent). Nothing else is
asked before the first where-used, so the first request is **cold**: the first where-used
after the emulator started and seeded abapGit. This process drives it through the
project's client (``adt.AdtClient``, read timeout raised to 600 s so that a slow answer is
measured rather than cut), as ADT and abap-adt-api do: ``usageReferences`` at the symbol,
then ``usageSnippets`` of every row that has an identifier. Per symbol: the first request
and ``--repeat`` warm ones; for each the wall time, the emulator's CPU time (user +
system from ``/proc/<pid>/stat``, which a machine shared by other work does not inflate),
the client's (this process's) CPU time, and how long each process waited for a core
(``/proc/<pid>/schedstat``): on a shared machine that wait, not the work, is most of the
wall time, and the table "Where the wall time goes" says so for the most used class.

Symbols: ``ZCX_ABAPGIT_EXCEPTION`` (the most used class, asked first: the cold figure),
then its method ``raise``, the string map's ``clear``, ``get`` and ``set``, the interface
``ZIF_ABAPGIT_DEFINITIONS`` — names that occur in most of abapGit's sources. Anchors in the
same run: the same requests for the samples' interface ``ZIF_DEMO_GREETING`` (one using
object: what a where-used costs over HTTP when it does almost no work), and
``grep -rniw NAME corpus`` (a text search, no resolution). Memory: the emulator's resident
set (``VmRSS``) once seeded and after every request above.

Run: ``python bench/where_used.py`` (writes bench/results/where_used.md).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from corpus_intelligence import (
    CLASSES,
    Target,
    grep_ms,
    percentile,
    rss_mb,
    where_used_targets,
)
from emulated import developer_profile, emulator_process

from adt import AdtClient
from adt.emulator.emulator import samples_dir

RESULTS = Path(__file__).resolve().parent / "results"
DEFAULT_CORPUS = os.environ.get("ABAP_ADT_ABAPGIT", "/work/corpora/abapgit/src")
_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_ms(pid: int) -> float:
    """User + system CPU time of ``pid`` so far (ms)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / _TICKS


def waited_ms(pid: int | str) -> float:
    """Time ``pid`` has spent runnable but waiting for a core so far (ms; the second field
    of ``/proc/<pid>/schedstat``)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[1]) / 1e6


@dataclass(frozen=True)
class Sample:
    """One request (ms): wall time, and where it went — the emulator's CPU and its wait for
    a core, this process's (the client's) CPU and its wait for a core."""

    wall: float
    cpu: float
    waited: float
    client: float
    client_waited: float


class Clock:
    """Reads every clock of :class:`Sample` before and after a request."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def read(self) -> tuple[float, ...]:
        return (
            time.perf_counter() * 1000,
            cpu_ms(self.pid),
            waited_ms(self.pid),
            time.process_time() * 1000,
            waited_ms("self"),
        )

    def since(self, before: tuple[float, ...]) -> Sample:
        after = self.read()
        return Sample(*(a - b for a, b in zip(after, before, strict=True)))


@dataclass
class Timed:
    """The samples of one kind of request: the first, then the warm ones."""

    samples: list[Sample] = field(default_factory=list)

    def warm(self, name: str, share: float) -> float:
        return percentile([getattr(s, name) for s in self.samples[1:]], share)

    def cells(self) -> str:
        first = self.samples[0]
        warm = (
            f"{self.warm('wall', 0.5):,.0f} / {self.warm('wall', 0.95):,.0f}"
            f" ({self.warm('cpu', 0.5):,.0f} / {self.warm('cpu', 0.95):,.0f};"
            f" {self.warm('client', 0.5):,.0f} / {self.warm('client', 0.95):,.0f})"
        )
        return f"{first.wall:,.0f} ({first.cpu:,.0f}; {first.client:,.0f}) | {warm}"

    def breakdown(self, label: str) -> list[str]:
        """Rows of where the wall time went: the first request, the warm median."""
        rows = []
        warm = sorted(self.samples[1:], key=lambda s: s.wall)
        median = warm[len(warm) // 2] if warm else self.samples[0]
        for what, sample in (("first", self.samples[0]), ("warm, the median one", median)):
            rest = sample.wall - sample.cpu - sample.waited - sample.client - sample.client_waited
            rows.append(
                f"| {label}, {what} | {sample.wall:,.0f} | {sample.cpu:,.0f} | "
                f"{sample.waited:,.0f} | {sample.client:,.0f} | {sample.client_waited:,.0f} "
                f"| {rest:,.0f} |"
            )
        return rows


async def where_used(
    client: AdtClient, clock: Clock, target: Target, repeat: int
) -> tuple[Timed, Timed, int, int]:
    """References and snippets, first and warm; using objects and snippet lines found."""
    refs, snips = Timed(), Timed()
    objects = lines = 0
    for _ in range(repeat + 1):
        before = clock.read()
        result = await client.navigation.usages(target.url, target.line, target.column)
        refs.samples.append(clock.since(before))
        before = clock.read()
        groups = await client.navigation.snippets(result)
        snips.samples.append(clock.since(before))
        objects = len(result.objects)
        lines = sum(len(g.snippets) for g in groups)
    return refs, snips, objects, lines


def targets(corpus: Path) -> list[Target]:
    first, *rest = where_used_targets(corpus)
    return [dataclasses.replace(first, label=f"{first.label}, cold"), *rest]


async def measure(corpus: Path, repeat: int) -> list[str]:
    rows = [
        "## Where-used (ms: wall, in brackets the emulator's CPU; the client's CPU)",
        "",
        f"First = the first request for that symbol (the first row's is the first where-used"
        f" after start: cold); warm = {repeat} more, p50 / p95. grep = `grep -rniw NAME"
        " corpus` (text only; lines it printed).",
        "",
        "| symbol | objects | lines | references first | references warm p50 / p95 "
        "| snippets first | snippets warm p50 / p95 | grep (lines) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    with emulator_process(samples_dir(), corpus) as (url, pid):
        profile = developer_profile(url)
        client = AdtClient(profile)
        try:
            await client.read_source(f"{CLASSES}/zcl_demo_greeter/source/main")  # it answers
            seeded = rss_mb(pid)
            breakdown: list[str] = []
            for target in targets(corpus):
                refs, snips, objects, lines = await where_used(client, Clock(pid), target, repeat)
                if not breakdown:
                    breakdown = [
                        *refs.breakdown(f"{target.label}: references"),
                        *snips.breakdown(f"{target.label}: snippets"),
                    ]
                grep, hits = grep_ms(corpus, target.grep)
                rows.append(
                    f"| {target.label} | {objects} | {lines} | {refs.cells()} | "
                    f"{snips.cells()} | {grep:,.0f} ({hits}) |"
                )
            indexed = rss_mb(pid)
        finally:
            await client.close()
    return [
        *rows,
        "",
        "## Where the wall time goes (ms)",
        "",
        "The emulator's CPU and its wait for a core (`/proc/<pid>/schedstat`), the client's"
        " (this process's) CPU and wait, and the rest (neither running nor waiting for a core:"
        " the socket, idle turns of the event loops; negative when the two processes ran at"
        " the same time). Both processes run at the niceness this script was started with.",
        "",
        "| request | wall | emulator CPU | emulator waiting for a core | client CPU "
        "| client waiting for a core | rest |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *breakdown,
        "",
        "## Emulator memory (VmRSS)",
        "",
        "| state | MB |",
        "|---|---:|",
        f"| samples and abapGit seeded | {seeded:.0f} |",
        f"| after every request above (where-used index built) | {indexed:.0f} |",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path(DEFAULT_CORPUS))
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("--output", type=Path, default=RESULTS / "where_used.md")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"skipped: no abapGit corpus at {args.corpus} (set --corpus or ABAP_ADT_ABAPGIT)")
        return 0
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()[0]
    report = asyncio.run(measure(args.corpus, args.repeat))
    head = [
        "# Where-used on abapGit",
        "",
        f"Run {started}: `python bench/where_used.py` (corpus {args.corpus}, {args.repeat} warm"
        f" repetitions), 2 cores shared with other work (load average {load:.1f} at start).",
        "",
    ]
    args.output.write_text("\n".join(head + report) + "\n", encoding="utf-8")
    print("\n".join(head + report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
