"""The garbage collector in our long-running servers.

A full collection walks every tracked object. Once a server is built most of them are the
modules, classes and schema models of the MCP SDK, pygls and lsprotocol, alive as long as the
process; walking them takes tens of milliseconds, and every caller waits meanwhile (ten
concurrent MCP callers saw 40 ms stalls a few times a second). So a server pauses full
collections while it imports and builds itself (the full collections imports trigger cost
start-up time), and once it has answered its first requests it collects the start-up garbage
and freezes what survives: later collections leave those objects out, and garbage made from
then on is collected as before.

Only full collections pause: the young ones walk a few thousand fresh objects each and free
the cycles that creating classes leaves behind (attrs and cattrs make many). With every
collection off that garbage piled up until the freeze, and the memory it took stayed with
the process: 9 MB of the language server's 55 MB right after start-up.

Memory Python frees goes back to the C allocator, which keeps it: a server that read and
opened fifty documents held about a megabyte of freed pages between the texts it keeps.
:func:`release_free_memory` hands free pages back to the system (glibc's ``malloc_trim``);
the language server calls it once a burst of opened or closed documents has settled.

The freeze also empties :mod:`linecache`: attrs puts the source of every method it generates
there (for debuggers), 1.7 MB for lsprotocol's classes, and keeps it for good. A traceback
through such a method then shows no source line; files on disk are read again when needed.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import linecache
import sys
from collections.abc import Callable

SETTLE_SECONDS = 1.0
_NEVER = 1 << 30  # young collections before a full one: none until the freeze
_thresholds: tuple[int, int, int] | None = None  # the collector's own while paused


def pause_collection() -> None:
    """No full collections until :func:`freeze_startup_objects` (call it before heavy
    imports); young ones go on."""
    global _thresholds
    if _thresholds is None:
        _thresholds = gc.get_threshold()
    gc.set_threshold(_thresholds[0], _thresholds[1], _NEVER)
    gc.enable()


def full_collections_paused() -> bool:
    """Whether :func:`pause_collection` holds full collections back."""
    return gc.get_threshold()[2] == _NEVER


def freeze_startup_objects() -> None:
    """Drop the generated sources in :mod:`linecache`, collect the garbage made so far, move
    every object still alive out of the collector's walks, and collect as usual from here
    on."""
    global _thresholds
    linecache.clearcache()
    gc.collect()
    gc.freeze()
    if _thresholds is not None:
        gc.set_threshold(*_thresholds)
        _thresholds = None
    gc.enable()


def refreeze(everything: bool = False) -> None:
    """Collect the garbage and freeze what survives, so later walks leave it out. The
    frozen objects are looked at only with ``everything`` (once something they hold may
    have died: a closed document's cycles): a full walk, once, where nobody waits."""
    if everything:
        gc.unfreeze()
    gc.collect()
    gc.freeze()


def freeze_when_settled(loop: asyncio.AbstractEventLoop, delay: float = SETTLE_SECONDS) -> None:
    """Freeze a moment after serving starts, so the first answers do not wait for it."""
    loop.call_later(delay, freeze_startup_objects)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or ``None`` (another C library or system)."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # with the first release, not at start-up

    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # musl and others have no malloc_trim
        return None
    return trim


def release_free_memory() -> bool:
    """Give the pages the C allocator holds free back to the system; ``False`` where that is
    not possible. Costs about a millisecond: call it when a burst of work has settled."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
