"""Benchmark: the requests an editor sends around keystrokes, by document size, through the
language server over stdio; and the time from launch to the first document shown.

Method. The emulator serves in a thread of this process, seeded with one program per size:
``REPORT`` and a local class of that many lines (``bench/editing.py``'s ``class_source``:
methods of twenty commented statements). For each size the language server runs as its
own process (``python -m lsp_server``, onSave mode, polling off) and this script drives it
with a minimal JSON-RPC client (bench/lspwire.py), measuring wall time from writing a
request to reading its answer:

1. **launch**: from starting the process to the answer of ``initialize``, and to the
   answer of ``adt/readDocument`` (the editor has the text to show); anchor: a bare pygls 2
   server's ``initialize``, started the same way right after;
2. **outline** (``textDocument/documentSymbol``) and **folding**
   (``textDocument/foldingRange``): the first request on the opened document (a scan of
   the whole text: what every request cost before the server kept its statements), then
   ``--rounds`` times one key of a realistic session (``bench/editing.py``) followed by
   both requests, as an editor asks after a keystroke;
3. **completion** after ``me->m`` typed into a method (unsaved text, so the system indexes
   the posted text), **hover** and **definition** on a parameter of that method in the
   next line; the first (cold) and ``--rounds`` more, each after another key (typed into
   that line's comment);
4. **formatting** (``textDocument/formatting``), ``--format-rounds`` times, each after a
   line in lower case was typed (so the answer has edits), its edits applied as an editor
   applies them: the first (the whole text goes to the system), then after a key (only
   the pieces around the change do); one that runs into the client's 60 s read timeout is
   reported as such. Beside the first: **the system printing the whole text in one
   request** (the same text, posted by the project's client on its own connection after
   one small request that logs on): what any tool that sends the whole text waits for, the
   floor of a first format when the system prints one request at a time, as the emulator
   does.

The anchor of 2–4 is the same request at the smallest size, measured in the same run: the
cost of the request itself, so the other rows show how it grows with the document; and for
outline and folding, the first request at the same size (a whole scan). Beside each wall
time, the server's own CPU time for the request (``/proc``; a ping first, so that the keys
before it are not counted): on a shared machine the wall time also holds the wait for a
core. Completion, hover and definition include the system's work (the emulator, in this
process), which the server's CPU does not. Each
answer is checked (symbols, folds, proposals, edits present), so an empty answer cannot
pass as fast. Reported: p50 and p95 in milliseconds.

``--source abapgit`` seeds real code in place of the generated class: abapGit's own classes
(``*.clas.abap`` of the corpus at ``$ABAPGIT_CORPUS``, default /work/corpora/abapgit, in
name order) cut at that many lines — dense in blocks, multi-line statements and literals,
where the generated class is mostly one-line statements.

An anchor of another commit runs from that checkout's directory (``cd DIR && PYTHONPATH=DIR
python …/bench/lsp_requests.py …``): ``python -m lsp_server`` puts the working directory
first on the path, so a run from this checkout would start this checkout's server beside
the other commit's emulator.

Run: ``python bench/lsp_requests.py`` (writes bench/results/lsp_requests.md and
lsp_requests.png; matplotlib from ``pip install -e '.[bench]'``); ``--structure-only`` leaves
out completion, hover and definition (the system's work) and writes
bench/results/lsp_requests_structure.md.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from editing import Session, class_source
from emulated import developer_profile
from lspwire import StdioServer

from adt import AdtClient
from adt.emulator import Emulator

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
BARE = HERE / "anchors" / "bare_pygls_server.py"
ENV = {"ABAP_ADT_CONFIG": "/dev/null", "ADT_URL": ""}
PROGRAMS = "/sap/bc/adt/programs/programs"


CORPUS = Path(os.environ.get("ABAPGIT_CORPUS", "/work/corpora/abapgit"))


def corpus_source(lines: int) -> list[str]:
    """``lines`` lines of abapGit's own classes, in name order (real code)."""
    found: list[str] = []
    for path in sorted(CORPUS.rglob("*.clas.abap")):
        found += path.read_text(encoding="utf-8", errors="replace").splitlines()
        if len(found) >= lines:
            return found[:lines]
    raise SystemExit(f"the corpus at {CORPUS} has fewer than {lines:,} lines of classes")


