"""Soak: agents and editors editing the same objects for a long time while faults strike.

Ten agents (each with its own ADT session, through the agent tools the MCP bridge serves) and
two editor sessions (the language server's workspace, each with its own session) insert
uniquely marked lines into a few shared objects, over real HTTP against the emulator (an
agent's write made against a token others have moved past is rebased when it touches none of
their lines, and counted as such). One more agent writes with stale tokens on purpose
(``soak_rebase``): a colleague's change of another method must be rebased in the one call,
one of the same lines refused with 4003, nothing of it written; every broken rule is a
*rebase violation*. Odd-numbered editors save with ``mergeOnSave: auto``. Faults
are injected at random: 503 answers, connections dropped before the server, CSRF tokens
expiring, the application server "restarting" (every context and its locks gone), latency.
Now and then an editor's language server restarts with unsaved edits in its buffers while a
colleague changes the same source: the new server is handed each buffer's base version
(``adt/restoreDocument``), so the save is a conflict and the merge keeps both. Editors also
rename a variable of the counter's test class from their buffers (``soak_rename``), sometimes
applying only part of the rename as the refactor preview allows: nothing of such a rename may
be written.

Every edit a caller was told succeeded is accounted for at the end: it must be in the final
source exactly once (a lost or doubled edit is a failure), and no lock may be left once the
callers are idle (one a client's release journal is still ending, after a fault struck its
unlock and its context's end, is counted apart when it goes within the journal's longest
wait: ``soak_locks``), and no background task of the language server may fail with an
exception no fault explains (one that is no ADT error: a *server error*; the server tells the
editor and goes on, so only its log shows it). The report counts operations, conflicts,
refusals and faults.
``--no-rebase`` leaves the stale-token agent out.

    python bench/soak.py                  # 10 minutes (the default)
    python bench/soak.py --minutes 60     # the hour-long run quoted in docs/reliability.md
    python bench/soak.py --minutes 1 --agents 4 --editors 1
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import logging
import random
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from soak_locks import JournalLog, settle
from soak_rebase import REBASE_OBJECT, rebaser
from soak_rename import RENAME_OBJECT, RENAME_SOURCE, VIOLATION, mixed, rename

from adt import AdtClient, ConnectionProfile, Secret
from adt.agent import AgentTools
from adt.emulator import Emulator
from adt.errors import AdtError
from adt.systems import Connections, EditorSettings, MergeOnSave, SystemsConfig
from lsp_server.buffer import UTF16, Edit, apply_edits
from lsp_server.editor import Diagnostic, Severity
from lsp_server.results import SaveStatus
from lsp_server.workspace import EditorWorkspace

logger = logging.getLogger("soak")

OBJECTS = {
    url: f"{url}/source/main"
    for url in (
        "/sap/bc/adt/programs/programs/zdemo_report",
        "/sap/bc/adt/oo/classes/zcl_demo_counter",
        "/sap/bc/adt/programs/includes/zdemo_include",
    )
}
USERS = {"DEVELOPER": "developer", "AGENTS": "agents"}


@dataclass
class Tally:
    """What happened, counted by kind; ``accepted`` maps each object to its saved markers."""

    counts: collections.Counter[str] = field(default_factory=collections.Counter)
    accepted: dict[str, list[str]] = field(default_factory=lambda: collections.defaultdict(list))

    def accept(self, object_url: str, marker: str) -> None:
        self.counts["accepted"] += 1
        self.accepted[object_url].append(marker)


def _profile(url: str, user: str) -> ConnectionProfile:
    return ConnectionProfile(
        base_url=url,
        user=user,
        password=Secret(USERS[user]),
        name="A4H",
        retry_delays=(0.05, 0.1, 0.2),
    )


def _connections(url: str, user: str) -> Connections:
    return Connections(SystemsConfig({"A4H": _profile(url, user)}), client_factory=AdtClient)


class ServerBugs(logging.Handler):
    """Failures the language server's background tasks logged that no fault explains: an
    exception that is no ADT error (a wrong call, a missing attribute). The server tells
    the editor and goes on, so without this the soak would pass over them."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: collections.Counter[str] = collections.Counter()

    def emit(self, record: logging.LogRecord) -> None:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and not isinstance(error, AdtError):
            self.seen[f"{record.getMessage()}: {type(error).__name__}: {error}"] += 1


