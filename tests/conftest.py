"""Shared fixtures.

Emulator fixtures: ``emulator`` (built-in samples, users DEVELOPER and COLLEAGUE),
``make_service``/``service`` (source services on in-process clients; no lock may be left),
``adt_client`` (in-process httpx client, logged on as DEVELOPER), ``emulator_url`` (the same
emulator on a real socket) and ``adt_captures`` (the captured traffic, skipped when absent).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest
from hypothesis import HealthCheck, settings
from support.captures import CAPTURES
from support.emulated import USERS, ServiceFactory, make_client, no_sleep
from support.scratch import ROOT, scratch

from adt.emulator import Emulator
from adt.source import SourceConfig, SourceService

DEFAULT_AUTH = ("DEVELOPER", "developer")

# Properties assert results, not speed (speed goals live in bench/): on two busy cores a
# slow example must not fail a run by hypothesis's 200 ms deadline or its too_slow check.
settings.register_profile("ci", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ci")

# Every server a test starts announces itself here, not in the user's runtime directory.
os.environ["ABAP_ADT_RUNTIME_DIR"] = scratch("runtime")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    shutil.rmtree(ROOT, ignore_errors=True)


@pytest.fixture
def emulator() -> Emulator:
    """A fresh emulator with the built-in sample set; DEVELOPER and COLLEAGUE may log on."""
    return Emulator(users=USERS)


@pytest.fixture
async def adt_client(emulator: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    """An in-process client for ``emulator`` with DEVELOPER's basic auth."""
    transport = httpx.ASGITransport(app=emulator.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://emulator", auth=DEFAULT_AUTH
    ) as client:
        yield client


@pytest.fixture
def emulator_url(emulator: Emulator) -> Iterator[str]:
    """``emulator`` served on 127.0.0.1 from a background thread."""
    with emulator.serve_in_thread() as base_url:
        yield base_url


@pytest.fixture
def adt_captures() -> Path:
    """The captured ADT traffic (``../shared/adt-captures``); skips when absent."""
    if not CAPTURES.is_dir():
        pytest.skip(f"captures not available at {CAPTURES.resolve()}")
    return CAPTURES.resolve()


@pytest.fixture
async def make_service(emulator: Emulator) -> AsyncIterator[ServiceFactory]:
    """Build services on their own clients; checks that no lock is left behind."""
    made: list[SourceService] = []

    def factory(user: str = "DEVELOPER", **config: object) -> SourceService:
        service = SourceService(
            make_client(emulator, user),
            system="A4H",
            config=SourceConfig(retry_delays=(0.0, 0.0, 0.0), **config),  # type: ignore[arg-type]
            sleep=no_sleep,
        )
        made.append(service)
        return service

    yield factory
    leaked = [lock for lock in emulator.locks() if lock.user == "DEVELOPER"]
    for service in made:
        await service.close()
        await service.client.close()
    assert leaked == [], f"locks left behind by the operations: {leaked}"
    assert emulator.locks() == [], "every lock is gone once the clients are closed"


@pytest.fixture
def service(make_service: ServiceFactory) -> SourceService:
    return make_service()
