"""The metadata documents of message classes, service bindings and table types have the
shape real systems send and public clients read (docs/protocol/cds-rap-dictionary.md):
a message class as ARC-1's probe of an S/4HANA 2023 system recorded it, a service binding
as ARC-1's fixture of the flight scenario's own binding, a table type in the element
structure the public clients write back; the client reads them into its compact fields."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from lxml import etree
from support.emulated import USERS, make_client

from adt import AdtClient
from adt.emulator import Emulator

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kinds" / "$zkinds"
ADT = "/sap/bc/adt"
CORE = "{http://www.sap.com/adt/core}"
ATOM = "{http://www.w3.org/2005/Atom}"
MC = "{http://www.sap.com/adt/MessageClass}"
SRVB = "{http://www.sap.com/adt/ddic/ServiceBindings}"
TTYP = "{http://www.sap.com/dictionary/tabletype}"


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(seed_dirs=[FIXTURE], users=USERS)


@pytest.fixture
async def client(emulator: Emulator) -> AsyncIterator[AdtClient]:
    async with make_client(emulator) as adt:
        yield adt
    assert emulator.locks() == []


async def _get(emulator: Emulator, url: str) -> tuple[bytes, etree._Element]:
    transport = httpx.ASGITransport(app=emulator.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://emulator", auth=("DEVELOPER", USERS["DEVELOPER"])
    ) as raw:
        response = await raw.get(url)
    assert response.status_code == 200, response.text[:300]
    return response.content, etree.fromstring(response.content)


def _names(element: etree._Element) -> list[str]:
    return [etree.QName(key).localname for key in element.attrib]


def _children(element: etree._Element) -> list[str]:
    return [etree.QName(child).localname for child in element]


async def test_a_message_class_is_served_as_real_systems_serve_it(emulator: Emulator) -> None:
    url = f"{ADT}/messageclass/zkinds_msg"
    body, root = await _get(emulator, url)
    assert _names(root) == [
        *("responsible", "masterLanguage", "masterSystem", "name", "type", "changedAt"),
        *("version", "changedBy", "createdBy", "description", "language"),
    ]
    assert _children(root)[0] == "packageRef" and set(_children(root)[1:]) == {"messages"}
    assert _names(root[0]) == ["uri", "type", "name"]
    assert body.count(b"xmlns:mc=") == 1, "the prefix is declared once, on the root"
    for message in root.iterfind(f"{MC}messages"):
        assert _names(message) == [
            *("msgno", "msgtext", "selfexplainatory", "documented", "lastchangedby"),
            *("lastmodified", "name"),
        ]
        number = message.get(f"{MC}msgno")
        links = [(link.get("rel") or "").rsplit("/relations/", 1)[-1] for link in message]
        assert links == ["longtext", "messageclasses/messages"]
        assert message[1].get("href") == f"{url}/messages/{number}"


async def test_a_service_binding_is_served_as_real_systems_serve_it(emulator: Emulator) -> None:
    _, root = await _get(emulator, f"{ADT}/businessservices/bindings/zui_kinds_trip_o4")
    assert _names(root) == [
        *("releaseSupported", "published", "bindingCreated", "responsible"),
        *("masterLanguage", "masterSystem", "abapLanguageVersion", "name", "type"),
        *("changedAt", "version", "createdAt", "changedBy", "createdBy", "description"),
        "language",
    ]
    assert _children(root) == ["packageRef", "services", "binding"]
    content = root.find(f"{SRVB}services/{SRVB}content")
    assert content is not None and _names(content) == [
        *("version", "minorVersion", "patchVersion", "buildVersion", "releaseState"),
    ]
    assert _children(content) == ["serviceDefinition", "bindingTypeData"]
    encoding = content.find(f"{SRVB}bindingTypeData/{CORE}content")
    assert encoding is not None and encoding.get(f"{CORE}encoding") == "base64"
    implementation = root.find(f"{SRVB}binding/{SRVB}implementation")
    assert implementation is not None
    assert implementation.get(f"{CORE}name") == "ZUI_KINDS_TRIP_O4"


async def test_a_table_type_has_the_element_structure_clients_write_back(
    emulator: Emulator, client: AdtClient
) -> None:
    url = f"{ADT}/ddic/tabletypes/zkinds_tt_trip"
    _, root = await _get(emulator, url)
    assert _children(root)[-6:] == [
        *("rowType", "initialRowCount", "accessType", "primaryKey", "secondaryKeys"),
        "valueHelps",
    ]
    row = root.find(f"{TTYP}rowType")
    assert row is not None
    assert _children(row) == ["typeKind", "typeName", "builtInType", "rangeType"]
    key = root.find(f"{TTYP}primaryKey")
    assert key is not None and _names(key) == ["isVisible", "isEditable"]
    assert _children(key) == ["definition", "kind", "components", "alias"]
    read = await client.dictionary.read(url)
    assert {k: read.fields[k] for k in ("rowType", "rowTypeKind", "accessType")} == {
        "rowType": "ZKINDS_TRIP",
        "rowTypeKind": "dictionaryType",
        "accessType": "standard",
    }
    assert read.fields["keyDefinition"] == "standard" and read.fields["keyUnique"] is False
    written = await client.dictionary.write(
        url,
        read.raw.replace(b">standard</ttyp:accessType>", b">hashed</ttyp:accessType>"),
        token=read.token,
    )
    assert written.fields["accessType"] == "hashed"
    assert (await _get(emulator, url))[0].count(b"xmlns:ttyp=") == 1


@pytest.mark.parametrize(
    "url", [f"{ADT}/messageclass/zkinds_msg", f"{ADT}/businessservices/bindings/zui_kinds_trip_o4"]
)
async def test_a_document_written_back_unchanged_reads_the_same(
    client: AdtClient, emulator: Emulator, url: str
) -> None:
    """A client that sends the served document back (links, stamps and all) changes
    nothing but the version: the links are not stored twice."""
    before = await client.dictionary.read(url)
    after = await client.dictionary.write(url, before.raw, token=before.token)
    assert after.fields == before.fields
    assert len(after.raw) == len(
        before.raw.replace(b'adtcore:version="active"', b'adtcore:version="inactive"')
    )
