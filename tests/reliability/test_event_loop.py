"""A catastrophic search never stalls anybody else: the regex engine runs in worker threads
(without the GIL), at most a few at once, while the event loop goes on serving."""

from __future__ import annotations

import asyncio
import time

from support.emulated import LARGE, make_client

from adt.emulator import Emulator
from adt.source import SourceConfig, SourceService
from adt.source.errors import PatternInvalid

SLOW = r"(.*){1,32000}[bc]"  # backtracks on every line until the time budget is spent


async def test_eight_slow_searches_do_not_delay_a_cached_read(emulator: Emulator) -> None:
    service = SourceService(
        make_client(emulator), system="A4H", config=SourceConfig(grep_timeout_s=1.0)
    )
    await service.get_source_v2(LARGE)  # cached: reads now cost no request
    searches = [
        asyncio.create_task(service.grep(LARGE, pattern=SLOW, max_matches=1)) for _ in range(8)
    ]
    await asyncio.sleep(0.05)  # the searches are running
    delays = []
    for _ in range(20):
        started = time.perf_counter()
        read = await service.get_source_v2(LARGE, start_line=1, end_line=5)
        delays.append(time.perf_counter() - started)
        assert read.cached
        await asyncio.sleep(0.01)
    assert not all(task.done() for task in searches), "the reads ran while searches did"
    results = await asyncio.gather(*searches, return_exceptions=True)
    assert all(isinstance(r, PatternInvalid) for r in results), results
    assert max(delays) < 0.25, f"a cached read waited {max(delays):.3f}s behind the searches"
    await service.close()
    await service.client.close()
