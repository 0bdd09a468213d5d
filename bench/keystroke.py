"""Benchmark: server CPU per keystroke (``textDocument/didChange``), end to end over stdio.

Method. For each document size, the server runs as its own process (``python -m
lsp_server``, against the emulator on a socket, onSave mode, polling off) and opens one
``adt://`` program of that many lines. We read the CPU time of every thread of the server
process (``/proc/<pid>/task/*/schedstat``, nanoseconds), send N ``didChange`` notifications
(each inserts one character at a random line, as typing does; all written at once, as a fast
typist's editor would queue them), close them with a request the server must answer after
them (an unknown method: both servers answer MethodNotFound at once), and read the CPU time
again. CPU per change = difference / N. The anchor is a bare pygls 2 server
(``bench/anchors/bare_pygls_server.py``: incremental sync, pygls' own document store) fed the
same messages; at large sizes it gets fewer changes, because each costs it milliseconds.

Paced. Those bursts give the cost of one more change in a burst; an editor sends one frame
per key, and the server is idle in between. The paced run sends a realistic session
(``bench/editing.py``: typing, Enter with indentation, pastes, line deletes, cursor jumps)
one frame at a time, each sent only once the server's CPU time has stopped moving (it has
handled the previous one), and takes off the server's idle CPU over the same time (measured
for a second before). Anchors in the same run: the bare pygls server fed the same frames,
and the floor — ``bench/anchors/bare_asyncio_reader.py``, an asyncio loop that reads and
parses each frame and does nothing else: what a frame costs any Python server; and ours
with its stdin a socket instead of a pipe, which it reads with a thread handing each frame
to the event loop, as it read every stdin before (the "before" column). The session's first
key is sent and measured apart, before the idle CPU: a document's first change pays once for
what the later keys reuse (our buffer keeps an opened text as one string and splits it into
lines then), so the per-key figure is the cost of typing and the first key has its own column
(with the request that confirms it was handled: on a loaded machine a server waiting for a
core looks idle, and the key's work would otherwise land in the idle second).

Run: ``python bench/keystroke.py`` (writes bench/results/keystroke.md and keystroke.png;
matplotlib from ``pip install -e '.[bench]'``); ``--paced-only`` for the paced table alone
(written to bench/results/keystroke_paced.md). ``--before DIR`` runs the server of another
checkout (``git archive REV adt lsp_server`` unpacked in DIR) in every paced round too,
alternating with ours: a change's effect measured in one run.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from editing import Session
from lspwire import StdioServer

from adt.emulator import Emulator

HERE = Path(__file__).resolve().parent
FLOOR = HERE / "anchors" / "bare_asyncio_reader.py"
RESULTS = HERE / "results"


def seed_program(folder: Path, lines: int) -> str:
    """An abapGit folder with one program of ``lines`` lines; returns its name."""
    name = f"zbench_{lines}"
    body = [f"REPORT {name}.", *(f'DATA(lv_{i}) = {i}. " line {i}' for i in range(lines - 1))]
    (folder / f"{name}.prog.abap").write_text("\n".join(body) + "\n")
    (folder / f"{name}.prog.xml").write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<abapGit version="v1.0.0" '
        'serializer="LCL_OBJECT_PROG" serializer_version="v1.0.0">\n '
        '<asx:abap xmlns:asx="http://www.sap.com/abapxml" '
        'version="1.0">\n  <asx:values>\n   <PROGDIR>\n    <NAME>'
        f"{name.upper()}</NAME>\n    <SUBC>1</SUBC>\n   </PROGDIR>\n  </asx:values>\n"
        " </asx:abap>\n</abapGit>\n"
    )
    return name


def seeded_emulator(sizes: list[int]) -> tuple[Emulator, list[str]]:
    """An emulator seeded with one program per size (names in the same order); the seed
    folder is gone once the emulator has read it."""
    with tempfile.TemporaryDirectory(prefix="abap-adt-bench-") as folder:
        names = [seed_program(Path(folder), size) for size in sizes]
        return Emulator(seed_dirs=[folder]), names


def _changes(uri: str, text: str, count: int, seed: int) -> bytes:
    rng = random.Random(seed)
    lines = text.count("\n") + 1
    frames = bytearray()
    for version in range(2, count + 2):
        line = rng.randrange(lines)
        point = {"line": line, "character": 0}
        frames += StdioServer.frame(
            {
                "method": "textDocument/didChange",
                "params": {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"range": {"start": point, "end": point}, "text": "x"}],
                },
            }
        )
    return bytes(frames)


def _session_frames(uri: str, text: str, count: int, seed: int) -> list[bytes]:
    """One frame per key of a realistic session (``bench/editing.py``)."""
    frames = []
    for version, (start, end, new) in enumerate(
        Session(text.split("\n"), seed=seed).keys(count), start=2
    ):
        span = {
            "start": {"line": start[0], "character": start[1]},
            "end": {"line": end[0], "character": end[1]},
        }
        frames.append(
            StdioServer.frame(
                {
                    "method": "textDocument/didChange",
                    "params": {
                        "textDocument": {"uri": uri, "version": version},
                        "contentChanges": [{"range": span, "text": new}],
                    },
                }
            )
        )
    return frames


def _initialize(server: StdioServer, options: dict[str, object] | None) -> None:
    params: dict[str, object] = {"processId": None, "rootUri": None, "capabilities": {}}
    if options:
        params["initializationOptions"] = options
    server.request("initialize", params)
    server.notify("initialized", {})


def measure(
    command: list[str], uri: str, text: str, changes: int, options: dict[str, object] | None
) -> float:
    """Server CPU microseconds per didChange."""
    server = StdioServer(command, env={"ABAP_ADT_CONFIG": "/dev/null", "ADT_URL": ""})
    try:
        _initialize(server, options)
        if uri.startswith("adt:"):
            read = server.request("adt/readDocument", {"uri": uri})["result"]
            text = read["text"]
        document = {"uri": uri, "languageId": "abap", "version": 1, "text": text}
        server.notify("textDocument/didOpen", {"textDocument": document})
        server.request("bench/ping", None)  # the open is done
        frames = _changes(uri, text, changes, seed=len(text))
        before = server.cpu_seconds()
        server.send_many(frames)
        answer = server.request("bench/ping", None)
        after = server.cpu_seconds()
        assert "error" in answer, answer
        if uri.startswith("adt:"):  # the changes really arrived: they are what a save writes
            saved = server.request("adt/saveDocument", {"uri": uri})["result"]
            assert saved["status"] == "saved" and saved["hunks"] > 0, saved
        return (after - before) / changes * 1e6
    finally:
        server.close()


def _settle(server: StdioServer, quiet: float = 0.0005) -> None:
    """Wait until the server's CPU time stops moving: it has handled what it was sent."""
    last = server.cpu_seconds()
    while True:
        time.sleep(quiet)
        now = server.cpu_seconds()
        if now == last:
            return
        last = now


