"""The soak's rebased writes: an agent writes with a token a colleague has moved past.

One agent works on a class nobody else in the soak writes (so what must happen is known): it
reads the source (token T), a colleague saves a marked line, and the agent writes a marked
line with T, by a line patch (``setObjectSourceV2``) or by a unique string
(``replaceInObjectSource``). When the colleague's line went into *another method*, the write
must be rebased in that one call (``rebasedOver``); when it went where the agent writes (the
same lines, or the line of context beside them), the write must be refused with 4003 and
nothing of it written. Faults strike these writes like every other (the fault task is given
this object too): a write refused after a fault is counted, not judged. So is a write
whose read came from the bridge's cache and was older than the saved source (the
colleague's change is then not the only difference from the agent's base): only "nothing
lost" is checked there. Every broken rule is a *violation* the soak fails on; every
accepted line joins the soak's lost/doubled check.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from typing import Any, Protocol

from adt.agent import AgentTools
from adt.emulator import Emulator

REBASE_OBJECT = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
REBASE_SOURCE = f"{REBASE_OBJECT}/source/main"
#: (tool, where the colleague writes)
SCENARIOS = (
    ("setObjectSourceV2", "another method"),
    ("setObjectSourceV2", "same lines"),
    ("replaceInObjectSource", "another method"),
    ("replaceInObjectSource", "same lines"),
)


class Tally(Protocol):
    counts: Any

    def accept(self, object_url: str, marker: str) -> None: ...


def methods(lines: list[str]) -> list[int]:
    """1-based numbers of the ``METHOD x.`` lines of an implementation."""
    return [i for i, line in enumerate(lines, 1) if line.strip().upper().startswith("METHOD ")]


def _colleague_writes(emulator: Emulator, at: int, line: str) -> bool:
    """The colleague inserts ``line`` before line ``at`` of the saved source."""
    current = (emulator.source(REBASE_SOURCE) or "").split("\n")
    current.insert(at - 1, line)
    try:
        emulator.write_as("COLLEAGUE", REBASE_SOURCE, "\n".join(current))
    except Exception:  # locked: a fault's restart may leave the agent's write half-way
        return False
    return True


def _write_args(tool: str, token: str, lines: list[str], at: int, marker: str) -> dict[str, Any]:
    """The agent's write: ``marker`` after the ``METHOD`` statement on line ``at``."""
    if tool == "setObjectSourceV2":
        return {
            "objectUrl": REBASE_OBJECT,
            "token": token,
            "startLine": at + 1,
            "endLine": at,
            "content": marker,
        }
    return {
        "objectUrl": REBASE_OBJECT,
        "token": token,
        "oldString": lines[at - 1],
        "newString": f"{lines[at - 1]}\n{marker}",
    }


