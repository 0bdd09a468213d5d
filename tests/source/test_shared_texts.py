"""Replicas sharing token texts through Redis: a write made against a token that another
process handed out is rebased there too; with the store down it is refused as before (never
a crash, never a blind write). Starts its own redis-server on a Unix socket; skipped when
redis-server or the redis package is missing."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.emulated import REPORT, make_client, no_sleep

from adt.emulator import Emulator
from adt.source import SourceConfig, SourceService
from adt.source.errors import VersionConflict

pytest.importorskip("redis")
REPORT_SOURCE = f"{REPORT}/source/main"


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.skip("redis-server is not installed")
    socket = tmp_path / "redis.sock"
    server = subprocess.Popen(
        [binary, "--port", "0", "--unixsocket", str(socket), "--save", "", "--appendonly", "no"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        for line in server.stdout:  # the server says when it listens
            if "ready to accept connections" in line.lower():
                break
        else:
            pytest.fail("redis-server ended before it was ready")
        yield f"unix://{socket}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def _replica(emulator: Emulator, store: str) -> SourceService:
    """One bridge process: its own client, cache and metadata; the store is all they share."""
    config = SourceConfig(retry_delays=(0.0,), shared_store=store)
    return SourceService(make_client(emulator), system="A4H", config=config, sleep=no_sleep)


async def _close(*services: SourceService) -> None:
    for service in services:
        await service.close()
        await service.client.close()


def _draft_then_colleague(emulator: Emulator) -> None:
    """A draft nobody activated (so ADT's versions list cannot serve its text)."""
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, (emulator.source(REPORT_SOURCE) or "") + "\n*")


async def test_a_token_from_another_replica_is_rebased_through_the_store(
    emulator: Emulator, redis_url: str
) -> None:
    _draft_then_colleague(emulator)
    one, two = _replica(emulator, redis_url), _replica(emulator, redis_url)
    try:
        read = await one.get_source_v2(REPORT)
        theirs = read.content + "\n* colleague"
        emulator.write_as("COLLEAGUE", REPORT_SOURCE, theirs)
        written = await two.set_source_v2(
            REPORT, token=read.token, start_line=1, end_line=1, content="* agent", rebase=True
        )
        assert written.rebased_over is not None and written.rebased_over["fromToken"] == read.token
        lines = theirs.split("\n")
        assert emulator.source(REPORT_SOURCE) == "\n".join(["* agent", *lines[1:]])
    finally:
        await _close(one, two)
    assert emulator.locks() == []


async def test_with_the_store_down_the_write_is_refused_as_before(
    emulator: Emulator, redis_url: str, tmp_path: Path
) -> None:
    _draft_then_colleague(emulator)
    one, two = _replica(emulator, redis_url), _replica(emulator, f"unix://{tmp_path}/none.sock")
    try:
        read = await one.get_source_v2(REPORT)
        theirs = read.content + "\n* colleague"
        emulator.write_as("COLLEAGUE", REPORT_SOURCE, theirs)
        with pytest.raises(VersionConflict) as caught:
            await two.set_source_v2(
                REPORT, token=read.token, start_line=1, end_line=1, content="* a", rebase=True
            )
        assert caught.value.details["baseUnknown"] is True
        assert emulator.source(REPORT_SOURCE) == theirs
    finally:
        await _close(one, two)
    assert emulator.locks() == []
