"""Every source-based object of the RAP reference scenario (DDLS, DDLX, DCLS, BDEF, SRVD,
TABL) survives an edit and its undo through the client byte for byte: a line is inserted
and deleted again with the V2 operations editors and agents use, and the bytes the system
serves afterwards are the seeded file's (line ends, trailing blanks, final newline). The
checkouts come from ``ADT_FLIGHT_SCENARIO`` (see ``support.flight``); skipped when absent."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from support.emulated import USERS, make_client
from support.flight import SOURCE_FILES, checkouts, object_name

from adt.emulator import Emulator
from adt.source import SourceConfig, SourceService

SOURCE_KINDS = {"DDLS", "DDLX", "DCLS", "BDEF", "SRVD", "TABL"}
SCENARIOS = [path for path in checkouts() if path.is_dir()]
pytestmark = pytest.mark.skipif(not SCENARIOS, reason="no flight scenario checkout")
MARK = "// round trip"


def _files(root: Path) -> dict[tuple[str, str], bytes]:
    """(Type, name) → the bytes of a CDS-family source file as abapGit stored it."""
    found: dict[tuple[str, str], bytes] = {}
    for kind, suffix in SOURCE_FILES.items():
        for path in root.rglob(f"*{suffix}"):
            raw = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
            found[kind, object_name(path)] = raw
    return found


async def _served(raw: httpx.AsyncClient, source_url: str) -> bytes:
    response = await raw.get(source_url)
    assert response.status_code == 200, (source_url, response.text[:200])
    return response.content


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[p.name for p in SCENARIOS])
async def test_an_edit_and_its_undo_leave_every_source_byte_identical(scenario: Path) -> None:
    emulator = Emulator(seed_dirs=[scenario], users=USERS)
    objects = [o for o in emulator.state.objects.values() if o.kind.r3tr in SOURCE_KINDS]
    files = _files(scenario)
    kinds = {o.kind.r3tr for o in objects}
    assert {"DDLS", "BDEF", "SRVD", "TABL"} <= kinds, kinds
    client = make_client(emulator)
    service = SourceService(client, system="A4H", config=SourceConfig())
    raw = httpx.AsyncClient(
        transport=httpx.ASGITransport(app=emulator.app),
        base_url="http://emulator",
        auth=("DEVELOPER", USERS["DEVELOPER"]),
    )
    try:
        for obj in sorted(objects, key=lambda o: o.uri):
            source_url = obj.source_uri()
            before = await _served(raw, source_url)
            if obj.kind.r3tr != "TABL":
                assert before == files[obj.kind.r3tr, obj.name], obj.name
            head = await service.get_source_v2(obj.uri, start_line=1, end_line=1)
            inserted = await service.set_source_v2(
                obj.uri, token=head.token, start_line=1, end_line=0, content=MARK
            )
            assert b"\n" in before, obj.name
            break_ = b"\r\n" if b"\r\n" in before else b"\n"
            assert await _served(raw, source_url) == MARK.encode() + break_ + before, obj.name
            await service.set_source_v2(
                obj.uri, token=inserted.token, start_line=1, end_line=1, delete=True
            )
            assert await _served(raw, source_url) == before, obj.name
    finally:
        await raw.aclose()
        await service.close()
        await client.close()
    assert emulator.locks() == []
