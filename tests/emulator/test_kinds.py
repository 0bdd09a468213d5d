"""CDS, RAP and dictionary kinds in the emulator, on a small fixture of each kind written in
abapGit's real formats (``tests/fixtures/kinds``): seeding, byte-identical source reads,
metadata documents, locks and token-checked writes, creation, activation, search, the
report of kinds the emulator cannot serve."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from lxml import etree

from adt.emulator import Emulator

from .helpers import ADT, STATEFUL, activate, fetch_token, lock, put_source, unlock

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kinds"
FOLDER = FIXTURE / "$zkinds"
ADTCORE = "{http://www.sap.com/adt/core}"

#: abapGit file → the object's source URI (every source-based file of the fixture).
SOURCES = {
    "zi_kinds_trip.ddls.asddls": f"{ADT}/ddic/ddl/sources/zi_kinds_trip/source/main",
    "#zns#i_gadget.ddls.asddls": f"{ADT}/ddic/ddl/sources/%2fzns%2fi_gadget/source/main",
    "zc_kinds_trip.ddlx.asddlxs": f"{ADT}/ddic/ddlx/sources/zc_kinds_trip/source/main",
    "zi_kinds_trip.dcls.asdcls": f"{ADT}/acm/dcl/sources/zi_kinds_trip/source/main",
    "zi_kinds_trip.bdef.asbdef": f"{ADT}/bo/behaviordefinitions/zi_kinds_trip/source/main",
    "zui_kinds_trip.srvd.srvdsrv": f"{ADT}/ddic/srvd/sources/zui_kinds_trip/source/main",
}
#: Object URI → (ADT type, media type a real client asks for).
OBJECTS = {
    f"{ADT}/ddic/ddl/sources/zi_kinds_trip": ("DDLS/DF", "application/vnd.sap.adt.ddlSource+xml"),
    f"{ADT}/ddic/ddlx/sources/zc_kinds_trip": (
        "DDLX/EX",
        "application/vnd.sap.adt.ddic.ddlx.v1+xml",
    ),
    f"{ADT}/acm/dcl/sources/zi_kinds_trip": ("DCLS/DL", "application/vnd.sap.adt.dclSource+xml"),
    f"{ADT}/bo/behaviordefinitions/zi_kinds_trip": (
        "BDEF/BDO",
        "application/vnd.sap.adt.blues.v1+xml",
    ),
    f"{ADT}/ddic/srvd/sources/zui_kinds_trip": (
        "SRVD/SRV",
        "application/vnd.sap.adt.ddic.srvd.v1+xml",
    ),
    f"{ADT}/ddic/tables/zkinds_trip": ("TABL/DT", "application/vnd.sap.adt.tables.v2+xml"),
    f"{ADT}/ddic/structures/zkinds_s_admin": (
        "TABL/DS",
        "application/vnd.sap.adt.structures.v2+xml",
    ),
    f"{ADT}/ddic/tabletypes/zkinds_tt_trip": ("TTYP/DA", "application/*"),
    f"{ADT}/ddic/dataelements/zkinds_trip_id": (
        "DTEL/DE",
        "application/vnd.sap.adt.dataelements.v2+xml",
    ),
    f"{ADT}/ddic/domains/zkinds_status": ("DOMA/DD", "application/vnd.sap.adt.domains.v2+xml"),
    f"{ADT}/messageclass/zkinds_msg": ("MSAG/N", "application/vnd.sap.adt.mc.messageclass+xml"),
    f"{ADT}/businessservices/bindings/zui_kinds_trip_o4": (
        "SRVB/SVB",
        "application/vnd.sap.adt.businessservices.servicebinding.v2+xml",
    ),
}


@pytest.fixture
def kinds_emulator() -> Emulator:
    return Emulator(seed_dirs=[FOLDER])


@pytest.fixture
async def client(kinds_emulator: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=kinds_emulator.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://emulator", auth=("DEVELOPER", "developer")
    ) as http:
        yield http
    assert kinds_emulator.locks() == []


def test_seeding_reports_the_kinds_it_cannot_serve(kinds_emulator: Emulator) -> None:
    assert kinds_emulator.unserved == {"ENQU": ["ZKINDS_TRIP"]}
    served = {uri.split("/sap/bc/adt/")[1] for uri in kinds_emulator.state.object_uris()}
    assert len(served) == len(OBJECTS) + 1  # + the namespaced data definition


@pytest.mark.parametrize("filename", sorted(SOURCES))
async def test_sources_read_back_byte_identical(client: httpx.AsyncClient, filename: str) -> None:
    response = await client.get(SOURCES[filename], headers={"Accept": "text/plain"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    raw = (FOLDER / filename).read_bytes()
    assert response.content == raw


@pytest.mark.parametrize("uri", sorted(OBJECTS))
async def test_metadata_documents(client: httpx.AsyncClient, uri: str) -> None:
    code, media = OBJECTS[uri]
    response = await client.get(uri, headers={"Accept": media})
    assert response.status_code == 200, response.text
    if media != "application/*":
        assert response.headers["content-type"].startswith(media)
    root = etree.fromstring(response.content)
    assert root.get(f"{ADTCORE}type") == code
    assert root.get(f"{ADTCORE}name") == uri.rsplit("/", 1)[1].upper()
    package = root.find(f"{ADTCORE}packageRef")
    assert package is not None and package.get(f"{ADTCORE}name") == "$ZKINDS"


async def test_table_is_served_as_define_table_source(client: httpx.AsyncClient) -> None:
    response = await client.get(f"{ADT}/ddic/tables/zkinds_trip/source/main")
    assert response.text.split("\r\n") == [
        "@EndUserText.label : 'Trips'",
        "@AbapCatalog.enhancementCategory : #NOT_EXTENSIBLE",
        "@AbapCatalog.tableCategory : #TRANSPARENT",
        "@AbapCatalog.deliveryClass : #A",
        "@AbapCatalog.dataMaintenance : #RESTRICTED",
        "define table zkinds_trip {",
        "  key client  : abap.clnt not null;",
        "  key trip_id : zkinds_trip_id not null;",
        "  status      : zkinds_status;",
        "  @Semantics.amount.currencyCode : 'zkinds_trip.currency'",
        "  price       : abap.curr(16,2);",
        "  currency    : abap.cuky(5);",
        "  include zkinds_s_admin;",
        "",
        "}",
    ]
    structure = await client.get(f"{ADT}/ddic/structures/zkinds_s_admin/source/main")
    assert structure.text.split("\r\n")[2:5] == [
        "define structure zkinds_s_admin {",
        "  changed_by : abap.char(12);",
        "  changed_at : abap.dec(21,7);",
    ]


async def test_data_element_and_domain_documents(client: httpx.AsyncClient) -> None:
    dtel = etree.fromstring((await client.get(f"{ADT}/ddic/dataelements/zkinds_trip_id")).content)
    ns = {"dtel": "http://www.sap.com/adt/dictionary/dataelements"}
    assert etree.QName(dtel).localname == "wbobj"
    assert dtel.findtext("dtel:dataElement/dtel:typeKind", namespaces=ns) == "domain"
    assert dtel.findtext("dtel:dataElement/dtel:typeName", namespaces=ns) == "ZKINDS_TRIP_ID"
    assert dtel.findtext("dtel:dataElement/dtel:dataTypeLength", namespaces=ns) == "000008"
    assert dtel.findtext("dtel:dataElement/dtel:shortFieldLength", namespaces=ns) == "07"
    assert dtel.findtext("dtel:dataElement/dtel:headingFieldLabel", namespaces=ns) == "Trip No"
    doma = etree.fromstring((await client.get(f"{ADT}/ddic/domains/zkinds_status")).content)
    dns = {"doma": "http://www.sap.com/dictionary/domain"}
    values = [
        (v.findtext("doma:low", namespaces=dns), v.findtext("doma:text", namespaces=dns))
        for v in doma.iterfind(".//doma:fixValue", namespaces=dns)
    ]
    assert values == [("O", "Open"), ("A", "Accepted")]


async def test_source_write_needs_the_lock_and_activates(
    kinds_emulator: Emulator, client: httpx.AsyncClient
) -> None:
    uri = f"{ADT}/bo/behaviordefinitions/zi_kinds_trip"
    token = await fetch_token(client, stateful=True)
    text = (FOLDER / "zi_kinds_trip.bdef.asbdef").read_text() + "\n// changed  "
    refused = await put_source(client, token, f"{uri}/source/main", "WRONG", text)
    assert refused.status_code == 423
    handle = await lock(client, token, uri)
    written = await put_source(client, token, f"{uri}/source/main", handle, text)
    assert written.status_code == 200
    await unlock(client, token, uri, handle)
    read = await client.get(f"{uri}/source/main", headers=STATEFUL)
    assert read.content == text.encode()  # kept verbatim: LF, trailing blanks
    assert "inactive" in (await client.get(uri, headers=STATEFUL)).text
    activated = await activate(client, token, uri)
    assert activated.status_code == 200
    assert kinds_emulator.source(f"{uri}/source/main", "active") == text


async def test_metadata_document_is_written_whole_under_a_lock(client: httpx.AsyncClient) -> None:
    uri = f"{ADT}/messageclass/zkinds_msg"
    media = "application/vnd.sap.adt.mc.messageclass+xml"
    token = await fetch_token(client, stateful=True)
    document = (await client.get(uri, headers={"Accept": media})).text
    changed = document.replace(
        "</mc:messageClass>",
        '<mc:messages mc:msgno="003" mc:msgtext="Trip &amp;1 was accepted."/></mc:messageClass>',
    )
    headers = {"x-csrf-token": token, "Content-Type": media, **STATEFUL}
    refused = await client.put(f"{uri}?lockHandle=NONE", content=changed, headers=headers)
    assert refused.status_code == 423
    handle = await lock(client, token, uri)
    saved = await client.put(f"{uri}?lockHandle={handle}", content=changed, headers=headers)
    assert saved.status_code == 200, saved.text
    await unlock(client, token, uri, handle)
    root = etree.fromstring((await client.get(uri, headers={"Accept": media, **STATEFUL})).content)
    mc = "{http://www.sap.com/adt/MessageClass}"
    numbers = [m.get(f"{mc}msgno") for m in root.iter(f"{mc}messages")]
    assert numbers == ["001", "002", "003"]
    assert root.get(f"{ADTCORE}version") == "inactive"
    source = await client.get(f"{uri}/source/main")
    assert source.status_code == 404  # metadata kinds have no source


async def test_quick_search_finds_the_new_kinds(client: httpx.AsyncClient) -> None:
    response = await client.get(
        f"{ADT}/repository/informationsystem/search",
        params={"operation": "quickSearch", "query": "ZI_KINDS*", "maxResults": "50"},
    )
    root = etree.fromstring(response.content)
    found = sorted(r.get(f"{ADTCORE}type") or "" for r in root)
    assert found == ["BDEF/BDO", "DCLS/DL", "DDLS/DF"]
    typed = await client.get(
        f"{ADT}/repository/informationsystem/search",
        params={"operation": "quickSearch", "query": "/ZNS/*", "objectType": "DDLS"},
    )
    refs = etree.fromstring(typed.content)
    assert [r.get(f"{ADTCORE}uri") for r in refs] == [f"{ADT}/ddic/ddl/sources/%2fzns%2fi_gadget"]


CREATE_BODIES = {
    "ddic/ddl/sources": ("ddl:ddlSource", "http://www.sap.com/adt/ddic/ddlsources", "DDLS/DF"),
    "ddic/tables": ("blue:blueSource", "http://www.sap.com/wbobj/blue", "TABL/DT"),
    "ddic/dataelements": ("blue:wbobj", "http://www.sap.com/wbobj/dictionary/dtel", "DTEL/DE"),
    "messageclass": ("mc:messageClass", "http://www.sap.com/adt/MessageClass", "MSAG/N"),
}


@pytest.mark.parametrize("collection", sorted(CREATE_BODIES))
async def test_create_validate_and_delete(client: httpx.AsyncClient, collection: str) -> None:
    root, namespace, code = CREATE_BODIES[collection]
    prefix = root.split(":")[0]
    body = (
        f'<?xml version="1.0" encoding="UTF-8"?><{root} xmlns:{prefix}="{namespace}" '
        'xmlns:adtcore="http://www.sap.com/adt/core" adtcore:description="New one" '
        f'adtcore:name="ZKINDS_NEW" adtcore:type="{code}" adtcore:responsible="DEVELOPER">'
        f'<adtcore:packageRef adtcore:name="$ZKINDS"/></{root}>'
    )
    token = await fetch_token(client, stateful=True)
    headers = {"x-csrf-token": token, "Content-Type": "application/*", **STATEFUL}
    created = await client.post(f"{ADT}/{collection}", content=body, headers=headers)
    assert created.status_code == 200, created.text
    uri = f"{ADT}/{collection}/zkinds_new"
    read = await client.get(uri, headers=STATEFUL)
    assert read.status_code == 200
    assert 'adtcore:description="New one"' in read.text
    again = await client.post(f"{ADT}/{collection}", content=body, headers=headers)
    assert again.status_code == 400
    if code == "TABL/DT":
        source = await client.get(f"{uri}/source/main", headers=STATEFUL)
        assert "define table zkinds_new {\r\n  key client : abap.clnt not null;" in source.text
    handle = await lock(client, token, uri)
    deleted = await client.delete(
        f"{uri}?lockHandle={handle}", headers={"x-csrf-token": token, **STATEFUL}
    )
    assert deleted.status_code == 200, deleted.text
    assert (await client.get(uri)).status_code == 404


def _create(emulator: Emulator, name: str, code: str) -> str:
    """A new inactive object made the way a create request makes it."""
    from adt.emulator.kinds import REGISTRY
    from adt.emulator.object_changes import NewObject, create_object

    kind = REGISTRY.by_code(code)
    assert kind is not None
    spec = NewObject(
        kind=kind, name=name, description="dep", responsible="DEVELOPER", package="$ZKINDS"
    )
    return create_object(emulator.state, spec, None, "DEVELOPER").uri


async def test_a_view_over_an_inactive_table_is_refused_then_activated_in_order(
    kinds_emulator: Emulator, client: httpx.AsyncClient
) -> None:
    table = _create(kinds_emulator, "ZKINDS_DEP", "TABL/DT")
    view = _create(kinds_emulator, "ZI_KINDS_DEP", "DDLS/DF")
    token = await fetch_token(client, stateful=True)
    handle = await lock(client, token, view)
    text = "define view entity ZI_KINDS_DEP\n  as select from zkinds_dep\n{\n  key client\n}"
    assert (await put_source(client, token, f"{view}/source/main", handle, text)).status_code == 200
    await unlock(client, token, view, handle)
    refused = await activate(client, token, view)
    assert "Database Table ZKINDS_DEP is not active" in refused.text
    assert 'line="2"' in refused.text or "#start=2," in refused.text
    assert kinds_emulator.source(f"{view}/source/main", "active") is None
    view_obj = kinds_emulator.state.objects[view]
    table_obj = kinds_emulator.state.objects[table]
    run = kinds_emulator.state.activate([view_obj, table_obj])  # the view named first
    assert run.activated and run.order == ("ZKINDS_DEP", "ZI_KINDS_DEP")
    assert kinds_emulator.source(f"{view}/source/main", "active") == text


def test_dependencies_of_each_source_kind(kinds_emulator: Emulator) -> None:
    from adt.emulator.kinds import REGISTRY

    def names(uri: str) -> list[str]:
        obj = kinds_emulator.state.objects[uri]
        text = kinds_emulator.source(f"{uri}/source/main") or ""
        return [use.name for use in REGISTRY.module(obj.kind).dependencies(obj, text)]

    assert names(f"{ADT}/ddic/ddl/sources/zi_kinds_trip") == ["ZKINDS_TRIP", "ZI_KINDS_STATUS"]
    assert names(f"{ADT}/ddic/ddlx/sources/zc_kinds_trip") == ["ZI_KINDS_TRIP"]
    assert names(f"{ADT}/acm/dcl/sources/zi_kinds_trip") == ["ZI_KINDS_TRIP"]
    assert names(f"{ADT}/bo/behaviordefinitions/zi_kinds_trip") == ["ZI_KINDS_TRIP", "ZKINDS_TRIP"]
    assert names(f"{ADT}/ddic/srvd/sources/zui_kinds_trip") == ["ZI_KINDS_TRIP"]
    assert names(f"{ADT}/ddic/tables/zkinds_trip") == [
        "ZKINDS_TRIP_ID",
        "ZKINDS_STATUS",
        "ZKINDS_S_ADMIN",
    ]


async def test_the_package_tree_lists_the_new_kinds_by_category(client: httpx.AsyncClient) -> None:
    token = await fetch_token(client)
    envelope = (
        '<?xml version="1.0" encoding="UTF-8"?><asx:abap xmlns:asx="http://www.sap.com/abapxml" '
        'version="1.0"><asx:values><DATA><TV_NODEKEY>000000</TV_NODEKEY></DATA></asx:values>'
        "</asx:abap>"
    )
    response = await client.post(
        f"{ADT}/repository/nodestructure?parent_type=DEVC%2FK&parent_name=%24ZKINDS"
        "&withShortDescriptions=true",
        content=envelope,
        headers={"x-csrf-token": token, "Content-Type": "application/vnd.sap.as+xml"},
    )
    root = etree.fromstring(response.content)
    types = {
        info.findtext("OBJECT_TYPE"): info.findtext("CATEGORY_TAG")
        for info in root.iter("SEU_ADT_OBJECT_TYPE_INFO")
    }
    assert types["DDLS/DF"] == "core_data_services"
    assert types["TABL/DT"] == types["DTEL/DE"] == "dictionary"
    assert types["SRVD/SRV"] == types["SRVB/SVB"] == "business_services"
    labels = {
        c.findtext("CATEGORY"): c.findtext("CATEGORY_LABEL")
        for c in root.iter("SEU_ADT_OBJECT_CATEGORY_INFO")
    }
    assert labels["core_data_services"] == "Core Data Services"
