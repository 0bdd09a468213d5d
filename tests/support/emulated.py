"""Clients and services on an in-process emulator, for integration tests."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from adt import AdtClient, ConnectionProfile
from adt.emulator import Emulator
from adt.source import SourceService

USERS = {"DEVELOPER": "developer", "COLLEAGUE": "colleague"}
GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
LARGE = "/sap/bc/adt/oo/classes/zcl_demo_large"
REPORT = "/sap/bc/adt/programs/programs/zdemo_report"


async def no_sleep(seconds: float) -> None:
    return None


def make_client(emulator: Emulator, user: str = "DEVELOPER") -> AdtClient:
    profile = ConnectionProfile(
        base_url="http://emulator", user=user, password=USERS[user], name="A4H"
    )
    return AdtClient(profile, transport=httpx.ASGITransport(app=emulator.app), sleep=no_sleep)


ServiceFactory = Callable[..., SourceService]


def socket_client(base_url: str, user: str = "DEVELOPER") -> AdtClient:
    """A client talking to an emulator over a real socket."""
    profile = ConnectionProfile(base_url=base_url, user=user, password=USERS[user], name="A4H")
    return AdtClient(profile, sleep=no_sleep)
