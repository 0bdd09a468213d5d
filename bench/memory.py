"""Benchmark: resident memory of the language server with many documents open.

Method. The emulator (on a socket) is seeded with ``--documents`` programs totalling about
``--lines`` lines. Each server runs as its own process over stdio: ours (``python -m
lsp_server``, onSave mode, polling and the agent channel off) opens every program as an editor
does (``adt/readDocument``, then ``didOpen`` with the text); the anchor (a bare pygls 2
server, ``bench/anchors/bare_pygls_server.py``) gets the same texts with ``didOpen``. After
the last open is answered (a request closes the burst) and one second of quiet, we read the
process's resident set (``VmRSS`` in ``/proc/<pid>/status``), and also the empty server's
right after ``initialize`` — the difference is what the documents cost. Median of ``--runs``
alternating runs.

``--before DIR`` adds the server of another checkout (``git archive REV adt lsp_server``
unpacked in DIR) to every run, alternating with ours: a change's effect measured in one run.

Run: ``python bench/memory.py`` (writes bench/results/memory.md).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from keystroke import seeded_emulator
from lspwire import StdioServer

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
MB = 1024 * 1024


def _initialize(server: StdioServer, options: dict[str, object] | None) -> None:
    params: dict[str, object] = {"processId": None, "rootUri": None, "capabilities": {}}
    if options:
        params["initializationOptions"] = options
    server.request("initialize", params)
    server.notify("initialized", {})


def _settled_rss(server: StdioServer) -> int:
    server.request("bench/ping", None)
    time.sleep(1.0)
    return server.rss_bytes()


def measure(
    command: list[str], documents: list[tuple[str, str]], options: dict[str, object] | None
) -> tuple[int, int]:
    """(RSS when empty, RSS with every document open), in bytes."""
    server = StdioServer(command, env={"ABAP_ADT_CONFIG": "/dev/null", "ADT_URL": ""})
    try:
        _initialize(server, options)
        empty = _settled_rss(server)
        for uri, text in documents:
            if uri.startswith("adt:"):
                text = server.request("adt/readDocument", {"uri": uri})["result"]["text"]
            document = {"uri": uri, "languageId": "abap", "version": 1, "text": text}
            server.notify("textDocument/didOpen", {"textDocument": document})
        return empty, _settled_rss(server)
    finally:
        server.close()


def _server_from(tree: str) -> list[str]:
    """The language server of another checkout (its ``adt`` and ``lsp_server`` first on the
    path): the "before" of a change, measured in the same run."""
    code = (
        f"import sys, runpy; sys.path.insert(0, {tree!r}); "
        "runpy.run_module('lsp_server', run_name='__main__')"
    )
    return [sys.executable, "-c", code]


def run(
    count: int, total_lines: int, runs: int, before: str | None = None
) -> dict[str, tuple[int, int]]:
    per_document = total_lines // count
    emulator, names = seeded_emulator([per_document + index for index in range(count)])
    texts = [
        emulator.source(f"/sap/bc/adt/programs/programs/{name}/source/main") or "" for name in names
    ]
    lines = sum(text.count("\n") + 1 for text in texts)
    found: dict[str, list[tuple[int, int]]] = {"ours": [], "bare": []}
    if before:
        found["before"] = []
    with emulator.serve_in_thread() as url:
        options = {
            "systems": [{"name": "A4H", "url": url, "user": "DEVELOPER", "password": "developer"}],
            "pollInterval": 0,
            "agentChannel": False,
        }
        ours_docs = [
            (f"adt://A4H/sap/bc/adt/programs/programs/{name}/source/main", "") for name in names
        ]
        bare_docs = [
            (f"file:///bench/{name}.abap", text) for name, text in zip(names, texts, strict=True)
        ]
        for _ in range(runs):
            if before:
                found["before"].append(measure(_server_from(before), ours_docs, options))
            found["ours"].append(measure([sys.executable, "-m", "lsp_server"], ours_docs, options))
            bare = [sys.executable, str(HERE / "anchors" / "bare_pygls_server.py")]
            found["bare"].append(measure(bare, bare_docs, None))
    print(f"{count} documents, {lines:,} lines, {sum(map(len, texts)) / MB:.1f} MB of text")
    return {
        key: (
            int(statistics.median(e for e, _ in values)),
            int(statistics.median(o for _, o in values)),
        )
        for key, values in found.items()
    } | {"_size": (count, lines)}


def report(results: dict[str, tuple[int, int]], runs: int) -> str:
    count, lines = results["_size"]
    rows = [
        "# Language server memory with many documents open",
        "",
        f"{count} documents, {lines:,} lines; median of {runs} runs. Method: the docstring of "
        "bench/memory.py.",
        "",
        "| server | RSS empty (MB) | RSS with the documents (MB) | the documents cost (MB) |",
        "|---|---:|---:|---:|",
    ]
    labels = (
        ("ours", "abap-adt lsp"),
        ("before", "abap-adt lsp, before"),
        ("bare", "bare pygls 2 server"),
    )
    for key, label in labels:
        if key not in results:
            continue
        empty, loaded = results[key]
        rows.append(
            f"| {label} | {empty / MB:.1f} | {loaded / MB:.1f} | {(loaded - empty) / MB:.1f} |"
        )
    return "\n".join(rows) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--documents", type=int, default=50)
    parser.add_argument("--lines", type=int, default=108_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="also the server of another checkout (e.g. `git archive REV adt lsp_server`)",
    )
    args = parser.parse_args()
    results = run(args.documents, args.lines, args.runs, args.before)
    text = report(results, args.runs)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "memory.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