def measure_paced(
    command: list[str],
    uri: str,
    text: str,
    changes: int,
    options: dict[str, object] | None,
    *,
    socket_stdin: bool = False,
) -> tuple[float, float, float]:
    """Server CPU microseconds per didChange sent one at a time (each handled before the
    next is sent, as keys typed by a person arrive), less the server's idle CPU over the same
    time; that idle CPU per change; and the CPU microseconds of the session's first key,
    measured apart (a document's first change may pay once for what later keys reuse: our
    buffer splits a text it kept as one string), so the per-key figure is the steady cost."""
    server = StdioServer(
        command, env={"ABAP_ADT_CONFIG": "/dev/null", "ADT_URL": ""}, socket_stdin=socket_stdin
    )
    try:
        _initialize(server, options)
        if uri.startswith("adt:"):
            text = server.request("adt/readDocument", {"uri": uri})["result"]["text"]
        document = {"uri": uri, "languageId": "abap", "version": 1, "text": text}
        server.notify("textDocument/didOpen", {"textDocument": document})
        server.request("bench/ping", None)
        frames = _session_frames(uri, text, changes + 1, seed=len(text))
        time.sleep(1.0)  # what a server defers after an open (ours: the memory release, 0.5 s)
        _settle(server)
        first_cpu = server.cpu_seconds()
        server.send_many(frames.pop(0))
        # answered only after the key: a server that waited for a core meanwhile has not
        # left the key's work to the idle second below (where it was taken off every key)
        server.request("bench/ping", None)
        _settle(server)
        first = (server.cpu_seconds() - first_cpu) * 1e6
        idle_started, idle_cpu = time.perf_counter(), server.cpu_seconds()
        time.sleep(1.0)
        idle_rate = (server.cpu_seconds() - idle_cpu) / (time.perf_counter() - idle_started)
        started, before = time.perf_counter(), server.cpu_seconds()
        for frame in frames:
            server.send_many(frame)
            _settle(server)
        after, elapsed = server.cpu_seconds(), time.perf_counter() - started
        assert "error" in server.request("bench/ping", None)
        if uri.startswith("adt:"):
            saved = server.request("adt/saveDocument", {"uri": uri})["result"]
            assert saved["status"] == "saved" and saved["hunks"] > 0, saved
        idle = idle_rate * elapsed
        return (after - before - idle) / changes * 1e6, idle / changes * 1e6, first
    finally:
        server.close()


