"""Jobs sent to the pretty printer as soon as they are planned, a few at a time, so that the
system prints the first parts of a long text while the rest is still being cut
(:class:`adt.workbench.printed.Planning`); the answers come back in the order sent.

A real system serves concurrent requests in parallel work processes; :data:`IN_FLIGHT`
bounds how many one format keeps busy.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from types import TracebackType
from typing import Generic, TypeVar

Sent = TypeVar("Sent")
Answer = TypeVar("Answer")

#: Most requests of one format the system works on at once.
IN_FLIGHT = 3


class Sending(Generic[Sent, Answer]):
    """Jobs being printed (by ``pretty_print``, which also reads its answer as it comes),
    in the order :meth:`send` got them. Used as ``async with``: leaving it (an error, a
    cancelled request) cancels what is still being printed."""

    def __init__(self, pretty_print: Callable[[Sent], Awaitable[Answer]]) -> None:
        self._print = pretty_print
        self._gate = asyncio.Semaphore(IN_FLIGHT)
        self._tasks: list[asyncio.Task[Answer]] = []

    async def __aenter__(self) -> Sending[Sent, Answer]:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.cancel()

    def send(self, jobs: Iterable[Sent]) -> None:
        """Start printing ``jobs`` (each waits for a free place among :data:`IN_FLIGHT`)."""
        self._tasks += [asyncio.create_task(self._printed(job)) for job in jobs]

    async def _printed(self, job: Sent) -> Answer:
        async with self._gate:
            return await self._print(job)

    def check(self) -> None:
        """Raise the error of a job that failed already (the system refused it): then
        nothing more needs to be sent."""
        for task in self._tasks:
            if task.done() and not task.cancelled() and (error := task.exception()) is not None:
                raise error

    async def answers(self) -> list[Answer]:
        """The answers, in the order sent (the first error raises)."""
        return list(await asyncio.gather(*self._tasks))

    async def cancel(self) -> None:
        """Stop what is still being printed and forget all of it."""
        tasks, self._tasks = self._tasks, []
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
