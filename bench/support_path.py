"""Clients on the in-process emulator for the benchmarks (no sockets, no retries)."""

from __future__ import annotations

import httpx

from adt import AdtClient, ConnectionProfile, Secret
from adt.emulator import Emulator
from adt.systems import Connections, SystemsConfig


def emulated_client(
    emulator: Emulator, transport: httpx.AsyncBaseTransport | None = None
) -> AdtClient:
    profile = ConnectionProfile(
        base_url="http://emulator",
        user="DEVELOPER",
        password=Secret("developer"),
        name="A4H",
        retry_delays=(),
    )
    return AdtClient(profile, transport=transport or httpx.ASGITransport(app=emulator.app))


def emulated_connections(client: AdtClient) -> Connections:
    """The systems a workspace reaches: the one of ``client``, always through it."""
    return Connections(SystemsConfig({"A4H": client.profile}), client_factory=lambda p: client)
