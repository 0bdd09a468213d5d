"""``client.dictionary`` against the emulator over a real socket: compact models of the
metadata kinds, token-checked whole-document writes (a stale token sends nothing), one
message of a message class, publishing a service binding; no lock is left behind."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.emulated import USERS, socket_client

from adt import AdtClient
from adt.emulator import Emulator
from adt.errors import StaleDocumentError

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kinds" / "$zkinds"
ADT = "/sap/bc/adt"


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(seed_dirs=[FIXTURE], users=USERS)


@pytest.fixture
async def client(emulator: Emulator) -> AsyncIterator[AdtClient]:
    with emulator.serve_in_thread() as base_url:
        adt = socket_client(base_url)
        yield adt
        await adt.close()
    assert emulator.locks() == []


async def test_compact_models_of_each_metadata_kind(client: AdtClient) -> None:
    dtel = await client.dictionary.read(f"{ADT}/ddic/dataelements/zkinds_trip_id")
    assert dtel.to_dict() | {"token": ""} == {
        "objectUrl": f"{ADT}/ddic/dataelements/zkinds_trip_id",
        "objectType": "DTEL/DE",
        "name": "ZKINDS_TRIP_ID",
        "description": "Trip number",
        "version": "active",
        "package": "$ZKINDS",
        "token": "",
        "typeKind": "domain",
        "typeName": "ZKINDS_TRIP_ID",
        "dataType": "NUMC",
        "length": 8,
        "decimals": 0,
        "labels": {
            "short": {"text": "Trip", "length": 7},
            "medium": {"text": "Trip No", "length": 7},
            "long": {"text": "Trip No", "length": 7},
            "heading": {"text": "Trip No", "length": 7},
        },
        "searchHelp": "",
    }
    doma = await client.dictionary.read(f"{ADT}/ddic/domains/zkinds_status")
    assert doma.fields["fixedValues"] == [
        {"low": "O", "high": "", "text": "Open"},
        {"low": "A", "high": "", "text": "Accepted"},
    ]
    msag = await client.dictionary.read(f"{ADT}/messageclass/zkinds_msg")
    assert [m["number"] for m in msag.fields["messages"]] == ["001", "002"]
    srvb = await client.dictionary.read(f"{ADT}/businessservices/bindings/zui_kinds_trip_o4")
    assert srvb.fields["services"] == [
        {"name": "ZUI_KINDS_TRIP", "version": "0001", "serviceDefinition": "ZUI_KINDS_TRIP"}
    ]
    ttyp = await client.dictionary.read(f"{ADT}/ddic/tabletypes/zkinds_tt_trip")
    assert ttyp.fields["rowType"] == "ZKINDS_TRIP"
    with pytest.raises(ValueError, match="not a metadata object"):
        await client.dictionary.read(f"{ADT}/ddic/ddl/sources/zi_kinds_trip")


async def test_one_message_is_added_and_changed_under_the_token(
    client: AdtClient, emulator: Emulator
) -> None:
    before = await client.dictionary.read(f"{ADT}/messageclass/zkinds_msg")
    added = await client.dictionary.set_message(
        "ZKINDS_MSG", "3", "Trip &1 accepted.", token=before.token
    )
    assert [m["number"] for m in added.fields["messages"]] == ["001", "002", "003"]
    assert added.version == "inactive" and added.token != before.token
    with pytest.raises(StaleDocumentError):  # the first token is stale now: nothing is sent
        await client.dictionary.set_message("ZKINDS_MSG", "1", "lost", token=before.token)
    changed = await client.dictionary.set_message(
        "ZKINDS_MSG", "001", "Trip &1 unknown.", token=added.token
    )
    texts = {m["number"]: m["text"] for m in changed.fields["messages"]}
    assert texts["001"] == "Trip &1 unknown." and texts["003"] == "Trip &1 accepted."


async def test_a_change_by_someone_else_is_not_overwritten(
    client: AdtClient, emulator: Emulator
) -> None:
    url = f"{ADT}/ddic/domains/zkinds_status"
    mine = await client.dictionary.read(url)
    theirs = await client.dictionary.write(
        url, mine.raw.replace(b"Accepted", b"Approved"), token=mine.token
    )
    assert theirs.fields["fixedValues"][1]["text"] == "Approved"
    with pytest.raises(StaleDocumentError):
        await client.dictionary.write(url, mine.raw, token=mine.token)
    assert (await client.dictionary.read(url)).fields["fixedValues"][1]["text"] == "Approved"


async def test_publish_and_unpublish_a_binding(client: AdtClient) -> None:
    url = f"{ADT}/businessservices/bindings/zui_kinds_trip_o4"
    assert (await client.dictionary.read(url)).fields["published"] is False
    ok, message = await client.dictionary.publish("ZUI_KINDS_TRIP_O4")
    assert ok, message
    assert (await client.dictionary.read(url)).fields["published"] is True
    ok, _ = await client.dictionary.publish("ZUI_KINDS_TRIP_O4", publish=False)
    assert ok and (await client.dictionary.read(url)).fields["published"] is False
