"""Clients on the in-process emulator for the benchmarks (no sockets, no retries)."""

from __future__ import annotations

import httpx

from adt import AdtClient, ConnectionProfile
from adt.emulator import Emulator


def emulated_client(
    emulator: Emulator, transport: httpx.AsyncBaseTransport | None = None
) -> AdtClient:
    profile = ConnectionProfile(
        base_url="http://emulator",
        user="DEVELOPER",
        password="developer",  # type: ignore[arg-type]
        name="A4H",
        retry_delays=(),
    )
    return AdtClient(profile, transport=transport or httpx.ASGITransport(app=emulator.app))
