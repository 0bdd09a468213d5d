"""Benchmark: what one save moves on the wire, and what a save costs after a long session.

Wire. The language server's workspace (in-process, with a quiet editor) opens the program
through ``adt/readDocument``, ten lines spread over it are changed, and the document is
saved. A transport between the client and the in-process emulator counts every request and
the bytes of each request and response body. Reported: requests, full-source GETs, bytes
sent and received for the save, next to the floor — one verifying GET of the source under
the lock plus the PUT of it (source size each way) — and the median time of 5 saves.

Long session. A class of 10,000 and of 100,000 lines (``editing.class_source``) is opened the
same way and receives a realistic session of 10,000 keys (``bench/editing.py``: typing,
Enter with indentation, pastes, line deletes, cursor jumps), one ``didChange`` per key. The
save then writes the hunks; the system (the emulator, as SAP does) trims the trailing blanks
that Enter's indentation and typed blanks left, so the server shows the editor the saved form:
an editor that applies the edit and reports it as the next change, as VS Code and Neovim do.
Reported: the save's wall time, the part of it spent in ADT round trips (time inside the HTTP
transport: the anchor, what any client pays), and the rest (ours), also as CPU time (the
process's, less the CPU spent inside the transport, which is the in-process emulator's).
"Before" is the comparison the save ran until this change — ``difflib.SequenceMatcher`` over
the editor's and the saved lines — timed (CPU) on the identical two texts in the same run (at
100,000 lines only with ``--before-at 100000``: it takes minutes).

Run: ``python bench/save_path.py`` (writes bench/results/save_path.md).
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import httpx
from editing import Session, class_source
from keystroke import seeded_emulator
from support_path import emulated_client, emulated_connections

from adt.emulator import Emulator
from adt.systems import EditorSettings
from lsp_server.buffer import UTF16, Edit
from lsp_server.editor import Diagnostic, Severity
from lsp_server.workspace import EditorWorkspace

RESULTS = Path(__file__).resolve().parent / "results"
SIZE = 100_000


class Counting(httpx.AsyncBaseTransport):
    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.sent = 0
        self.received = 0
        self.seconds = 0.0  # wall time inside the requests
        self.cpu = 0.0  # CPU time inside them (the in-process emulator's work)
        self.calls: Counter[str] = Counter()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        started, cpu = time.perf_counter(), time.process_time()
        try:
            return await self._handle(request)
        finally:
            self.seconds += time.perf_counter() - started
            self.cpu += time.process_time() - cpu

    async def _handle(self, request: httpx.Request) -> httpx.Response:
        body = await request.aread()
        self.sent += len(body)
        response = await self.inner.handle_async_request(request)
        content = await response.aread()
        self.received += len(content)
        self.calls[f"{request.method} {'source' if 'source' in request.url.path else 'other'}"] += 1
        return httpx.Response(response.status_code, headers=response.headers, content=content)

    def reset(self) -> None:
        self.sent = self.received = 0
        self.seconds = self.cpu = 0.0
        self.calls.clear()


class QuietEditor:
    async def apply_edits(
        self, uri: str, edits: Sequence[Edit], label: str, version: int | None
    ) -> bool:
        return False

    async def ask(self, message: str, choices: Sequence[str]) -> str | None:
        return None

    def notify(self, severity: Severity, message: str) -> None:
        return None

    def publish(self, uri: str, diagnostics: Sequence[Diagnostic]) -> None:
        return None

    def base_version(
        self,
        uri: str,
        token: str,
        changed_at: int | None,
        changed_by: str | None,
        inactive: bool | None = None,
        shown: tuple[int, bool] | None = None,
    ) -> None:
        return None

    def agent_edit_refused(self, uri: str, message: str) -> None:
        return None


async def one_save(run: int) -> tuple[float, Counting, int]:
    emulator, (name,) = seeded_emulator([SIZE])
    counting = Counting(httpx.ASGITransport(app=emulator.app))
    client = emulated_client(emulator, counting)
    connections = emulated_connections(client)
    workspace = EditorWorkspace(connections, EditorSettings(poll_interval=0), QuietEditor())
    uri = f"adt://A4H/sap/bc/adt/programs/programs/{name}/source/main"
    read = await workspace.objects.read_document(uri)
    workspace.did_open(uri, read.text, 1, UTF16)
    for number, line in enumerate(range(500, SIZE, SIZE // 10)):
        workspace.did_change(uri, 2 + number, [((line, 0), (line, 0), f"x{run}")])
    await workspace.diagnostics.ctx.tasks.wait_idle()
    counting.reset()
    started = time.perf_counter()
    result = await workspace.saving.save(uri)  # the save alone (its syntax check runs after)
    elapsed = (time.perf_counter() - started) * 1000
    assert result.status == "saved" and result.hunks == 10, result
    during = Counting(counting.inner)  # what the save moved (closing logs off afterwards)
    during.sent, during.received, during.calls = (
        counting.sent,
        counting.received,
        Counter(counting.calls),
    )
    await workspace.close()
    source_bytes = len(
        (emulator.source(f"/sap/bc/adt/programs/programs/{name}/source/main") or "")
        .replace("\n", "\r\n")
        .encode()
    )
    return elapsed, during, source_bytes


class FollowingEditor(QuietEditor):
    """Applies the server's edits to the document and reports them as the next change, as
    an editor does (positions are ``str`` indices: the session is ASCII)."""

    def __init__(self) -> None:
        self.workspace: EditorWorkspace | None = None
        self.versions: dict[str, int] = {}

    async def apply_edits(
        self, uri: str, edits: Sequence[Edit], label: str, version: int | None
    ) -> bool:
        workspace = self.workspace
        assert workspace is not None
        changes = [(e.start, e.end, e.text) for e in sorted(edits, key=lambda e: e.start)][::-1]
        self.versions[uri] += 1
        asyncio.get_running_loop().call_soon(workspace.did_change, uri, self.versions[uri], changes)
        return True


def seed_class(size: int) -> tuple[Emulator, str]:
    """An emulator holding one class of about ``size`` lines; its name."""
    import tempfile

    name = f"zcl_bench_{size}"
    with tempfile.TemporaryDirectory(prefix="abap-adt-bench-") as folder:
        lines = [line.replace("zcl_bench", name) for line in class_source(size)]
        (Path(folder) / f"{name}.clas.abap").write_text("\n".join(lines) + "\n")
        return Emulator(seed_dirs=[folder]), name


async def long_session(size: int, keys: int, before: bool) -> dict[str, float]:
    """Milliseconds of the save after ``keys`` realistic keys (see the module docstring)."""
    emulator, name = seed_class(size)
    counting = Counting(httpx.ASGITransport(app=emulator.app))
    client = emulated_client(emulator, counting)
    connections = emulated_connections(client)
    editor = FollowingEditor()
    workspace = EditorWorkspace(connections, EditorSettings(poll_interval=0), editor)
    editor.workspace = workspace
    uri = f"adt://A4H/sap/bc/adt/oo/classes/{name}/source/main"
    read = await workspace.objects.read_document(uri)
    workspace.did_open(uri, read.text, 1, UTF16)
    session = Session(read.text.split("\n"), seed=size)
    for version, change in enumerate(session.keys(keys), start=2):
        workspace.did_change(uri, version, [change])
    editor.versions[uri] = keys + 1
    doc = workspace.documents.require(uri)
    typed = list(doc.buffer.lines)
    await workspace.diagnostics.ctx.tasks.wait_idle()
    counting.reset()
    started, cpu = time.perf_counter(), time.process_time()
    result = await workspace.saving.save(uri)
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    saved = emulator.source(f"/sap/bc/adt/oo/classes/{name}/source/main") or ""
    assert result.status == "saved", result
    assert saved != "\n".join(typed), "the system normalised nothing: no saved form to show"
    assert doc.buffer.text == saved and not doc.buffer.dirty, "the editor shows the saved form"
    figures = {
        "lines": len(typed),
        "hunks": float(result.hunks or 0),
        "save": elapsed * 1000,
        "adt": counting.seconds * 1000,
        "cpu": cpu * 1000,
        "adt_cpu": counting.cpu * 1000,
    }
    if before:
        started = time.process_time()
        difflib.SequenceMatcher(None, typed, saved.split("\n"), autojunk=False).get_opcodes()
        figures["before"] = (time.process_time() - started) * 1000
    await workspace.close()
    return figures


def session_report(rows: list[dict[str, float]], keys: int) -> list[str]:
    lines = [
        "",
        f"# The save after {keys:,} realistic keys (trailing blanks normalised by the system)",
        "",
        "Method: the docstring of bench/save_path.py. Times in milliseconds. On a shared "
        "machine the wall times include waiting for a core; the CPU times do not.",
        "",
        "| class lines | hunks | save (wall) | ADT round trips (anchor, wall) "
        "| ours (save − ADT, wall) | ours, CPU | before: difflib on the same two texts, CPU |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in rows:
        before = f"{row['before']:,.0f}" if "before" in row else "not run (minutes)"
        lines.append(
            f"| {row['lines']:,.0f} | {row['hunks']:.0f} | {row['save']:,.0f} | {row['adt']:,.0f} "
            f"| {row['save'] - row['adt']:,.0f} | {row['cpu'] - row['adt_cpu']:,.0f} | {before} |"
        )
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--keys", type=int, default=10_000)
    parser.add_argument("--before-at", type=int, nargs="*", default=[10_000])
    parser.add_argument("--skip-wire", action="store_true", help="only the long session")
    args = parser.parse_args()
    sessions = [
        asyncio.run(long_session(size, args.keys, size in args.before_at)) for size in args.sizes
    ]
    text = "\n".join(
        ([] if args.skip_wire else wire_report()) + session_report(sessions, args.keys)
    )
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "save_path.md").write_text(text + "\n")
    print(text)
    return 0


def wire_report() -> list[str]:
    runs = [asyncio.run(one_save(run)) for run in range(5)]
    elapsed = statistics.median(r[0] for r in runs)
    _, counting, source = runs[-1]
    full_gets = counting.calls["GET source"]
    kinds = ", ".join(f"{k}: {v}" for k, v in sorted(counting.calls.items()))
    return [
        f"# One save of 10 hunks in a {SIZE:,}-line program",
        "",
        "Method: the docstring of bench/save_path.py. Median of 5 saves for the time.",
        "",
        "| | ours | floor (one verifying GET + the PUT) |",
        "|---|---:|---:|",
        f"| ADT requests | {sum(counting.calls.values())} ({kinds}) | 4 (lock, GET, PUT, unlock) |",
        f"| full-source GETs | {full_gets} | 1 |",
        f"| bytes sent | {counting.sent:,} | {source:,} |",
        f"| bytes received | {counting.received:,} | {source:,} |",
        f"| time (ms) | {elapsed:.0f} | |",
    ]


if __name__ == "__main__":
    sys.exit(main())
