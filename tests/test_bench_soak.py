"""The soak's rebasing agent reads its class whole however long it grows: a ten-minute soak
adds a line per accepted write, and once the class was longer than one answer the agent saw
only its first page, found a single method and crashed choosing "another" one."""

from __future__ import annotations

import collections
import random
import sys
from pathlib import Path

from adt.agent import AgentTools
from adt.emulator import Emulator

BENCH = Path(__file__).resolve().parents[1] / "bench"


class _Tally:
    def __init__(self) -> None:
        self.counts: collections.Counter[str] = collections.Counter()
        self.accepted: list[str] = []

    def accept(self, object_url: str, marker: str) -> None:
        self.accepted.append(marker)


async def test_the_rebaser_reads_a_class_longer_than_one_answer() -> None:
    sys.path.insert(0, str(BENCH))
    try:
        import soak
        import soak_rebase
    finally:
        sys.path.remove(str(BENCH))
    emulator = Emulator(users={**soak.USERS, "COLLEAGUE": "colleague"})
    lines = (emulator.source(soak_rebase.REBASE_SOURCE) or "").split("\n")
    first = soak_rebase.methods(lines)[0]
    lines[first:first] = [
        f"* line {k} the soak's writes left in the first method" for k in range(4_000)
    ]
    emulator.write_as("COLLEAGUE", soak_rebase.REBASE_SOURCE, "\n".join(lines))
    with emulator.serve_in_thread() as url:
        tools = AgentTools(soak._connections(url, "AGENTS"))
        try:
            rebaser = soak_rebase.Rebaser(tools, emulator, _Tally(), random.Random(1))
            read = await rebaser._read()
            assert read is not None
            assert read[0] == emulator.source(soak_rebase.REBASE_SOURCE)
            await rebaser.once("setObjectSourceV2", "another method")
        finally:
            await tools.connections.close()
    assert rebaser.violations == []
    assert (
        rebaser.tally.counts["rebased in 1 call (setObjectSourceV2, colleague in another method)"]
        == 1
    )
    assert emulator.locks() == []
