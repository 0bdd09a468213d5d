"""The metadata kinds (data element, domain, message class, service binding, table type)
through the V2 source operations: their "source" is the object's ADT document, read
indented one element a line without the stamps the system sets, patched line by line
against a token, written back with the kind's media type; the outline lists its facts."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.emulated import USERS, make_client

from adt.areas.document_text import WIDTH, outline
from adt.emulator import Emulator
from adt.source import SourceConfig, SourceService
from adt.source.errors import VersionConflict
from adt.urls import source_ref

_ELEMENT_OR_ATTRIBUTE = re.compile(r'^ *(<|[\w:]+="[^"]*"/?>?)')
FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kinds" / "$zkinds"
ADT = "/sap/bc/adt"
DTEL = f"{ADT}/ddic/dataelements/zkinds_trip_id"
METADATA = {
    DTEL: "DTEL/DE",
    f"{ADT}/ddic/domains/zkinds_status": "DOMA/DD",
    f"{ADT}/messageclass/zkinds_msg": "MSAG/N",
    f"{ADT}/businessservices/bindings/zui_kinds_trip_o4": "SRVB/SVB",
    f"{ADT}/ddic/tabletypes/zkinds_tt_trip": "TTYP/DA",
}


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(seed_dirs=[FIXTURE], users=USERS)


@pytest.fixture
async def service(emulator: Emulator) -> AsyncIterator[SourceService]:
    client = make_client(emulator)
    made = SourceService(client, system="A4H", config=SourceConfig(retry_delays=(0.0,)))
    yield made
    await made.close()
    await client.close()
    assert emulator.locks() == []


def test_the_document_is_the_source_of_a_metadata_object() -> None:
    for url in (DTEL, f"{DTEL}/source/main"):
        ref = source_ref(url)
        assert (ref.object_url, ref.source_url) == (DTEL, DTEL)
    table = source_ref(f"{ADT}/ddic/tables/zkinds_trip")
    assert table.source_url == f"{ADT}/ddic/tables/zkinds_trip/source/main"


@pytest.mark.parametrize("url", sorted(METADATA))
async def test_read_indented_without_stamps(service: SourceService, url: str) -> None:
    read = await service.get_source_v2(url)
    assert read.object_type == METADATA[url] and read.source_url == url
    lines = read.content.split("\n")
    assert lines[0] == '<?xml version="1.0" encoding="utf-8"?>' and read.line_count > 5
    # one element a line; a long start tag one attribute a line: nothing near ABAP's 255
    assert all(_ELEMENT_OR_ATTRIBUTE.match(line) for line in lines if line.strip()), lines
    assert max(len(line) for line in lines) <= WIDTH + 60
    assert "adtcore:changedAt" not in read.content and "adtcore:version=" not in read.content
    symbols = outline(read.content)
    assert [s.name for s in symbols] == [url.rsplit("/", 1)[-1].upper()] and symbols[0].children


async def test_a_line_patch_changes_one_field_token_checked(
    emulator: Emulator, service: SourceService
) -> None:
    found = await service.grep(DTEL, pattern="mediumFieldLabel>")
    line = found.matches[0].line_number
    read = await service.get_source_v2(DTEL, start_line=line, end_line=line)
    label = read.content.rstrip("\n")
    written = await service.set_source_v2(
        DTEL,
        token=read.token,
        start_line=line,
        end_line=line,
        content=label.replace(label.split(">")[1].split("<")[0], "Trip number"),
    )
    assert written.updated
    async with make_client(emulator) as adt:
        document = await adt.dictionary.read(DTEL)
        assert document.fields["labels"]["medium"]["text"] == "Trip number"
        theirs = document.raw.replace(b"Trip number", b"Their label")
        await adt.dictionary.write(DTEL, theirs, token=document.token)
    with pytest.raises(VersionConflict):  # their change touches the same line
        await service.set_source_v2(
            DTEL, token=written.token, start_line=line, end_line=line, content=label
        )
    again = await service.get_source_v2(DTEL, start_line=line, end_line=line)
    assert "Their label" in again.content


async def test_activation_does_not_change_the_text(
    emulator: Emulator, service: SourceService
) -> None:
    """The stamps are left out: after a write and an activation the text is what was written
    (an editor does not see its own save as somebody else's change)."""
    read = await service.get_source_v2(f"{ADT}/messageclass/zkinds_msg")
    await service.set_source_v2(
        read.object_url,
        token=read.token,
        start_line=1,
        end_line=1,
        content=read.content.split("\n")[0],
    )
    assert (await service.activate(read.object_url)).success
    again = await service.get_source_v2(read.object_url, fresh=True)
    assert again.content == read.content


def test_the_outline_of_a_message_class_names_each_message() -> None:
    text = (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        '<mc:messageClass xmlns:mc="http://www.sap.com/adt/MessageClass" '
        'xmlns:adtcore="http://www.sap.com/adt/core" '
        'adtcore:name="ZM" adtcore:description="Mine">\n'
        '  <mc:messages mc:msgno="001" mc:msgtext="First"/>\n'
        '  <mc:messages mc:msgno="002" mc:msgtext="Second"/>\n'
        "</mc:messageClass>\n"
    )
    (top,) = outline(text)
    assert (top.name, top.detail, top.start, top.end) == ("ZM", "Mine", (2, 0), (5, 18))
    assert [(c.name, c.detail, c.start[0]) for c in top.children] == [
        ("messages 001", "First", 3),
        ("messages 002", "Second", 4),
    ]
    assert outline(text.replace("</mc:messageClass>", "")) == []  # mid-edit: none
