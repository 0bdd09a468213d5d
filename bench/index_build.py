"""Benchmark: building the symbol index of the 10,000-line class, beside lexing it alone.

Method. ``ZCL_DEMO_LARGE`` (the emulator's generated class: 10,000 lines of main source and
its local includes) is indexed in this process, ``--runs`` times: ``ProgramIndex`` over every
unit (lexing, declarations, resolution), and as the anchor, in the same runs, the lexer
alone over the same texts (``adt.abap.lexer.lex``: the part every index pays). CPU time of
this process (``time.process_time``), so the figure is the work, not the machine's load.
This replaces the time limit the unit test ``test_the_large_class_indexes_completely`` had:
a timing belongs beside its anchor, not in a test that fails when the machine is busy.

Run: ``python bench/index_build.py`` (writes bench/results/index_build.md).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from adt.abap.index import ProgramIndex, Unit
from adt.abap.lexer import lex
from adt.emulator.large_sample import large_class_includes, large_class_source

RESULTS = Path(__file__).resolve().parent / "results"


def measure(runs: int) -> tuple[list[float], list[float], int]:
    units = [Unit("main", large_class_source())]
    units += [Unit(kind, text) for kind, text in large_class_includes().items()]
    lines = sum(unit.text.count("\n") + 1 for unit in units)
    index_ms, lex_ms = [], []
    for _ in range(runs):
        started = time.process_time()
        index = ProgramIndex("ZCL_DEMO_LARGE", units)
        index_ms.append((time.process_time() - started) * 1000)
        assert index.symbol("ZCL_DEMO_LARGE") is not None
        started = time.process_time()
        for unit in units:
            lex(unit.text)
        lex_ms.append((time.process_time() - started) * 1000)
    return index_ms, lex_ms, lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    index_ms, lex_ms, lines = measure(args.runs)
    text = "\n".join(
        [
            "# Symbol index of the 10,000-line class (CPU ms)",
            "",
            f"{lines:,} lines over every unit; median (lowest–highest) of {args.runs} runs. "
            "Method: the docstring of bench/index_build.py.",
            "",
            "| what | CPU ms |",
            "|---|---:|",
            f"| ProgramIndex (lex, declare, resolve) | {statistics.median(index_ms):,.0f} "
            f"({min(index_ms):,.0f}–{max(index_ms):,.0f}) |",
            f"| anchor: the lexer alone | {statistics.median(lex_ms):,.0f} "
            f"({min(lex_ms):,.0f}–{max(lex_ms):,.0f}) |",
        ]
    )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "index_build.md").write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