# --- agents ---------------------------------------------------------------------------------


async def agent(
    number: int, url: str, tally: Tally, stop: float, rng: random.Random, closers: list[Any]
) -> None:
    """Read a few lines, insert a marked line with the token read; sometimes lock first.
    The session is closed only after the lock table was checked (closing releases locks)."""
    tools = AgentTools(_connections(url, "AGENTS"))
    closers.append(tools.connections.close)
    sequence = 0
    while time.monotonic() < stop:
        object_url = rng.choice(list(OBJECTS))
        sequence += 1
        marker = f"* agent {number} edit {sequence}"
        await _agent_edit(tools, object_url, marker, tally, explicit_lock=rng.random() < 0.2)
        await asyncio.sleep(rng.uniform(0.0, 0.05))


async def _agent_edit(
    tools: AgentTools, object_url: str, marker: str, tally: Tally, *, explicit_lock: bool
) -> None:
    owner = f"soak:{id(tools)}"
    read = await tools.call(
        "getObjectSourceV2", {"objectUrl": object_url, "startLine": 1, "endLine": 3}, owner=owner
    )
    if not read.ok:
        tally.counts[f"refused {read.payload.get('name')}"] += 1
        return
    data = read.payload["data"]
    line = random.randint(1, max(1, data["lineCount"]))
    if explicit_lock:
        locked = await tools.call("lock", {"objectUrl": object_url}, owner=owner)
        if not locked.ok:
            tally.counts[f"refused {locked.payload.get('name')}"] += 1
            return
    write = await tools.call(
        "setObjectSourceV2",
        {
            "objectUrl": object_url,
            "token": data["token"],
            "startLine": line,
            "endLine": line - 1,
            "content": marker,
        },
        owner=owner,
    )
    if explicit_lock:
        await tools.call("unLock", {"objectUrl": object_url}, owner=owner)
    tally.counts["agent operations"] += 1
    if write.ok:
        tally.accept(object_url, marker)
        if "rebasedOver" in write.payload["data"]:  # written over others' edits since the read
            tally.counts["rebased writes"] += 1
    elif write.payload.get("name") == "VERSION_CONFLICT":
        tally.counts["conflicts"] += 1
    else:
        tally.counts[f"refused {write.payload.get('name')}"] += 1


# --- editors --------------------------------------------------------------------------------


class SoakEditor:
    """The editor side of the workspace port: applies server edits to its own text."""

    def __init__(self) -> None:
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.base_tokens: dict[str, str] = {}  # what adt/baseVersion told the editor
        self.workspace: EditorWorkspace | None = None

    async def apply_edits(
        self, uri: str, edits: Sequence[Edit], label: str, version: int | None
    ) -> bool:
        if version is not None and version != self.versions.get(uri):
            return False
        self.change(uri, apply_edits(self.texts[uri].split("\n"), edits))
        return True

    async def ask(self, message: str, choices: Sequence[str]) -> str | None:
        return None  # conflicts are resolved by the loop below

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
        self.base_tokens[uri] = token

    def agent_edit_refused(self, uri: str, message: str) -> None:
        return None

    def change(self, uri: str, text: str) -> None:
        assert self.workspace is not None
        self.texts[uri] = text
        self.versions[uri] += 1
        self.workspace.did_change(uri, self.versions[uri], [(None, None, text)])


@dataclass
class EditorRun:
    """One editor session's context: where it connects, what it counts, when it stops."""

    number: int
    url: str
    emulator: Emulator
    tally: Tally
    stop: float
    rng: random.Random
    restart_chance: float
    rename_chance: float = 0.1
    uris: dict[str, str] = field(
        default_factory=lambda: {o: f"adt://A4H{s}" for o, s in OBJECTS.items()}
    )


def _workspace(run: EditorRun, editor: SoakEditor) -> EditorWorkspace:
    """Odd-numbered editors save with ``mergeOnSave: auto`` (rebased over a colleague's
    change that does not meet theirs), even-numbered ones with ``ask``."""
    merge = MergeOnSave.AUTO if run.number % 2 else MergeOnSave.ASK
    settings = EditorSettings(poll_interval=0, ask_on_conflict=False, merge_on_save=merge)
    workspace = EditorWorkspace(_connections(run.url, "DEVELOPER"), settings, editor)
    editor.workspace = workspace
    return workspace


