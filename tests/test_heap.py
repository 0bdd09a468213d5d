"""Freezing the start-up objects keeps full collections short, turns collection back on, and
still collects what becomes garbage later; while paused, only full collections wait."""

from __future__ import annotations

import asyncio
import gc
import linecache
import platform
import weakref

import pytest

from adt.heap import (
    freeze_when_settled,
    full_collections_paused,
    pause_collection,
    release_free_memory,
)


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


def _rss() -> int:
    with open("/proc/self/status") as status:
        return int(status.read().split("VmRSS:")[1].split()[0]) * 1024


@pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc", reason="glibc only"
)
def test_free_pages_go_back_to_the_system() -> None:
    """Blocks freed between blocks still in use stay with the process until released."""
    kept, freed = [], []
    for index in range(400):  # below malloc's mmap threshold: inside its heap
        (kept if index % 20 == 0 else freed).append(bytes([index % 256]) * 64 * 1024)
    del freed[:]
    before = _rss()
    assert release_free_memory()
    assert _rss() < before - 8 * 1024 * 1024, "most of the 24 MB freed went back"
    assert len(kept) == 20