def server_from(tree: str) -> list[str]:
    """The language server of another checkout (``git archive REV adt lsp_server`` unpacked
    in ``tree``, first on the path): the "before" of a change, measured in the same run."""
    code = (
        f"import sys, runpy; sys.path.insert(0, {tree!r}); "
        "runpy.run_module('lsp_server', run_name='__main__')"
    )
    return [sys.executable, "-c", code]


def run_paced(
    sizes: list[int], changes: int, anchor_changes: int, rounds: int, before: str | None = None
) -> list[tuple[float, ...]]:
    """Ours, the bare pygls anchor and the floor, paced, per size (:func:`measure_paced`):
    ours and the floor (and ``before``, another checkout's server) alternate ``rounds`` times
    and their medians are reported, so a neighbour's load on the shared machine weighs on
    all alike."""
    rows: list[tuple[float, ...]] = []
    emulator, seeded = seeded_emulator(sizes)
    names = dict(zip(sizes, seeded, strict=True))
    with emulator.serve_in_thread() as url:
        options = {
            "systems": [{"name": "A4H", "url": url, "user": "DEVELOPER", "password": "developer"}],
            "pollInterval": 0,
            "agentChannel": False,
        }
        for size in sizes:
            uri = f"adt://A4H/sap/bc/adt/programs/programs/{names[size]}/source/main"
            text = emulator.source(f"/sap/bc/adt/programs/programs/{names[size]}/source/main") or ""
            ours, threaded, floor, idle, first, previous = [], [], [], [], [], []
            for _ in range(rounds):
                if before:
                    old = measure_paced(server_from(before), uri, "", changes, options)
                    previous.append(old[0])
                cost, quiet, first_key = measure_paced(
                    [sys.executable, "-m", "lsp_server"], uri, "", changes, options
                )
                ours.append(cost)
                idle.append(quiet)
                first.append(first_key)
                threaded.append(
                    measure_paced(
                        [sys.executable, "-m", "lsp_server"],
                        uri,
                        "",
                        changes,
                        options,
                        socket_stdin=True,
                    )[0]
                )
                floor.append(
                    measure_paced(
                        [sys.executable, str(FLOOR)], "file:///b.abap", text, changes, None
                    )[0]
                )
            bare, _, _ = measure_paced(
                [sys.executable, str(HERE / "anchors" / "bare_pygls_server.py")],
                "file:///bench.abap",
                text,
                anchor_changes,
                None,
            )
            row = (size, median(ours), bare, median(floor), median(idle), min(ours), max(ours))
            rows.append((*row, median(threaded), median(first), *_spread(previous)))
            print(
                f"{size:>7} lines paced: ours {row[1]:6.1f} µs ({min(ours):.1f}-{max(ours):.1f}), "
                f"first key {median(first) / 1000:.1f} ms, "
                f"previous checkout {median(previous or [0.0]):6.1f} µs "
                f"({min(previous or [0.0]):.1f}-{max(previous or [0.0]):.1f}), "
                f"reader thread {median(threaded):6.1f} µs, bare pygls {bare:8.1f} µs, "
                f"floor {row[3]:6.1f} µs",
                flush=True,
            )
    return rows


def _spread(runs: list[float]) -> tuple[float, float, float]:
    """Median, lowest and highest of ``runs`` (zeros when there are none)."""
    return (median(runs), min(runs), max(runs)) if runs else (0.0, 0.0, 0.0)


