"""The MCP bridge on the in-process emulator, with the SDK's in-memory client."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
from mcp import Client

from adt import AdtClient, ConnectionProfile
from adt.agent import WritePolicy
from adt.emulator import Emulator
from adt.source import SourceConfig
from adt.systems import Connections, SystemsConfig
from mcp_bridge.server import make_bridge
from support.emulated import USERS


def emulator_connections(emulator: Emulator, **config: Any) -> Connections:
    profile = ConnectionProfile(
        base_url="http://emulator", user="DEVELOPER", password=USERS["DEVELOPER"], name="A4H"
    )
    return Connections(
        SystemsConfig({"A4H": profile}),
        source_config=SourceConfig(retry_delays=(0.0,), **config),
        client_factory=lambda p: AdtClient(p, transport=httpx.ASGITransport(app=emulator.app)),
    )


@contextlib.asynccontextmanager
async def bridge(
    emulator: Emulator, mode: str = "auto", policy: WritePolicy | None = None, **options: Any
) -> AsyncIterator[Client]:
    limit = options.pop("max_response_chars", None)
    server = make_bridge(
        connections=emulator_connections(emulator, **options),
        policy=policy or WritePolicy(),
        passthrough=False,
        max_response_chars=limit,
    )
    async with Client(server, mode=mode) as client:
        yield client