async def editor(run: EditorRun, closers: list[Any]) -> None:
    """Open every object, type a marked line, save; on a conflict, merge (a marker overlap
    keeps both lines) and save again. Sometimes the language server restarts first."""
    editor = SoakEditor()
    workspace = _workspace(run, editor)
    closers.append(lambda: editor.workspace.close() if editor.workspace else asyncio.sleep(0))
    for uri in run.uris.values():
        read = await workspace.objects.read_document(uri)
        editor.texts[uri], editor.versions[uri] = read.text, 1
        workspace.did_open(uri, read.text, 1, UTF16)
    sequence = 0
    while time.monotonic() < run.stop:
        object_url = run.rng.choice(list(run.uris))
        uri = run.uris[object_url]
        sequence += 1
        _type_marker(editor, uri, f"* editor {run.number} edit {sequence}", run.rng)
        if run.rng.random() < run.restart_chance:
            workspace = await _restart(run, editor, workspace, object_url, sequence)
        try:
            await _editor_save(workspace, editor, uri, object_url, run.tally)
        except AdtError as exc:  # the editor shows the error; its user saves again later
            logger.warning("editor %s: save of %s failed", run.number, uri, exc_info=True)
            run.tally.counts[f"editor save failed ({type(exc).__name__})"] += 1
        if object_url == RENAME_OBJECT and run.rng.random() < run.rename_chance:
            await rename(workspace, editor, run.tally, run.rng)
        await asyncio.sleep(run.rng.uniform(0.0, 0.1))
    await workspace.wait_idle()


def _type_marker(editor: SoakEditor, uri: str, marker: str, rng: random.Random) -> None:
    lines = editor.texts[uri].split("\n")
    lines.insert(rng.randint(0, len(lines)), marker)
    editor.change(uri, "\n".join(lines))


async def _colleague_writes(run: EditorRun, source: str, line: str) -> bool:
    """A colleague saves ``line`` into ``source``, waiting (a little) for the agents' locks."""
    for _ in range(100):
        current = (run.emulator.source(source) or "").split("\n")
        current.insert(run.rng.randint(0, len(current)), line)
        try:
            run.emulator.write_as("COLLEAGUE", source, "\n".join(current))
            return True
        except Exception:  # locked by an agent right now
            await asyncio.sleep(0.01)
    return False


async def _restart(
    run: EditorRun, editor: SoakEditor, old: EditorWorkspace, object_url: str, sequence: int
) -> EditorWorkspace:
    """The language server dies with unsaved edits; a colleague saves the same source; a new
    server is started and handed every buffer with the version it was read at."""
    bases = {}
    for uri in run.uris.values():
        doc = old.documents.require(uri)
        assert doc.base_token is not None
        bases[uri] = (doc.base_token, doc.buffer.base_text)
    await old.close()
    run.tally.counts["editor restarts"] += 1
    source = OBJECTS[object_url]
    colleague = f"* colleague of editor {run.number} edit {sequence}"
    if await _colleague_writes(run, source, colleague):
        run.tally.accept(object_url, colleague)
    else:  # the agents kept it locked all along: the restart goes on without it
        run.tally.counts["colleague write refused (locked)"] += 1
    workspace = _workspace(run, editor)
    for uri, (token, text) in bases.items():
        editor.versions[uri] += 1
        workspace.did_open(uri, editor.texts[uri], editor.versions[uri], UTF16)
        run.tally.counts[f"restored {await _restore(run, workspace, uri, token, text)}"] += 1
    return workspace


async def _restore(
    run: EditorRun, workspace: EditorWorkspace, uri: str, token: str, text: str
) -> str:
    """``adt/restoreDocument`` as an editor sends it: again after a failure (the server
    refuses to save the document until a restore went through)."""
    for attempt in range(20):
        try:
            return str((await workspace.restoring.restore(uri, token, text)).status)
        except Exception:
            run.tally.counts["restore retried after a fault"] += 1
            await asyncio.sleep(0.05 * (attempt + 1))
    return "failed"


