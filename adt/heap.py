"""The garbage collector in our long-running servers.

A full collection walks every tracked object. Once a server is built most of them are the
modules, classes and schema models of the MCP SDK, pygls and lsprotocol, alive as long as the
process; walking them takes tens of milliseconds, and every caller waits meanwhile (ten
concurrent MCP callers saw 40 ms stalls a few times a second). So a server pauses collection
while it imports and builds itself (the collections imports trigger cost start-up time), and
once it has answered its first requests it collects the start-up garbage (about 10 MB for the
language server) and freezes what survives: later collections leave those objects out, and
garbage made from then on is collected as before.
"""

from __future__ import annotations

import asyncio
import gc

SETTLE_SECONDS = 1.0


def pause_collection() -> None:
    """No collections until :func:`freeze_startup_objects` (call it before heavy imports)."""
    gc.disable()


def freeze_startup_objects() -> None:
    """Collect the garbage made so far, move every object still alive out of the collector's
    walks, and collect as usual from here on."""
    gc.collect()
    gc.freeze()
    gc.enable()


def freeze_when_settled(loop: asyncio.AbstractEventLoop, delay: float = SETTLE_SECONDS) -> None:
    """Freeze a moment after serving starts, so the first answers do not wait for it."""
    loop.call_later(delay, freeze_startup_objects)
