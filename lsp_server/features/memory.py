"""Memory back to the system once documents stop opening or closing, and what they keep
out of the collector's walks.

Opening a document moves its text through several short-lived copies (the HTTP body, the
answer to the editor, the ``didOpen`` frame) between the texts the server keeps; the C
allocator holds on to the pages they leave free. A moment after the last document opened or
closed, those pages go back (:func:`adt.heap.release_free_memory`): one call per burst.

At that moment the objects that live on — the open documents' statements and chunks, tens
of thousands for a long source — are frozen too (:func:`adt.heap.refreeze`), as the
start-up objects are: otherwise every full collection walks them again, and one that falls
into a request after a key at 100,000 lines added 60–100 ms to it. After a burst that
closed a document the frozen objects are collected too (its cycles may be among them);
after one that only opened, only what is not frozen yet (a shorter walk).
"""

from __future__ import annotations

import asyncio

from adt.heap import refreeze, release_free_memory
from lsp_server.documents import OpenDocument
from lsp_server.features import Feature

#: Seconds without an opened or closed document before the free pages go back.
SETTLE_SECONDS = 0.5


class FreeMemory(Feature):
    """Schedules one release of free memory after each burst of opens and closes."""

    _pending: asyncio.TimerHandle | None = None
    _closed = False  # a document closed since the last release
    releases = 0  # how many were made
    released: asyncio.Event | None = None  # set after each (made with the first burst)

    def document_opened(self, doc: OpenDocument) -> None:
        self._soon()

    def document_closed(self, doc: OpenDocument) -> None:
        self._closed = True  # what it held may be frozen: the release looks at those too
        self._soon()

    def _soon(self) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a workspace driven without a loop (tests): nothing to time
            return
        if self.released is None:
            self.released = asyncio.Event()
        self.released.clear()
        if self._pending is not None:
            self._pending.cancel()
        self._pending = loop.call_later(SETTLE_SECONDS, self._release)

    def _release(self) -> None:
        self._pending = None
        self.releases += 1
        refreeze(everything=self._closed)  # the burst's garbage collected, the rest frozen
        self._closed = False
        release_free_memory()
        if self.released is not None:
            self.released.set()

    async def close(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None