class Rebaser:
    """One agent and one colleague taking turns on :data:`REBASE_OBJECT`."""

    def __init__(
        self, tools: AgentTools, emulator: Emulator, tally: Tally, rng: random.Random
    ) -> None:
        self.tools, self.emulator, self.tally, self.rng = tools, emulator, tally, rng
        self.owner = f"soak-rebase:{id(tools)}"
        self.violations: list[str] = []
        self.sequence = 0
        self.stale = False
        self.previous = "nothing"  # the outcome of the last write, for the report

    async def run(self, stop: float) -> None:
        while time.monotonic() < stop:
            self.sequence += 1
            await self.once(*self.rng.choice(SCENARIOS))
            await asyncio.sleep(self.rng.uniform(0.0, 0.05))

    async def _read(self) -> tuple[str, str] | None:
        """The whole source and its token, page by page as an agent reads a source longer
        than one answer (the class grows by a line per accepted write); None if refused."""
        pages: list[str] = []
        token: str | None = None
        arguments: dict[str, Any] = {"objectUrl": REBASE_OBJECT}
        while True:
            read = await self.tools.call("getObjectSourceV2", arguments, owner=self.owner)
            if not read.ok:
                self.tally.counts[f"rebase scenario: read refused {read.payload.get('name')}"] += 1
                return None
            data = read.payload["data"]
            if token is not None and data["token"] != token:
                self.tally.counts["rebase scenario: source changed between pages"] += 1
                return None
            token = data["token"]
            pages.append(data["content"])
            if not data.get("truncated"):
                return "\n".join(pages), token
            arguments = {"objectUrl": REBASE_OBJECT, "startLine": data["nextStartLine"]}

    async def once(self, tool: str, where: str) -> None:
        read = await self._read()
        if read is None:
            return
        content, token = read
        lines = content.split("\n")
        self.stale = content != self.emulator.source(REBASE_SOURCE)
        starts = methods(lines)
        ours = self.rng.choice(starts)
        others = [s for s in starts if s != ours]
        theirs = ours if where == "same lines" else self.rng.choice(others)
        colleague = f"* colleague of the rebasing agent edit {self.sequence}"
        if not _colleague_writes(self.emulator, theirs + 1, colleague):
            self.tally.counts["rebase scenario: colleague found it locked"] += 1
            return
        self.tally.accept(REBASE_OBJECT, colleague)
        marker = f"* rebasing agent edit {self.sequence}"
        args = _write_args(tool, token, lines, ours, marker)
        write = await self.tools.call(tool, args, owner=self.owner)
        self.tally.counts["agent operations"] += 1
        self._judge(tool, where, write.ok, write.payload, marker)

    def _judge(self, tool: str, where: str, ok: bool, payload: dict[str, Any], marker: str) -> None:
        """Count the outcome; a write that broke the rule for its scenario is a violation."""
        label = f"{tool}, colleague in {where}"
        name = payload.get("name")
        if ok:
            self.tally.accept(REBASE_OBJECT, marker)
        written = (self.emulator.source(REBASE_SOURCE) or "").split("\n").count(marker)
        if self.stale:  # the base is not what the colleague saw: only nothing lost is judged
            self._judge_stale(label, ok, name, written, marker)
        elif where == "another method" and ok and "rebasedOver" in payload["data"]:
            self.tally.counts[f"rebased in 1 call ({label})"] += 1
        elif where == "same lines" and name == "VERSION_CONFLICT" and payload.get("code") == 4003:
            self.tally.counts[f"refused 4003 ({label})"] += 1
            if written:
                self.violations.append(f"{label}: refused, yet {marker!r} was written")
        elif not ok and name != "VERSION_CONFLICT":  # a fault's refusal: not the rule's
            self.tally.counts[f"rebase scenario: refused {name} after a fault"] += 1
            if written:  # the answer was lost, the write went through: account for it
                self.tally.accept(REBASE_OBJECT, marker)
                self.tally.counts["rebase scenario: written though the answer was lost"] += 1
        else:
            said = "written" if ok else f"{name}: {payload.get('error')}"
            self.violations.append(f"{label}: {said} ({marker!r})")
        self.previous = "ok" if ok else str(name)

    def _judge_stale(
        self, label: str, ok: bool, name: str | None, written: int, marker: str
    ) -> None:
        counts = self.tally.counts
        counts[
            f"rebase scenario: cached read older than saved (after {self.previous}), "
            f"{name or 'written'}"
        ] += 1
        if not ok and written and name == "VERSION_CONFLICT":
            self.violations.append(f"{label}: refused, yet {marker!r} was written")
        elif not ok and written:  # the answer was lost, the write went through
            self.tally.accept(REBASE_OBJECT, marker)


async def rebaser(
    tools: AgentTools,
    emulator: Emulator,
    tally: Tally,
    stop: float,
    rng: random.Random,
    report: Callable[[list[str]], None],
) -> None:
    """Run the rebase scenarios until ``stop``; hand the violations to ``report``."""
    worker = Rebaser(tools, emulator, tally, rng)
    try:
        await worker.run(stop)
    finally:
        report(worker.violations)
