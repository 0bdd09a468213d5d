"""Benchmark: the pretty printer's CPU time in-process, and the cut of a text into pieces
that the language server makes before the first format of a document.

Method. The text is ``bench/editing.py``'s class (``REPORT`` and a local class of
``--lines`` lines, methods of twenty commented statements; with ``--source abapgit``
abapGit's own classes cut at that many lines, as ``bench/lsp_requests.py`` takes them),
printed with the A4H settings (``keywordUpper``, indentation). Each measurement runs in a
fresh process: the printer ``--runs`` times (CPU time of the process, best and worst), then
``segments.scan`` as many times where the checkout has it. With ``--before DIR`` (a checkout
of another commit, e.g. ``git worktree add DIR fa54eac``) the two checkouts alternate, three
processes each, so a loaded machine weighs on both alike: the anchor.

Run: ``python bench/printer.py --before DIR`` (writes bench/results/printer.md, or
``--out NAME``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

_CHILD = """
import json, sys, time
sys.path.insert(0, {bench!r})
from editing import class_source
from lsp_requests import corpus_source
from adt.abap.format.pretty import PrinterSettings, pretty_print
source = corpus_source if {source!r} == "abapgit" else class_source
lines = ["REPORT zx.", *source({lines} - 1)]
text = "\\n".join(lines)
found = {{"print": [], "scan": []}}
for _ in range({runs}):
    start = time.process_time()
    pretty_print(text, PrinterSettings())
    found["print"].append(time.process_time() - start)
try:
    from adt.abap.format.segments import scan
except ImportError:
    scan = None
for _ in range({runs} if scan else 0):
    start = time.process_time()
    scan(lines)
    found["scan"].append(time.process_time() - start)
print(json.dumps(found))
"""


def measure(checkout: Path, lines: int, runs: int, source: str) -> dict[str, list[float]]:
    code = _CHILD.format(bench=str(HERE), lines=lines, runs=runs, source=source)
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env,
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, list[float]] = json.loads(done.stdout)
    return result


def _cell(values: list[float]) -> str:
    return f"{min(values):.2f}–{max(values):.2f} s" if values else "—"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--before", type=Path, help="a checkout to alternate with")
    parser.add_argument("--source", choices=["class", "abapgit"], default="class")
    parser.add_argument("--out", default="printer", help="results file name (without .md)")
    args = parser.parse_args()
    checkouts = {"this checkout": ROOT}
    if args.before:
        checkouts["before"] = args.before.resolve()
    found: dict[str, dict[str, list[float]]] = {name: {} for name in checkouts}
    for _ in range(3):
        for name, checkout in checkouts.items():
            for what, values in measure(checkout, args.lines, args.runs, args.source).items():
                found[name].setdefault(what, []).extend(values)
    load = os.getloadavg()
    rows = [
        f"# The pretty printer on {args.lines:,} lines (CPU seconds, in-process)"
        + (" of abapGit's classes" if args.source == "abapgit" else ""),
        "",
        f"Best–worst of {3 * args.runs} runs in 3 processes per checkout, alternating; load "
        f"average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (2 cores). Method: "
        "the docstring of bench/printer.py.",
        "",
        "| checkout | pretty_print | cut into pieces (segments.scan) |",
        "|---|---:|---:|",
    ]
    for name, timings in found.items():
        rows.append(f"| {name} | {_cell(timings['print'])} | {_cell(timings.get('scan', []))} |")
    text = "\n".join(rows) + "\n"
    (HERE / "results").mkdir(exist_ok=True)
    (HERE / "results" / f"{args.out}.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
