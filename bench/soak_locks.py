"""Locks still held when every caller of the soak is idle: on their way out or left behind.

A client whose unlock and context end both failed hands the context to its release journal,
which ends it again in the background (``adt/release.py``: 1, 2, 5, 10, then every 30 s).
Such a lock is on its way out, not left behind, when the journal said it took the context
(its log record names the objects) and the lock goes within the journal's longest wait. Any
other lock held at idle — one no journal took, or one still held after that wait — is left
behind.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from adt.emulator import Emulator
from adt.release import RELEASE_DELAYS

#: how long the journals get to end what they took: their longest wait, and a margin
SETTLE_SECONDS = max(RELEASE_DELAYS) + 15.0
#: a context taken whose locks the client did not know (the lock's answer was lost)
UNKNOWN = "?"


class JournalLog(logging.Handler):
    """The objects every release journal of this process took a context for."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.adopted: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        objects = getattr(record, "journal_adopted", None)
        if objects is None:
            return
        self.adopted.update(o.lower() for o in objects or (UNKNOWN,))

    def took(self, object_uri: str) -> bool:
        return object_uri.lower() in self.adopted or UNKNOWN in self.adopted


@dataclass
class Settled:
    """``late``: locks a journal took and ended within its wait; ``left``: the others."""

    late: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)


async def settle(
    emulator: Emulator, journals: JournalLog, seconds: float = SETTLE_SECONDS
) -> Settled:
    """Sort the locks held now (every caller idle and still connected) into late and left."""
    held = {(lock.user, lock.object_uri) for lock in emulator.locks()}
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    still = held
    while still and loop.time() < deadline:
        await asyncio.sleep(0.1)  # the journals retry on their own clock: poll the table
        still = held & {(lock.user, lock.object_uri) for lock in emulator.locks()}
    settled = Settled()
    for user, uri in sorted(held):
        on_its_way = (user, uri) not in still and journals.took(uri)
        (settled.late if on_its_way else settled.left).append(f"{user} {uri}")
    return settled