async def _editor_save(
    workspace: EditorWorkspace, editor: SoakEditor, uri: str, object_url: str, tally: Tally
) -> None:
    """Save until the typed lines are on the server (or the save is refused)."""
    pending = _markers(editor.texts[uri]) - set(tally.accepted[object_url])
    for _ in range(5):
        tally.counts["editor saves"] += 1
        result = await workspace.save(uri)
        if result.status == SaveStatus.MERGED:  # mergeOnSave: auto moved it over others'
            tally.counts["editor saves rebased (mergeOnSave auto)"] += 1
            break
        if result.status in (SaveStatus.SAVED, SaveStatus.UNCHANGED):
            break
        if result.status != SaveStatus.CONFLICT:
            tally.counts[f"refused {result.error.name if result.error else result.status}"] += 1
            await asyncio.sleep(0.05)
            continue
        tally.counts["conflicts"] += 1
        merged = await workspace.conflicts.resolve(uri, "merge")
        if merged.status == SaveStatus.MERGE_CONFLICTS:
            editor.change(uri, _keep_both(editor.texts[uri]))
    else:
        return
    saved = _markers(workspace.documents.require(uri).buffer.base_text)
    for marker in sorted(pending & saved):
        tally.accept(object_url, marker)


def _markers(text: str) -> set[str]:
    return {
        line
        for line in text.split("\n")
        if line.startswith(("* editor ", "* agent ", "* colleague "))
    }


def _keep_both(text: str) -> str:
    """Resolve merge conflicts as a careful person would: the server's side (a colleague's
    lines, a rename) and the lines this editor added there (its markers) that it lacks.
    Keeping every line of both sides would write a renamed and an unrenamed statement."""
    out: list[str] = []
    yours: list[str] = []
    theirs: list[str] = []
    side = ""
    for line in text.split("\n"):
        if line.startswith("<<<<<<<"):
            side, yours, theirs = "yours", [], []
        elif line.startswith("=======") and side == "yours":
            side = "theirs"
        elif line.startswith(">>>>>>>") and side == "theirs":
            added = _markers("\n".join(yours)) - set(theirs)
            out += theirs + [mine for mine in yours if mine in added]
            side = ""
        else:
            (yours if side == "yours" else theirs if side == "theirs" else out).append(line)
    return "\n".join(out)


def _crash(exc: BaseException) -> str:
    """A crashed worker for the report: what and where (the innermost frame)."""
    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    logger.error("a worker crashed", exc_info=exc)
    return f"{exc!r}{where}"


# --- faults ---------------------------------------------------------------------------------


async def faults(
    emulator: Emulator, tally: Tally, stop: float, rng: random.Random, rate: float
) -> None:
    """Something goes wrong every ``1/rate`` seconds on average."""
    paths = [*OBJECTS, *OBJECTS.values(), REBASE_OBJECT]
    while time.monotonic() < stop:
        await asyncio.sleep(rng.expovariate(rate))
        kind = rng.choice(["503", "drop", "csrf", "restart", "latency"])
        method = rng.choice(["GET", "POST", "PUT", None])
        prefix = rng.choice(paths)
        if kind == "503":
            emulator.faults.fail_next(
                status=rng.choice([500, 502, 503]), method=method, path_prefix=prefix
            )
        elif kind == "drop":
            emulator.faults.drop_next(method=method, path_prefix=prefix)
        elif kind == "csrf":
            emulator.expire_csrf_tokens()
        elif kind == "restart":
            emulator.expire_contexts()
            emulator.expire_csrf_tokens()
        else:
            emulator.faults.add_latency(rng.uniform(0.05, 0.3), path_prefix=prefix)
            await asyncio.sleep(1.0)
            emulator.faults.clear()
        tally.counts[f"fault {kind}"] += 1
    emulator.faults.clear()


# --- the run --------------------------------------------------------------------------------