def seed_program(folder: Path, lines: int, source: str = "class") -> str:
    """An abapGit folder with a program of about ``lines`` lines: a generated local class,
    or (``source="abapgit"``) abapGit's classes."""
    name = f"zbench_req_{lines}"
    code = corpus_source(lines - 1) if source == "abapgit" else class_source(lines - 1)
    body = [f"REPORT {name}.", *code]
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


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def timed(
    server: StdioServer, method: str, params: Any, check: Callable[[Any], bool]
) -> tuple[float, float]:
    """Wall ms of one request and the server's CPU ms meanwhile (a ping first, so that the
    keys sent before it are handled outside the count)."""
    server.request("bench/ping", None)
    cpu = server.cpu_seconds()
    start = time.perf_counter()
    answer = server.request(method, params, timeout=600)
    elapsed = (time.perf_counter() - start) * 1000
    cpu = (server.cpu_seconds() - cpu) * 1000
    if "error" in answer or not check(answer.get("result")):
        raise RuntimeError(f"{method}: unexpected answer {str(answer)[:300]}")
    return elapsed, cpu


class Document:
    """One opened document and the keys typed into it (the server's copy kept in step)."""

    def __init__(self, server: StdioServer, uri: str, text: str, seed: int) -> None:
        self.server, self.uri = server, uri
        self.lines = text.split("\n")
        self.version = 1
        self.session = Session(self.lines, seed=seed)
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "abap", "version": 1, "text": text}},
        )

    def change(self, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        self.version += 1
        span = {
            "start": {"line": start[0], "character": start[1]},
            "end": {"line": end[0], "character": end[1]},
        }
        self.server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": self.uri, "version": self.version},
                "contentChanges": [{"range": span, "text": text}],
            },
        )

    def apply(self, edits: list[dict[str, Any]]) -> None:
        """Apply a formatting answer (edits against the current text) as one change, as
        an editor does; the lines are ASCII, so positions are indices."""
        self.version += 1
        ordered = sorted(
            edits, key=lambda e: (e["range"]["start"]["line"], e["range"]["start"]["character"])
        )
        changes = []
        for edit in reversed(ordered):  # from the bottom: each leaves the others' places
            start, end = edit["range"]["start"], edit["range"]["end"]
            head = self.lines[start["line"]][: start["character"]]
            tail = self.lines[end["line"]][end["character"] :]
            replaced = (head + edit["newText"] + tail).split("\n")
            self.lines[start["line"] : end["line"] + 1] = replaced
            changes.append({"range": edit["range"], "text": edit["newText"]})
        self.server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": self.uri, "version": self.version},
                "contentChanges": changes,
            },
        )

    def key(self) -> None:
        """One key of the session, somewhere in the document."""
        self.change(*self.session.keys(len(self.session.changes) + 1)[-1])

    def at(self, point: tuple[int, int]) -> dict[str, Any]:
        return {
            "textDocument": {"uri": self.uri},
            "position": {"line": point[0], "character": point[1]},
        }


def _launch(command: list[str], options: dict[str, Any] | None) -> tuple[StdioServer, float]:
    server = StdioServer(command, env=ENV)
    params: dict[str, Any] = {"processId": None, "rootUri": None, "capabilities": {}}
    if options:
        params["initializationOptions"] = options
    server.request("initialize", params)
    server.notify("initialized", {})
    return server, (time.perf_counter() - server.started) * 1000


def _typed_spot(lines: list[str]) -> tuple[int, int]:
    """A line of the last method's body, where ``me->m`` is typed (line, column after it)."""
    last = max(n for n, line in enumerate(lines) if line.strip().startswith("METHOD "))
    return last + 1, len("    me->m")


def whole_print(url: str, text: str) -> float:
    """Wall ms of the system printing ``text`` in one request (after a small request, so
    that logging on is not counted)."""

    async def printed() -> float:
        profile = developer_profile(url)
        async with AdtClient(profile) as client:
            await client.formatting.pretty_print("REPORT zlogon.")
            start = time.perf_counter()
            answer = await client.formatting.pretty_print(text)
            elapsed = (time.perf_counter() - start) * 1000
        if answer.text.count("\n") < text.count("\n") // 2:
            raise RuntimeError("the system printed less than the text it was sent")
        return elapsed

    return asyncio.run(printed())


