"""Benchmark: where-used, completion, hover and definition on a real code base (abapGit's own
580 objects), and the emulator's memory, each beside an anchor measured in the same run.

Method. The emulator runs in its own process (``abap-adt emulator``) seeded with the built-in
samples (for the anchors: the 51-line ``ZCL_DEMO_GREETER`` and the 10,000-line
``ZCL_DEMO_LARGE``) and the corpus (``--corpus``, default ``$ABAP_ADT_ABAPGIT`` or
/work/corpora/abapgit/src; the script says so and stops when it is absent). This process
drives it through the project's client (``adt.AdtClient``, its own HTTP connection, read
timeout raised to 600 s so that a slow answer is measured rather than cut), in this order:

1. the emulator's resident set (``VmRSS``) once it answers: **seeded**;
2. **completion, hover (element info) and definition** at ``--positions`` places of the
   corpus, drawn with a fixed seed from member calls ``x->m(`` in class sources: completion
   with the editor's unsaved text (the line cut after ``x->`` and two letters of ``m``),
   hover and definition on ``m`` with the stored text. Pass one is **cold** (the first
   request on each object after start), passes two and three **warm**. The same in the
   10,000-line class (``me->calc_0`` typed into a method; hover and definition on a local)
   and, as the anchor, in the 51-line class;
3. **where-used** (``usageReferences``, then ``usageSnippets`` of every row, as ADT and the
   client do) of ``ZCX_ABAPGIT_EXCEPTION`` (the most used class), its method ``raise``, the
   string map's ``clear``, ``get`` and ``set``, and the interface ``ZIF_ABAPGIT_DEFINITIONS``:
   the first request of each (the first one is the cold build of the where-used index) and
   ``--repeat`` warm ones; anchors: the same request for the samples' interface
   ``ZIF_DEMO_GREETING``, and ``grep -rniw NAME corpus`` (a text search, no resolution);
4. the resident set again: **indexed**.

Reported: p50 and p95 in milliseconds (the first request alone for cold where-used), the
counts each answer carried (so that an empty answer cannot pass as fast), and the memory.

Run: ``python bench/corpus_intelligence.py`` (writes bench/results/corpus_intelligence.md).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from emulated import developer_profile, emulator_process

from adt import AdtClient
from adt.emulator.emulator import samples_dir
from adt.emulator.large_sample import large_class_source
from adt.errors import AdtError

RESULTS = Path(__file__).resolve().parent / "results"
DEFAULT_CORPUS = os.environ.get("ABAP_ADT_ABAPGIT", "/work/corpora/abapgit/src")
CLASSES = "/sap/bc/adt/oo/classes"
GREETER = f"{CLASSES}/zcl_demo_greeter/source/main"
LARGE = f"{CLASSES}/zcl_demo_large/source/main"
_CALL = re.compile(r"\b(?P<var>[a-z_][\w]*)->(?P<member>[a-z_][\w]*)\(")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


@dataclass
class Series:
    """Times (ms) of one kind of request and what the answers carried."""

    times: list[float] = field(default_factory=list)
    found: int = 0
    asked: int = 0

    def line(self, label: str) -> str:
        if not self.times:
            return f"| {label} | – | – | 0/{self.asked} |"
        p50, p95 = percentile(self.times, 0.5), percentile(self.times, 0.95)
        return f"| {label} | {p50:,.0f} | {p95:,.0f} | {self.found}/{self.asked} |"


@dataclass(frozen=True)
class Spot:
    """One place to ask at: the source, its text, the line (1-based), the member's column
    and name, and the text as typed for completion."""

    source: str
    text: str
    line: int
    column: int
    member: str
    typed: str
    proposal: str = ""  # what completion must offer (default: the member)


def corpus_spots(corpus: Path, count: int) -> list[Spot]:
    """``count`` member calls ``x->m(`` in different class sources, drawn with a fixed seed."""
    spots: list[Spot] = []
    for path in sorted(corpus.rglob("*.clas.abap")):
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        for number, line in enumerate(lines, start=1):
            code = line.split('"', 1)[0]
            match = _CALL.search(code)
            if match and not line.lstrip().startswith("*") and "'" not in code[: match.start()]:
                name = path.name.split(".")[0]
                column = match.start("member")
                typed = lines[:]
                typed[number - 1] = line[: column + 2]
                spots.append(
                    Spot(
                        f"{CLASSES}/{name}/source/main",
                        text,
                        number,
                        column,
                        match.group("member"),
                        "\n".join(typed),
                    )
                )
                break
    random.Random(20).shuffle(spots)
    return spots[:count]


def large_spots(count: int) -> list[Spot]:
    """Places in ZCL_DEMO_LARGE's methods: ``me->calc_0`` typed in place of a line,
    ``lv_total`` to hover and go to."""
    text = large_class_source()
    lines = text.split("\n")
    starts = [n for n, line in enumerate(lines, start=1) if line.startswith("  METHOD calc_")]
    spots: list[Spot] = []
    for start in random.Random(21).sample(starts, count):
        typed = lines[:]
        typed[start + 11] = "    me->calc_0"  # the line after ENDDO (0-based start+11)
        target = start + 3  # "    lv_total = iv_value * …"
        spots.append(Spot(LARGE, text, target, 4, "lv_total", "\n".join(typed), proposal="CALC_0"))
    return spots


def greeter_spot(text: str) -> Spot:
    lines = text.replace("\r\n", "\n").split("\n")
    number = next(n for n, line in enumerate(lines, start=1) if "mo_formatter->" in line)
    column = lines[number - 1].index("mo_formatter->") + len("mo_formatter->")
    member = re.match(r"\w+", lines[number - 1][column:])
    typed = lines[:]
    typed[number - 1] = lines[number - 1][: column + 2]
    return Spot(
        GREETER,
        "\n".join(lines),
        number,
        column,
        member.group() if member else "",
        "\n".join(typed),
    )


async def timed(call: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    start = time.perf_counter()
    try:
        found = await call()
    except AdtError as error:
        found = error
    return (time.perf_counter() - start) * 1000, found


class Intelligence:
    """Completion, hover and definition at spots, cold and warm."""

    def __init__(self, client: AdtClient) -> None:
        self.client = client

    async def run(
        self, spots: list[Spot], completion_line: Callable[[Spot], int]
    ) -> dict[str, Series]:
        series = {
            f"{kind} {phase}": Series()
            for kind in ("completion", "hover", "definition")
            for phase in ("cold", "warm")
        }
        for round_ in range(3):
            phase = "cold" if round_ == 0 else "warm"
            for spot in spots:
                await self._one(spot, completion_line(spot), series, phase)
        return series

    async def _one(self, spot: Spot, line: int, series: dict[str, Series], phase: str) -> None:
        typed_line = spot.typed.split("\n")[line - 1]
        ms, found = await timed(
            lambda: self.client.completion.proposals(spot.source, spot.typed, line, len(typed_line))
        )
        self._count(series[f"completion {phase}"], ms, _proposes(found, spot.member, spot.proposal))
        ms, found = await timed(
            lambda: self.client.navigation.element_info(
                spot.source, spot.text, spot.line, spot.column + 1
            )
        )
        named = found is not None and not isinstance(found, Exception)
        self._count(
            series[f"hover {phase}"], ms, named and found.name.upper() == spot.member.upper()
        )
        ms, found = await timed(
            lambda: self.client.navigation.definition(
                spot.source, spot.text, spot.line, spot.column + 1
            )
        )
        self._count(series[f"definition {phase}"], ms, not isinstance(found, Exception))

    @staticmethod
    def _count(series: Series, ms: float, found: bool) -> None:
        series.times.append(ms)
        series.asked += 1
        series.found += bool(found)


def _proposes(found: Any, member: str, prefix: str) -> bool:
    """Whether the proposals hold ``member`` (or, when given, one starting with ``prefix``)."""
    if isinstance(found, Exception):
        return False
    if prefix:
        return any(p.identifier.startswith(prefix.upper()) for p in found)
    return any(p.identifier.upper() == member.upper() for p in found)


@dataclass(frozen=True)
class Target:
    label: str
    grep: str
    url: str
    line: int | None = None
    column: int | None = None


def declaration(corpus: Path, name: str, pattern: str, label: str) -> Target:
    """A method's declaration in a class source (the position where-used is asked at)."""
    path = next(corpus.rglob(f"{name}.clas.abap"))
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        match = re.search(pattern, line, re.IGNORECASE)
        if match:
            member = match.group(1)
            url = f"{CLASSES}/{name}/source/main"
            return Target(label, member, url, number, match.start(1))
    raise LookupError(f"{pattern} not in {path}")


async def where_used(
    client: AdtClient, target: Target, repeat: int
) -> tuple[float, float, list[float], list[float], int, int]:
    """First references and snippets time, the warm times, objects and lines found."""
    refs: list[float] = []
    snips: list[float] = []
    objects = lines = 0
    for _ in range(repeat + 1):
        start = time.perf_counter()
        result = await client.navigation.usages(target.url, target.line, target.column)
        refs.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        groups = await client.navigation.snippets(result)
        snips.append((time.perf_counter() - start) * 1000)
        objects = len(result.objects)
        lines = sum(len(g.snippets) for g in groups)
    return refs[0], snips[0], refs[1:], snips[1:], objects, lines


def grep_ms(corpus: Path, word: str) -> tuple[float, int]:
    start = time.perf_counter()
    done = subprocess.run(
        ["grep", "-rniw", word, str(corpus)], capture_output=True, text=True, check=False
    )
    return (time.perf_counter() - start) * 1000, len(done.stdout.splitlines())


async def measure(corpus: Path, positions: int, repeat: int) -> list[str]:
    report: list[str] = []
    with emulator_process(samples_dir(), corpus) as (url, pid):
        profile = developer_profile(url)
        client = AdtClient(profile)
        try:
            greeter_text = (await client.read_source(GREETER)).text
            seeded = rss_mb(pid)
            intelligence = Intelligence(client)
            spots = corpus_spots(corpus, positions)
            corpus_series = await intelligence.run(spots, lambda s: s.line)
            large = await intelligence.run(large_spots(max(5, positions // 3)), _typed_line)
            anchor = await intelligence.run([greeter_spot(greeter_text)] * 5, lambda s: s.line)
            report += _intelligence_table(corpus_series, large, anchor, len(spots))
            report += await _where_used_table(client, corpus, repeat)
            indexed = rss_mb(pid)
        finally:
            await client.close()
    report += [
        "",
        "## Emulator memory (VmRSS)",
        "",
        "| state | MB |",
        "|---|---:|",
        f"| samples and abapGit seeded | {seeded:.0f} |",
        f"| after every request above (where-used index built) | {indexed:.0f} |",
    ]
    return report


def _typed_line(spot: Spot) -> int:
    lines = spot.typed.split("\n")
    return next(n for n, line in enumerate(lines, start=1) if line == "    me->calc_0")


def _intelligence_table(
    corpus: dict[str, Series], large: dict[str, Series], anchor: dict[str, Series], count: int
) -> list[str]:
    rows = [
        "## Completion, hover and definition (ms; found = answers that named the member)",
        "",
        f"{count} places in abapGit (one per class), the 10,000-line class, and the 51-line"
        " class as the anchor.",
        "",
        "| request | p50 | p95 | found |",
        "|---|---:|---:|---:|",
    ]
    for name, table in (("abapGit", corpus), ("10k-line class", large), ("51-line class", anchor)):
        rows += [series.line(f"{name}: {kind}") for kind, series in table.items()]
    return rows


def where_used_targets(corpus: Path) -> list[Target]:
    """The symbols both where-used benches ask for: the most used class of abapGit first (its
    first request is the cold one), common members, an interface, the samples' anchor."""
    return [
        Target(
            "ZCX_ABAPGIT_EXCEPTION (class)",
            "zcx_abapgit_exception",
            f"{CLASSES}/zcx_abapgit_exception",
        ),
        declaration(
            corpus,
            "zcx_abapgit_exception",
            r"CLASS-METHODS\s+(raise)\b",
            "zcx_abapgit_exception=>raise",
        ),
        declaration(corpus, "zcl_abapgit_string_map", r"METHODS\s+(clear)\b", "string map ->clear"),
        declaration(corpus, "zcl_abapgit_string_map", r"METHODS\s+(get)\b", "string map ->get"),
        declaration(corpus, "zcl_abapgit_string_map", r"METHODS\s+(set)\b", "string map ->set"),
        Target(
            "ZIF_ABAPGIT_DEFINITIONS (interface)",
            "zif_abapgit_definitions",
            "/sap/bc/adt/oo/interfaces/zif_abapgit_definitions",
        ),
        Target(
            "anchor: ZIF_DEMO_GREETING (samples)",
            "zif_demo_greeting",
            "/sap/bc/adt/oo/interfaces/zif_demo_greeting",
        ),
    ]


async def _where_used_table(client: AdtClient, corpus: Path, repeat: int) -> list[str]:
    targets = where_used_targets(corpus)
    rows = [
        "",
        "## Where-used (ms)",
        "",
        "First = the first request for that symbol (the first row's is the cold build of the"
        f" where-used index); warm = {repeat} more. grep = `grep -rniw NAME corpus` (text only).",
        "",
        "| symbol | objects | lines | references first | references warm p50 / p95 "
        "| snippets first | snippets warm p50 / p95 | grep (lines) |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for target in targets:
        first, snip_first, refs, snips, objects, lines = await where_used(client, target, repeat)
        grep, hits = grep_ms(corpus, target.grep)
        warm_refs = f"{percentile(refs, 0.5):,.0f} / {percentile(refs, 0.95):,.0f}"
        warm_snips = f"{percentile(snips, 0.5):,.0f} / {percentile(snips, 0.95):,.0f}"
        rows.append(
            f"| {target.label} | {objects} | {lines} | {first:,.0f} | {warm_refs} | "
            f"{snip_first:,.0f} | {warm_snips} | {grep:,.0f} ({hits}) |"
        )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path(DEFAULT_CORPUS))
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--output", type=Path, default=RESULTS / "corpus_intelligence.md")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"skipped: no abapGit corpus at {args.corpus} (set --corpus or ABAP_ADT_ABAPGIT)")
        return 0
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    report = asyncio.run(measure(args.corpus, args.positions, args.repeat))
    head = [
        "# Code intelligence on abapGit",
        "",
        f"Run {started}: `python bench/corpus_intelligence.py` (corpus {args.corpus}, "
        f"{args.positions} places, {args.repeat} warm repetitions), 2 shared cores.",
        "",
    ]
    args.output.write_text("\n".join(head + report) + "\n", encoding="utf-8")
    print("\n".join(head + report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
