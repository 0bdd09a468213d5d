"""Memory of open documents: a document opened from a read keeps its text as the cache's one
string, and the pages freed by a burst of opens and closes go back to the system once."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest
from support.fake_editor import GREETER_URI, REPORT_URI, workspace_on

from adt.emulator import Emulator
from adt.text import TextLines
from lsp_server.features import memory
from lsp_server.uris import parse_uri


async def test_an_opened_read_shares_the_cached_text(emulator: Emulator) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        buffer = workspace.documents.require(REPORT_URI).buffer
        assert isinstance(buffer.lines, TextLines), "one string, not a string per line"
        service = workspace.ctx.service_for(parse_uri(REPORT_URI))
        read = await service.get_source_v2("/sap/bc/adt/programs/programs/zdemo_report")
        assert buffer.text is read.content, "the cache's text itself, not a copy"


async def test_a_burst_of_opens_and_closes_releases_free_memory_once(
    emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memory, "SETTLE_SECONDS", 0.05)
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        await editor.open(GREETER_URI)
        workspace.did_close(REPORT_URI)
        feature = workspace.memory
        assert feature.released is not None
        await asyncio.wait_for(feature.released.wait(), 10)
        assert feature.releases == 1, "one release for the whole burst"


class _Cycle:
    """An object in a reference cycle: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


async def test_a_settled_burst_freezes_what_lives_on_and_frees_what_died_since(
    emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(memory, "SETTLE_SECONDS", 0.05)
    async with workspace_on(emulator) as (workspace, editor):
        feature = workspace.memory
        cycle = _Cycle()
        dead = weakref.ref(cycle)
        await editor.open(REPORT_URI)
        assert feature.released is not None
        await asyncio.wait_for(feature.released.wait(), 10)
        assert gc.get_freeze_count() > 0, "what lives on leaves the collector's walks"
        del cycle  # garbage now, but frozen: no collection frees it
        gc.collect()
        assert dead() is not None
        workspace.did_close(REPORT_URI)  # the next burst collects the frozen ones too
        await asyncio.wait_for(feature.released.wait(), 10)
        assert feature.releases == 2
        assert dead() is None