def paced_report(
    rows: list[tuple[float, ...]],
    changes: int,
    anchor_changes: int,
    rounds: int,
    before: str | None = None,
) -> str:
    lines = [
        "# Keystroke cost paced (server CPU per didChange, one frame per key, over stdio)",
        "",
        f"A realistic session of {changes} keys per size for ours and for the floor (median of "
        f"{rounds} alternating runs each), {anchor_changes} keys for bare pygls. Method: the "
        "docstring of bench/keystroke.py.",
        "",
        "| lines | ours (µs CPU / change) | ours, lowest–highest run "
        "| ours with stdin read by a thread (before) | bare pygls (µs) "
        "| floor: asyncio reader (µs) | ours − floor (µs) | server idle CPU (µs / change) "
        "| ours, the first key (ms) | previous checkout (µs; lowest–highest run) |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for size, ours, bare, floor, idle, low, high, threaded, first, *previous in rows:
        old = f"{previous[0]:.1f} ({previous[1]:.1f}–{previous[2]:.1f})" if before else "—"
        lines.append(
            f"| {size:,.0f} | {ours:.1f} | {low:.1f}–{high:.1f} | {threaded:.1f} | {bare:,.1f} "
            f"| {floor:.1f} | {ours - floor:.1f} | {idle:.1f} | {first / 1000:.1f} | {old} |"
        )
    if before:
        lines += ["", f"Previous checkout: the server unpacked in `{before}` (`--before`)."]
    return "\n".join(lines) + "\n"


def run(
    sizes: list[int], changes: int, anchor_budget: float
) -> list[tuple[int, float, float, int]]:
    rows = []
    emulator, seeded = seeded_emulator(sizes)
    names = dict(zip(sizes, seeded, strict=True))
    with emulator.serve_in_thread() as url:
        options = {
            "systems": [{"name": "A4H", "url": url, "user": "DEVELOPER", "password": "developer"}],
            "pollInterval": 0,
            "agentChannel": False,
        }
        for size in sizes:
            uri = f"adt://A4H/sap/bc/adt/programs/programs/{names[size]}/source/main"
            ours = measure([sys.executable, "-m", "lsp_server"], uri, "", changes, options)
            text = emulator.source(f"/sap/bc/adt/programs/programs/{names[size]}/source/main") or ""
            anchor_changes = max(20, min(changes, int(anchor_budget / max(1e-6, size * 2e-7))))
            bare = measure(
                [sys.executable, str(HERE / "anchors" / "bare_pygls_server.py")],
                "file:///bench.abap",
                text,
                anchor_changes,
                None,
            )
            rows.append((size, ours, bare, anchor_changes))
            print(f"{size:>7} lines: ours {ours:8.1f} µs, bare pygls {bare:9.1f} µs", flush=True)
    return rows


def report(rows: list[tuple[int, float, float, int]], changes: int) -> str:
    lines = [
        "# Keystroke cost end to end (server CPU per didChange, over stdio)",
        "",
        f"{changes} didChange notifications per size for ours; the bare pygls anchor gets fewer at",
        "large sizes (its count is shown). Method: the docstring of bench/keystroke.py.",
        "",
        "| lines | ours (µs CPU / change) | bare pygls (µs CPU / change) | anchor changes "
        "| ratio |",
        "|---:|---:|---:|---:|---:|",
    ]
    for size, ours, bare, anchor_changes in rows:
        lines.append(
            f"| {size:,} | {ours:.1f} | {bare:.1f} | {anchor_changes} | {bare / ours:.0f}× |"
        )
    return "\n".join(lines) + "\n"


def plot(rows: list[tuple[int, float, float, int]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = [r[0] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    ax.plot(sizes, [r[1] for r in rows], "o-", label="abap-adt lsp (fast path)")
    ax.plot(sizes, [r[2] for r in rows], "s--", label="bare pygls 2 server")
    ax.axhline(100, color="grey", linestyle=":", label="goal: 100 µs")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("document size (lines)")
    ax.set_ylabel("server CPU per didChange (µs)")
    ax.set_title("Keystroke cost end to end over stdio")
    ax.legend()
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--changes", type=int, default=2_000)
    parser.add_argument("--anchor-budget", type=float, default=20.0, help="seconds per anchor size")
    parser.add_argument("--paced-sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--paced-changes", type=int, default=2_000)
    parser.add_argument("--paced-anchor-changes", type=int, default=200)
    parser.add_argument("--paced-rounds", type=int, default=3)
    parser.add_argument("--paced-only", action="store_true")
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="also run, paced and alternating with ours, the server of another checkout "
        "(`git archive REV adt lsp_server | tar -x -C DIR`)",
    )
    parser.add_argument(
        "--out",
        help="the results file in bench/results/ (default keystroke.md, with --paced-only "
        "keystroke_paced.md, so a paced run leaves the burst table alone)",
    )
    args = parser.parse_args()
    paced = run_paced(
        args.paced_sizes,
        args.paced_changes,
        args.paced_anchor_changes,
        args.paced_rounds,
        args.before,
    )
    text = paced_report(
        paced, args.paced_changes, args.paced_anchor_changes, args.paced_rounds, args.before
    )
    RESULTS.mkdir(exist_ok=True)
    if not args.paced_only:
        rows = run(args.sizes, args.changes, args.anchor_budget)
        text = report(rows, args.changes) + "\n" + text
        plot(rows, RESULTS / "keystroke.png")
    out = args.out or ("keystroke_paced.md" if args.paced_only else "keystroke.md")
    (RESULTS / out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
