"""The V2 source operations on every source-based CDS, RAP and dictionary kind, through the
client over a real socket to the emulator seeded with the kinds fixture: range reads with a
token, grep, token-checked patches (a stale token is refused), unique replacements."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.emulated import USERS, make_client, socket_client

from adt.emulator import Emulator, samples_dir
from adt.source import SourceConfig, SourceService
from adt.source.errors import SourceError

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kinds" / "$zkinds"
ADT = "/sap/bc/adt"

#: Object URL → a word on its first lines, and the type the read reports.
SOURCES = {
    f"{ADT}/ddic/ddl/sources/zi_kinds_trip": ("view entity", "DDLS/DF"),
    f"{ADT}/ddic/ddl/sources/%2fzns%2fi_gadget": ("Gadget", "DDLS/DF"),
    f"{ADT}/ddic/ddlx/sources/zc_kinds_trip": ("annotate entity", "DDLX/EX"),
    f"{ADT}/acm/dcl/sources/zi_kinds_trip": ("define role", "DCLS/DL"),
    f"{ADT}/bo/behaviordefinitions/zi_kinds_trip": ("managed", "BDEF/BDO"),
    f"{ADT}/ddic/srvd/sources/zui_kinds_trip": ("define service", "SRVD/SRV"),
    f"{ADT}/ddic/tables/zkinds_trip": ("define table", "TABL/DT"),
    f"{ADT}/ddic/structures/zkinds_s_admin": ("define structure", "TABL/DS"),
}


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(seed_dirs=[samples_dir(), FIXTURE], users=USERS)


@pytest.fixture
async def over_socket(emulator: Emulator) -> AsyncIterator[SourceService]:
    with emulator.serve_in_thread() as base_url:
        client = socket_client(base_url)
        service = SourceService(client, system="A4H", config=SourceConfig())
        yield service
        await service.close()
        await client.close()
    assert emulator.locks() == []


@pytest.mark.parametrize("url", sorted(SOURCES))
async def test_read_grep_patch_on_each_kind(over_socket: SourceService, url: str) -> None:
    word, object_type = SOURCES[url]
    head = await over_socket.get_source_v2(url, start_line=1, end_line=3)
    assert head.object_type == object_type
    assert head.start_line == 1 and head.end_line == min(3, head.line_count)
    found = await over_socket.grep(url, pattern=word)
    assert found.matches, f"{word!r} not found in {url}"
    line = found.matches[0].line_number
    written = await over_socket.set_source_v2(
        url, token=head.token, start_line=line, end_line=line - 1, content="// kinds test"
    )
    assert written.updated and written.token != head.token
    again = await over_socket.get_source_v2(url, start_line=line, end_line=line)
    assert again.content.rstrip("\n") == "// kinds test"
    with pytest.raises(SourceError):  # the token of the first read is stale now
        await over_socket.set_source_v2(
            url, token=head.token, start_line=1, end_line=0, content="// lost"
        )


async def test_unique_replacement_in_a_behavior_definition(
    emulator: Emulator, over_socket: SourceService
) -> None:
    url = f"{ADT}/bo/behaviordefinitions/zi_kinds_trip"
    outcome = await over_socket.replace_in_source(
        url, old_string="action accept", new_string="action approve"
    )
    assert outcome.updated
    stored = emulator.source(f"{url}/source/main")
    assert stored is not None and "action approve result [1] $self;" in stored


async def test_sources_are_written_with_the_line_break_they_were_read_with(
    emulator: Emulator,
) -> None:
    """The CDS family is kept byte for byte: a behavior definition read with LF goes back
    with LF, a data definition read with CRLF with CRLF, and a text written without a
    break read before goes out with its kind's (LF for behavior definitions)."""
    bdef = f"{ADT}/bo/behaviordefinitions/zi_kinds_trip"
    ddls = f"{ADT}/ddic/ddl/sources/zi_kinds_trip"
    client = make_client(emulator)
    try:
        for url in (bdef, ddls):
            source = await client.read_source(f"{url}/source/main")
            async with client.locked(url) as lock:
                await client.write_source(
                    f"{url}/source/main",
                    source.text + "\n// added",
                    lock_handle=lock.handle,
                    line_break=source.line_break,
                )
        assert "\r" not in (emulator.source(f"{bdef}/source/main") or "")
        assert (emulator.source(f"{ddls}/source/main") or "").endswith("\r\n// added")
        async with client.locked(bdef) as lock:
            await client.write_source(f"{bdef}/source/main", "a\nb", lock_handle=lock.handle)
        assert emulator.source(f"{bdef}/source/main") == "a\nb"
    finally:
        await client.close()
    assert emulator.locks() == []
