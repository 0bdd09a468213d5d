"""Benchmark: the cost of one incremental change, ours against pygls' default document.

Method: a document of N lines of ABAP-like text (N = 1,000, 10,000, 100,000) receives a typing
session of ``--changes`` edits drawn with a fixed seed: 80 % single-character insertions at a
random place, 10 % deletions of one character, 5 % pasted two-line blocks, 5 % deleted lines.
Both implementations get the identical sequence of ``lsprotocol`` change events (UTF-16
positions): pygls' ``TextDocument.apply_change`` and our ``TextBuffer.apply_change`` (including
reading the positions out of the event, as the server does). We report the median and the
95th percentile per change, measured with ``time.perf_counter_ns`` around each call, and check
that both end with the same text. Our cost is also given separately for the changes that add or
remove lines (the pastes and line deletions, about a tenth of the session): they splice the
list of lines, which moves one pointer per following line, so unlike the other changes they
grow with the document.

The cost of a save is first the time to derive the line hunks (``TextBuffer.hunks``) after the
session, once for edits clustered in one method and once for edits spread over the whole
document (the worst case: the touched window spans almost every line). Then a whole save end
to end: the language server's workspace saving 10 spread edits of the 10,000-line sample
class through the source operations to the in-process emulator (the new stateful session's
CSRF token fetch, lock, verify, one PUT, read back, unlock), median of 5, with the ADT
requests counted by the emulator.

Line differences. What the editor is shown after a save the system normalised, a reload or
a remote change comes from comparing two whole texts (``adt.source.linediff``). Measured on
the same document at each size (``--diff-sizes``, default 10,000, 100,000 and 1,000,000
lines), CPU time: a same-count normalisation (trailing blanks trimmed on 10 spread lines) and
a reload (10 lines inserted and 20 removed, spread), beside ``difflib.SequenceMatcher`` — what
these paths used before — on the same texts at the sizes it finishes in reasonable time
(``--difflib-sizes``, default 10,000).

Run: ``python bench/lsp_changes.py`` (writes bench/results/lsp_changes.md).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types
from pygls.workspace import TextDocument

from lsp_server.buffer import UTF16, TextBuffer


def make_text(lines: int) -> str:
    body = []
    for index in range(lines):
        body.append(f'    lv_total_{index % 97} = lv_total_{index % 89} + {index}. " step {index}')
    return "\n".join(body)


def make_session(
    text: str, changes: int, seed: int, spread: bool
) -> list[types.TextDocumentContentChangePartial]:
    """Edits as LSP events, valid against the text as it evolves."""
    rng = random.Random(seed)
    lines = text.split("\n")
    around = rng.randrange(len(lines))
    events = []
    for _ in range(changes):
        line = (
            rng.randrange(len(lines)) if spread else min(len(lines) - 1, around + rng.randrange(40))
        )
        column = rng.randrange(len(lines[line]) + 1)
        roll = rng.random()
        if roll < 0.80:
            new, start, end = "x", (line, column), (line, column)
        elif roll < 0.90 and column > 0:
            new, start, end = "", (line, column - 1), (line, column)
        elif roll < 0.95:
            new, start, end = "\n  WRITE 'pasted'.\n", (line, column), (line, column)
        elif len(lines) > 2 and line + 1 < len(lines):
            new, start, end = "", (line, 0), (line + 1, 0)
        else:
            new, start, end = "y", (line, column), (line, column)
        events.append(
            types.TextDocumentContentChangePartial(
                range=types.Range(
                    start=types.Position(line=start[0], character=start[1]),
                    end=types.Position(line=end[0], character=end[1]),
                ),
                text=new,
            )
        )
        # keep our own model of the lines to generate valid next positions
        head = lines[start[0]][: start[1]]
        tail = lines[end[0]][end[1] :]
        piece = (head + new + tail).split("\n")
        lines[start[0] : end[0] + 1] = piece
    return events


def _ours(
    text: str, events: list[types.TextDocumentContentChangePartial]
) -> tuple[list[int], TextBuffer]:
    buffer = TextBuffer(text, UTF16)
    costs = []
    for event in events:
        started = time.perf_counter_ns()
        r = event.range
        buffer.apply_change(
            (r.start.line, r.start.character), (r.end.line, r.end.character), event.text
        )
        costs.append(time.perf_counter_ns() - started)
    return costs, buffer


def _pygls(
    text: str, events: list[types.TextDocumentContentChangePartial]
) -> tuple[list[int], str]:
    document = TextDocument("adt://A4H/sap/bc/adt/programs/programs/zbench/source/main", text)
    costs = []
    for event in events:
        started = time.perf_counter_ns()
        document.apply_change(event)
        costs.append(time.perf_counter_ns() - started)
    return costs, document.source


async def _save_end_to_end(runs: int = 5) -> tuple[float, int, int]:
    """Median ms of saving 10 spread edits of ZCL_DEMO_LARGE, its ADT requests and hunks."""
    from save_path import QuietEditor
    from support_path import emulated_client, emulated_connections

    from adt.emulator import Emulator
    from adt.systems import EditorSettings
    from lsp_server.workspace import EditorWorkspace

    uri = "adt://A4H/sap/bc/adt/oo/classes/zcl_demo_large/source/main"
    times, requests, hunks = [], 0, 0
    for run in range(runs):
        emulator = Emulator()
        client = emulated_client(emulator)
        connections = emulated_connections(client)
        workspace = EditorWorkspace(connections, EditorSettings(poll_interval=0), QuietEditor())
        read = await workspace.objects.read_document(uri)
        workspace.did_open(uri, read.text, 1, UTF16)
        lines = read.text.split("\n")
        for number, line in enumerate(range(500, 10_000, 1_000)):
            at = (line, min(4, len(lines[line])))  # ASCII: a str index is a UTF-16 position
            workspace.did_change(uri, 2 + number, [(at, at, f"x{run}")])
        hunks = len(workspace.documents.require(uri).buffer.hunks())
        emulator.reset_request_log()
        started = time.perf_counter()
        result = await workspace.save(uri)
        times.append((time.perf_counter() - started) * 1000)
        assert result.status == "saved", result
        requests = sum(emulator.request_counts().values())
        await workspace.close()
    return statistics.median(times), requests, hunks


def _stats(costs: list[int]) -> tuple[float, float]:
    ordered = sorted(costs)
    return statistics.median(ordered) / 1000, ordered[int(len(ordered) * 0.95)] / 1000


def _cpu_ms(work: Callable[[], object]) -> float:
    started = time.process_time()
    work()
    return (time.process_time() - started) * 1000


def diff_rows(sizes: list[int], difflib_sizes: list[int]) -> list[str]:
    """CPU ms of comparing two whole texts, ours and difflib's (see the docstring)."""
    import difflib

    from adt.source.linediff import differences

    rows = []
    for size in sizes:
        old = make_text(size).split("\n")
        trimmed = [line + "  " if k % (size // 10) == 7 else line for k, line in enumerate(old)]
        reload = list(old)
        for k in range(10):
            at = k * size // 10 + 3
            reload.insert(at, "  WRITE 'new'.")
            del reload[at + 50 : at + 52]
        pairs = (("normalised (same count)", trimmed, old), ("reload (+10, -20)", old, reload))
        for label, editor, server in pairs:
            ours = _cpu_ms(functools.partial(differences, editor, server))
            before = "—"
            if size in difflib_sizes:
                matcher = difflib.SequenceMatcher(None, editor, server, autojunk=False)
                before = f"{_cpu_ms(matcher.get_opcodes):,.0f}"
            rows.append(f"| {size:,} | {label} | {ours:,.1f} | {before} |")
    return rows


def main(sizes: list[int], changes: int, diff_sizes: list[int], difflib_sizes: list[int]) -> str:
    rows = []
    saves = []
    for size in sizes:
        text = make_text(size)
        events = make_session(text, changes, seed=size, spread=True)
        ours, buffer = _ours(text, events)
        theirs, source = _pygls(text, events)
        assert buffer.text == source, "both implementations must agree"
        o_med, o_p95 = _stats(ours)
        p_med, p_p95 = _stats(theirs)
        splices = [
            cost
            for cost, event in zip(ours, events, strict=True)
            if "\n" in event.text or event.range.start.line != event.range.end.line
        ]
        s_med, _ = _stats(splices)
        rows.append(
            f"| {size:,} | {p_med:,.1f} | {p_p95:,.1f} | {o_med:,.2f} | {o_p95:,.2f} "
            f"| {s_med:,.2f} | {p_med / o_med:,.0f}x |"
        )
        for label, spread in (("clustered", False), ("spread", True)):
            session = make_session(text, changes, seed=size + 1, spread=spread)
            _, edited = _ours(text, session)
            started = time.perf_counter()
            hunks = edited.hunks()
            elapsed = (time.perf_counter() - started) * 1000
            saves.append(f"| {size:,} | {label} | {len(hunks)} | {elapsed:,.1f} |")
    save_ms, save_requests, save_hunks = asyncio.run(_save_end_to_end())
    return "\n".join(
        [
            "# Language server: cost per incremental change, and of deriving a save",
            "",
            f"Measured {time.strftime('%Y-%m-%d')} by "
            f"`python bench/lsp_changes.py --changes {changes}` "
            "on this machine (see the module docstring for the method). Times in microseconds per "
            "change; both implementations replay the same events and end with the same text. "
            "*Ours, lines added/removed* is the median of our changes that add or remove lines "
            "(pastes, line deletions): they splice the list of lines, O(lines after the change).",
            "",
            "| Lines | pygls median µs | pygls p95 µs | ours median µs | ours p95 µs "
            "| ours, lines added/removed, median µs | speed-up (median) |",
            "|---:|---:|---:|---:|---:|---:|---:|",
            *rows,
            "",
            f"Deriving the hunks of a save after {changes} edits (milliseconds):",
            "",
            "| Lines | edits | hunks | ms |",
            "|---:|---|---:|---:|",
            *saves,
            "",
            f"A whole save of {save_hunks} spread hunks in the 10,000-line class, through the "
            f"source operations to the in-process emulator: {save_ms:.1f} ms (median of 5), "
            f"{save_requests} ADT requests (one PUT).",
            "",
            "Comparing two whole texts (CPU ms): what the editor is shown after a normalised "
            "save, a reload or a remote change.",
            "",
            "| Lines | texts | ours (linediff) | before: difflib |",
            "|---:|---|---:|---:|",
            *diff_rows(diff_sizes, difflib_sizes),
            "",
        ]
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--changes", type=int, default=400)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results" / "lsp_changes.md"
    )
    parser.add_argument("--diff-sizes", type=int, nargs="*", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--difflib-sizes", type=int, nargs="*", default=[10_000])
    options = parser.parse_args()
    report = main(options.sizes, options.changes, options.diff_sizes, options.difflib_sizes)
    options.out.parent.mkdir(parents=True, exist_ok=True)
    options.out.write_text(report)
    print(report)