def measure_size(
    uri: str,
    options: dict[str, Any],
    rounds: int,
    format_rounds: int,
    intelligence: bool = True,
) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {}

    def add(name: str, ms: float, cpu: float | None = None) -> None:
        times.setdefault(name, []).append(ms)
        if cpu is not None:
            times.setdefault(f"{name} (server CPU)", []).append(cpu)

    server, initialized = _launch([sys.executable, "-m", "lsp_server"], options)
    try:
        add("launch: initialize", initialized)
        read = server.request("adt/readDocument", {"uri": uri}, timeout=600)
        add("launch: document text", (time.perf_counter() - server.started) * 1000)
        doc = Document(server, uri, read["result"]["text"], seed=len(read["result"]["text"]))
        params = {"textDocument": {"uri": uri}}
        symbols = "textDocument/documentSymbol"
        add("outline, first", *timed(server, symbols, params, bool))
        add("folding, first", *timed(server, "textDocument/foldingRange", params, bool))
        for _ in range(rounds):
            doc.key()
            add("outline after a key", *timed(server, symbols, params, bool))
            add("folding after a key", *timed(server, "textDocument/foldingRange", params, bool))
        if intelligence:
            _intelligence(doc, rounds, add)
        _formatting(doc, format_rounds, add, options["systems"][0]["url"])
    finally:
        server.close()
    bare, bare_ms = _launch([sys.executable, str(BARE)], None)
    bare.close()
    add("launch: bare pygls initialize", bare_ms)
    return times


def _formatting(doc: Document, rounds: int, add: Callable[..., None], url: str) -> None:
    """``rounds`` formats, each after a line in lower case was typed (so the answer has
    edits), the answer applied as an editor does; after the first, its floor."""
    unformatted = ""
    for index in range(rounds):
        at = (len(doc.lines) // 2 + 3 * index, 0)
        doc.change(at, at, "    data lv_fmt type i.\n")
        doc.lines.insert(at[0], "    data lv_fmt type i.")
        name = "formatting, first" if index == 0 else "formatting after a key"
        unformatted = unformatted or "\n".join(doc.lines)
        answers: list[Any] = []

        def kept(result: Any, answers: list[Any] = answers) -> bool:
            answers.append(result)
            return bool(result)

        try:
            add(name, *timed(doc.server, "textDocument/formatting", _format(doc.uri), kept))
        except RuntimeError as exc:  # the client's 60 s timeout: noted, not fatal
            if "ReadTimeout" not in str(exc) and "WriteTimeout" not in str(exc):
                raise
            add(name, math.inf, math.inf)
            return  # the system still prints the text it was sent: it would not listen
        doc.apply(answers[0])
    if unformatted:
        add(
            "formatting, first: its floor, the whole text printed in one request",
            whole_print(url, unformatted),
        )


def _format(uri: str) -> dict[str, Any]:
    return {"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": True}}


def _intelligence(doc: Document, rounds: int, add: Callable[[str, float, float], None]) -> None:
    line, column = _typed_spot(doc.lines)
    doc.change((line, 0), (line, 0), "    me->m\n")
    doc.lines.insert(line, "    me->m")  # the session's lines too
    below = line + 1  # a commented statement: each round types into its comment

    def proposals(result: Any) -> bool:
        items = result.get("items", []) if isinstance(result, dict) else result or []
        return any(str(item.get("label", "")).upper().startswith("M") for item in items)

    for index in range(rounds + 1):
        phase = "first" if index == 0 else "after a key"
        if index:
            end = (below, len(doc.lines[below]))
            doc.change(end, end, "x")
            doc.lines[below] += "x"
        point = (line, column)
        name = (below, doc.lines[below].index("iv_x") + 1)  # a parameter of the method
        add(
            f"completion, {phase}",
            *timed(doc.server, "textDocument/completion", doc.at(point), proposals),
        )
        add(f"hover, {phase}", *timed(doc.server, "textDocument/hover", doc.at(name), bool))
        add(
            f"definition, {phase}",
            *timed(doc.server, "textDocument/definition", doc.at(name), bool),
        )


