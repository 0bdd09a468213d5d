"""The release journal: stateful contexts that may still hold locks after every way to
release them failed at once (the write, the unlock and the session end, in an outage).

SAP drops the enqueues of a context that ends, so a context whose end could not be sent is
kept here, with its cookies, and ended again in the background with a bounded backoff until
the system says yes. It lives as long as its client: when the client closes, each context
still pending gets one last try; what fails then is logged by object, and SAP releases those
locks when the context reaches the system's idle timeout (docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from adt._session import AdtSession

log = logging.getLogger("adt.release")

RELEASE_DELAYS = (1.0, 2.0, 5.0, 10.0, 30.0)
"""Seconds between attempts; the last one repeats until the context is released."""


class ReleaseJournal:
    """Contexts to end, each retried in its own background task until it is released."""

    def __init__(
        self,
        delays: Sequence[float] = RELEASE_DELAYS,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._delays = tuple(delays) or (1.0,)
        self._sleep = sleep
        self._pending: dict[AdtSession, asyncio.Task[None]] = {}
        self._empty = asyncio.Event()
        self._empty.set()

    @property
    def pending(self) -> list[str]:
        """The object URLs whose locks are still being released."""
        return sorted(url for session in self._pending for url in session.locks)

    def adopt(self, session: AdtSession) -> None:
        """Keep ending ``session``'s context until the system confirms it."""
        objects = ", ".join(sorted(session.locks)) or "an object (the lock's answer was lost)"
        log.warning(
            "could not end the ABAP session that holds the lock on %s; releasing it in the "
            "background until the system answers",
            objects,
            extra={"journal_adopted": tuple(sorted(session.locks))},
        )
        self._empty.clear()
        self._pending[session] = asyncio.get_running_loop().create_task(self._release(session))

    async def wait_released(self) -> None:
        """Return once nothing is pending (at once when nothing is)."""
        await self._empty.wait()

    async def close(self) -> None:
        """One last try for each pending context, then give up on them (logged)."""
        for session, task in list(self._pending.items()):
            task.cancel()
            if not await session.try_end():
                log.warning(
                    "the locks on %s stay until SAP ends their session (its idle timeout): "
                    "the system did not answer before this process closed",
                    ", ".join(sorted(session.locks)) or "an object",
                )
            await self._done(session)

    async def _release(self, session: AdtSession) -> None:
        attempt = 0
        while True:
            await self._sleep(self._delays[min(attempt, len(self._delays) - 1)])
            if await session.try_end():
                log.warning("released the locks on %s", ", ".join(sorted(session.locks)) or "?")
                await self._done(session)
                return
            attempt += 1

    async def _done(self, session: AdtSession) -> None:
        self._pending.pop(session, None)
        await session.aclose()
        if not self._pending:
            self._empty.set()


__all__ = ["RELEASE_DELAYS", "ReleaseJournal"]