async def soak(
    minutes: float,
    agents: int,
    editors: int,
    fault_rate: float,
    seed: int,
    restart_chance: float = 0.05,
    rebase: bool = True,
    rename_chance: float = 0.1,
) -> dict[str, Any]:
    emulator = Emulator(users=USERS)
    tally = Tally()
    rng = random.Random(seed)
    started = time.monotonic()
    stop = started + minutes * 60
    closers: list[Any] = []
    journals = JournalLog()
    logging.getLogger("adt.release").addHandler(journals)
    bugs = ServerBugs()
    logging.getLogger("lsp_server").addHandler(bugs)
    async with emulator.serve() as url:
        workers = [
            agent(i, url, tally, stop, random.Random(rng.random()), closers) for i in range(agents)
        ]
        workers += [
            editor(
                EditorRun(
                    i,
                    url,
                    emulator,
                    tally,
                    stop,
                    random.Random(rng.random()),
                    restart_chance,
                    rename_chance,
                ),
                closers,
            )
            for i in range(editors)
        ]
        violations: list[str] = []
        if rebase:
            tools = AgentTools(_connections(url, "AGENTS"))
            closers.append(tools.connections.close)
            seeded = random.Random(rng.random())
            workers.append(rebaser(tools, emulator, tally, stop, seeded, violations.extend))
        workers.append(faults(emulator, tally, stop, random.Random(rng.random()), fault_rate))
        results = await asyncio.gather(*workers, return_exceptions=True)
        crashed = [_crash(r) for r in results if isinstance(r, BaseException)]
        # Every caller is idle now and still connected: a lock held now was left behind,
        # unless a release journal took its context and ends it within its longest wait.
        settled = await settle(emulator, journals)
        for close in closers:
            try:
                await close()
            except Exception as exc:  # a failed close is reported, never hidden
                crashed.append(f"closing: {exc!r}")
        after_close = [f"{lock.user} {lock.object_uri}" for lock in emulator.locks()]
    logging.getLogger("adt.release").removeHandler(journals)
    logging.getLogger("lsp_server").removeHandler(bugs)
    sources = {**OBJECTS, REBASE_OBJECT: f"{REBASE_OBJECT}/source/main"}
    final = {url: emulator.source(source) or "" for url, source in sources.items()}
    # a rename is written whole or not at all: never both names in the source
    renamed_in_part = [RENAME_SOURCE] if mixed(emulator.source(RENAME_SOURCE) or "") else []
    lost, doubled = [], []
    for object_url, markers in tally.accepted.items():
        lines = final[object_url].split("\n")
        for marker in markers:
            found = lines.count(marker)
            if found == 0:
                lost.append(f"{object_url}: {marker}")
            elif found > 1:
                doubled.append(f"{object_url}: {marker} x{found}")
    return {
        "minutes": round((time.monotonic() - started) / 60, 1),
        "agents": agents,
        "editors": editors,
        "counts": dict(sorted(tally.counts.items())),
        "lost edits": len(lost),
        "doubled edits": len(doubled),
        "leaked locks": len(settled.left),
        "locks released late by a journal": len(settled.late),
        "locks after closing": len(after_close),
        "rebase violations": len(violations),
        "rename violations": len(renamed_in_part) + tally.counts[VIOLATION],
        "crashed workers": crashed,
        "server errors": sum(bugs.seen.values()),
        "details": {
            "server errors": [f"{n} x {what}" for what, n in bugs.seen.most_common(20)],
            "lost": lost[:20],
            "doubled": doubled[:20],
            "leaked": settled.left,
            "released late": settled.late,
            "rebase violations": violations[:20],
            "rename violations": renamed_in_part,
        },
    }


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--agents", type=int, default=10)
    parser.add_argument("--editors", type=int, default=2)
    parser.add_argument("--fault-rate", type=float, default=2.0, help="faults per second (mean)")
    parser.add_argument("--seed", type=int, default=20261124)
    parser.add_argument(
        "--restart-chance",
        type=float,
        default=0.05,
        help="chance that an editor's language server restarts before a save",
    )
    parser.add_argument(
        "--rename-chance",
        type=float,
        default=0.1,
        help="chance that an editor renames a variable of the counter's test class after a save",
    )
    parser.add_argument(
        "--no-rebase",
        action="store_true",
        help="leave out the agent that writes with stale tokens beside a colleague",
    )
    parser.add_argument("--log", default=None, help="write the components' log here")
    args = parser.parse_args()
    handler = logging.FileHandler(args.log, mode="w") if args.log else logging.NullHandler()
    logging.basicConfig(level=logging.WARNING, handlers=[handler])
    report = asyncio.run(
        soak(
            args.minutes,
            args.agents,
            args.editors,
            args.fault_rate,
            args.seed,
            args.restart_chance,
            not args.no_rebase,
            args.rename_chance,
        )
    )
    print(json.dumps(report, indent=2))
    failed = (
        report["lost edits"]
        or report["doubled edits"]
        or report["leaked locks"]
        or report["locks after closing"]
        or report["rebase violations"]
        or report["rename violations"]
        or report["crashed workers"]
        or report["server errors"]
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
