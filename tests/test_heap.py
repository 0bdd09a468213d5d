"""Freezing the start-up objects keeps full collections short, turns collection back on, and
still collects what becomes garbage later."""

from __future__ import annotations

import asyncio
import gc
import weakref

from adt.heap import freeze_when_settled, pause_collection


class _Node:
    other: _Node | None = None


def _cycle() -> weakref.ref[_Node]:
    node = _Node()
    node.other = node  # a cycle: only the collector frees it
    return weakref.ref(node)


async def _serve_a_moment() -> None:
    freeze_when_settled(asyncio.get_running_loop(), delay=0.01)
    assert not gc.isenabled(), "the first answers do not wait for a collection"
    await asyncio.sleep(0.1)


def test_start_up_garbage_is_collected_then_the_rest_frozen() -> None:
    try:
        pause_collection()
        from_start_up = _cycle()
        asyncio.run(_serve_a_moment())
        assert gc.isenabled(), "collection is back on once the server has settled"
        assert from_start_up() is None, "garbage made while paused is collected, not frozen"
        assert gc.get_freeze_count() > 1000, "the modules and classes alive now are frozen"
        later = _cycle()
        gc.collect()
        assert later() is None, "garbage made later is collected as before"
    finally:
        gc.enable()
        gc.unfreeze()
