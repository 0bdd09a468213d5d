"""Fixtures for the source operations: an in-process emulator and services on it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from support.emulated import ServiceFactory, make_client, no_sleep

from adt.emulator import Emulator
from adt.source import SourceConfig, SourceService


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