def run(
    sizes: list[int],
    rounds: int,
    format_rounds: int,
    intelligence: bool = True,
    source: str = "class",
) -> dict[int, dict[str, list[float]]]:
    with tempfile.TemporaryDirectory(prefix="abap-adt-bench-") as folder:
        names = {size: seed_program(Path(folder), size, source) for size in sizes}
        emulator = Emulator(seed_dirs=[folder])
    results: dict[int, dict[str, list[float]]] = {}
    with emulator.serve_in_thread() as url:
        options = {
            "systems": [{"name": "A4H", "url": url, "user": "DEVELOPER", "password": "developer"}],
            "pollInterval": 0,
            "agentChannel": False,
        }
        for size in sizes:
            uri = f"adt://A4H{PROGRAMS}/{names[size]}/source/main"
            results[size] = measure_size(uri, options, rounds, format_rounds, intelligence)
            row = results[size]
            print(
                f"{size:>7} lines: "
                + ", ".join(f"{k} p50 {percentile(v, 0.5):.0f} ms" for k, v in row.items()),
                flush=True,
            )
    return results


def _cell(values: list[float]) -> str:
    if not values:
        return "—"
    if math.isinf(percentile(values, 0.5)):
        return "timed out (60 s)"
    return f"{percentile(values, 0.5):,.1f} / {percentile(values, 0.95):,.1f}"


def report(
    results: dict[int, dict[str, list[float]]],
    rounds: int,
    format_rounds: int,
    source: str = "class",
) -> str:
    sizes = sorted(results)
    names = list(results[sizes[0]])
    head = " | ".join(f"{size:,} lines p50 / p95" for size in sizes)
    lines = [
        "# Requests around keystrokes, by document size (wall ms, over stdio)",
        "",
        f"{rounds} rounds per request (formatting: {format_rounds}); the smallest size is "
        "the anchor. Method: the docstring of bench/lsp_requests.py. The document: "
        + ("abapGit's own classes (real code)." if source == "abapgit" else "the generated class."),
        "",
        f"| request | {head} |",
        "|---|" + "---:|" * len(sizes),
    ]
    for name in names:
        cells = []
        for size in sizes:
            values = results[size].get(name, [])
            cells.append(_cell(values))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def plot(results: dict[int, dict[str, list[float]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = sorted(results)
    fig, ax = plt.subplots(figsize=(8, 5))
    for name in results[sizes[0]]:
        if name.endswith("(server CPU)") and "first" not in name:
            label = name.removesuffix(" (server CPU)")
            ax.plot(sizes, [percentile(results[s][name], 0.5) for s in sizes], "o-", label=label)
    ax.axhline(100, color="grey", linestyle=":", label="goal: 100 ms (completion, hover)")
    ax.axhline(50, color="grey", linestyle="--", label="goal: 50 ms (outline, folding)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("document size (lines)")
    ax.set_ylabel("server CPU per request, p50 (ms)")
    ax.set_title("Requests through the language server by document size")
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--format-rounds", type=int, default=3)
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument(
        "--structure-only",
        action="store_true",
        help="launch, outline, folding and formatting only (to lsp_requests_structure.md)",
    )
    parser.add_argument(
        "--source",
        choices=["class", "abapgit"],
        default="class",
        help="the generated class (default) or abapGit's own classes (real code)",
    )
    parser.add_argument("--out", help="name of the results file (without .md) instead")
    args = parser.parse_args()
    intelligence = not args.structure_only
    results = run(args.sizes, args.rounds, args.format_rounds, intelligence, args.source)
    text = report(results, args.rounds, args.format_rounds, args.source)
    RESULTS.mkdir(exist_ok=True)
    name = args.out or ("lsp_requests_structure" if args.structure_only else "lsp_requests")
    (RESULTS / f"{name}.md").write_text(text)
    if not args.no_plot and not args.structure_only:
        plot(results, RESULTS / "lsp_requests.png")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
