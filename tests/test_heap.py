"""Freezing the start-up objects keeps full collections short, turns collection back on, and
still collects what becomes garbage later."""

from __future__ import annotations

import gc
import weakref

from adt.heap import freeze_startup_objects, pause_collection


class _Node:
    other: _Node | None = None


def test_later_cyclic_garbage_is_still_collected() -> None:
    try:
        pause_collection()
        assert not gc.isenabled()
        freeze_startup_objects()
        assert gc.isenabled(), "collection is back on once the server is built"
        assert gc.get_freeze_count() > 1000, "the modules and classes alive now are frozen"
        node = _Node()
        node.other = node  # a cycle: only the collector frees it
        gone = weakref.ref(node)
        del node
        gc.collect()
        assert gone() is None
    finally:
        gc.enable()
        gc.unfreeze()
