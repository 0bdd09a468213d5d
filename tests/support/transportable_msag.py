"""A message class in a transportable package and, once the request seeding put it on is
released, on no request (as a system's imported objects are): its next change needs a
transport request. Shared by the
faces' ``adt.setMessage``/message-change tests."""

from __future__ import annotations

import shutil
from pathlib import Path

from adt.emulator import Emulator
from support.cds_abapgit import PACKAGE as PACKAGE_XML
from support.emulated import USERS, make_client

KINDS = Path(__file__).resolve().parent.parent / "fixtures" / "kinds" / "$zkinds"
PACKAGE = "ZMSG_TR"
MSAG = "/sap/bc/adt/messageclass/zkinds_msg"
NAME = "ZKINDS_MSG"


def transportable_message_class(tmp_path: Path) -> Emulator:
    """An emulator whose only object is ZKINDS_MSG in the transportable package ZMSG_TR."""
    folder = tmp_path / PACKAGE.lower()
    folder.mkdir()
    (folder / "package.devc.xml").write_text(PACKAGE_XML, encoding="utf-8")
    shutil.copy(KINDS / "zkinds_msg.msag.xml", folder / "zkinds_msg.msag.xml")
    return Emulator(users=USERS, seed_dirs=[folder])


async def release_seeded_request(emulator: Emulator) -> None:
    """Release the request seeding put the class on (tasks first), so that the class is on
    no request and its next change needs one."""
    (seeded,) = [r.number for r in emulator.transport_requests() if recorded_on(emulator, r.number)]
    async with make_client(emulator) as adt:
        for task in (await adt.transports.details(seeded)).tasks:
            assert (await adt.transports.release(task.number)).released
        assert (await adt.transports.release(seeded)).released


def recorded_on(emulator: Emulator, request: str) -> bool:
    """Whether ``request`` records the message class (a change landed on it)."""
    found = next((r for r in emulator.transport_requests() if r.number == request), None)
    objects = {(o.pgmid, o.type, o.name) for o in found.objects} if found else set()
    return ("R3TR", "MSAG", NAME) in objects


__all__ = [
    "MSAG",
    "NAME",
    "PACKAGE",
    "recorded_on",
    "release_seeded_request",
    "transportable_message_class",
]
