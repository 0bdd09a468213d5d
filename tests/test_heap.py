"""Freezing the start-up objects keeps full collections short, turns collection back on, and
still collects what becomes garbage later; while paused, only full collections wait."""

from __future__ import annotations

import asyncio
import gc
import linecache
import weakref

from adt.heap import freeze_when_settled, full_collections_paused, pause_collection


class _Node:
    other: _Node | None = None


def _cycle() -> weakref.ref[_Node]:
    node = _Node()
    node.other = node  # a cycle: only the collector frees it
    return weakref.ref(node)


async def _serve_a_moment() -> None:
    freeze_when_settled(asyncio.get_running_loop(), delay=0.01)
    assert full_collections_paused(), "the first answers do not wait for a full collection"
    await asyncio.sleep(0.1)


def test_start_up_garbage_is_collected_then_the_rest_frozen() -> None:
    try:
        pause_collection()
        from_start_up = _cycle()
        generated = "<attrs generated methods bench.Example>"
        linecache.cache[generated] = (10, None, ["def f(): pass\n"], generated)
        asyncio.run(_serve_a_moment())
        assert generated not in linecache.cache, "generated sources are not kept for good"
        assert gc.isenabled(), "collection is back on once the server has settled"
        assert not full_collections_paused(), "full collections too"
        assert from_start_up() is None, "garbage made while paused is collected, not frozen"
        assert gc.get_freeze_count() > 1000, "the modules and classes alive now are frozen"
        later = _cycle()
        gc.collect()
        assert later() is None, "garbage made later is collected as before"
    finally:
        gc.enable()
        gc.unfreeze()


def test_young_garbage_is_collected_while_paused_but_no_full_collection_runs() -> None:
    """Creating classes at import leaves cycles behind; kept until the freeze, their memory
    stayed with the process (9 MB of the language server's start-up)."""
    thresholds = gc.get_threshold()
    generations: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    gc.collect()
    gc.callbacks.append(seen)
    try:
        pause_collection()
        cycles = [_cycle() for _ in range(20 * thresholds[0])]
        assert generations, "young collections still run while paused"
        assert 2 not in generations, "no full collection while paused"
        assert sum(ref() is None for ref in cycles) > len(cycles) // 2, (
            "most of the cycles made while paused are freed before the freeze"
        )
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*thresholds)
        gc.enable()
