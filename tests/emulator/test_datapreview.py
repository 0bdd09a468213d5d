"""ADT's data preview on the emulator, through the client: a table's rows with the row
limit, a CDS entity's rows computed through its elements, a column list and a WHERE, a
free-style SELECT; the answer has A4H's shape (capture 087) and a wrong Accept is 406."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from support.cds_abapgit import table_xml, write_samples
from support.emulated import make_client
from support.faulty import Fault, faulty_client

from adt import AdtClient
from adt.emulator import Emulator
from adt.errors import AdtError

from .xmlcompare import structure_diff

T000 = """define table t000 {
  key mandt  : abap.clnt not null;
  cccategory : abap.char(1);
  cccoractiv : abap.char(1);
}
"""
TRAVELS = [
    {
        "client": "001",
        "travel_id": "00000001",
        "agency_id": "070001",
        "total_price": "100.00",
        "currency_code": "EUR",
        "description": "Sunny",
        "created_by": "ANNA",
    },
    {
        "client": "001",
        "travel_id": "00000002",
        "agency_id": "070002",
        "total_price": "250.50",
        "currency_code": "USD",
        "description": "Snow",
        "created_by": "BEN",
    },
    {
        "client": "001",
        "travel_id": "00000003",
        "agency_id": "070001",
        "total_price": "80.00",
        "currency_code": "EUR",
        "description": "Sea",
        "created_by": "ANNA",
    },
]


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    src = write_samples(tmp_path / "src")
    (src / "t000.tabl.xml").write_text(table_xml(T000), encoding="utf-8")
    data = tmp_path / "data"
    data.mkdir()
    (data / "ztravel.tabu.json").write_text(json.dumps(TRAVELS), encoding="utf-8")
    (data / "t000.tabu.json").write_text(
        json.dumps(
            [
                {"MANDT": "000", "CCCATEGORY": "S", "CCCORACTIV": "2"},
                {"MANDT": "001", "CCCATEGORY": "C", "CCCORACTIV": "1"},
            ]
        ),
        encoding="utf-8",
    )
    return Emulator(seed_dirs=[src])


@pytest.fixture
async def client(emulator: Emulator) -> AsyncIterator[AdtClient]:
    async with make_client(emulator) as adt:
        yield adt


async def test_a_preview_whose_connection_dropped_is_asked_again(emulator: Emulator) -> None:
    """A preview only reads: a connection the server closed under it (a kept-alive one that
    timed out, seen once in 1,500 requests of the flight audit) is retried like a GET instead
    of failing the preview."""
    adt, transport = faulty_client(emulator)
    fault = transport.add(Fault("POST", "/datapreview/ddic", kind="reset-before"))
    async with adt:
        preview = await adt.datapreview.table("ztravel", rows=2)
    assert fault.hits == 1 and preview.total_rows == 3


async def test_table_rows_with_the_row_limit(client: AdtClient) -> None:
    preview = await client.datapreview.table("ztravel", rows=2)
    assert preview.total_rows == 3
    assert [row["TRAVEL_ID"] for row in preview.rows] == ["00000001", "00000002"]
    keys = [(c.name, c.key) for c in preview.columns][:3]
    assert keys == [("CLIENT", True), ("TRAVEL_ID", True), ("AGENCY_ID", False)]
    assert "CREATED_BY" in preview.rows[0]  # from the include zs_admin


async def test_cds_entity_rows_with_columns_and_where(client: AdtClient) -> None:
    everything = await client.datapreview.table("ZI_TRAVEL")
    assert everything.total_rows == 3
    first = everything.rows[0]
    assert (first["TRAVELID"], first["CREATEDBY"], first["CURRENCYCODE"]) == (
        "00000001",
        "ANNA",
        "EUR",
    )
    labels = {c.name: c.description for c in everything.columns}
    assert labels["TRAVELID"] == "Travel ID"  # the data element's label
    narrowed = await client.datapreview.table(
        "ZC_TRAVEL",
        sql="SELECT TravelID, TotalPrice FROM ZC_TRAVEL "
        "WHERE CurrencyCode = 'EUR' AND TotalPrice > 90",
    )
    assert [c.name for c in narrowed.columns] == ["TRAVELID", "TOTALPRICE"]
    assert narrowed.rows == ({"TRAVELID": "00000001", "TOTALPRICE": "100.00"},)


async def test_freestyle_select(client: AdtClient) -> None:
    found = await client.datapreview.freestyle("SELECT * FROM ztravel WHERE description LIKE 'S%'")
    assert [row["DESCRIPTION"] for row in found.rows] == ["Sunny", "Snow", "Sea"]
    none = await client.datapreview.freestyle(
        "SELECT travel_id FROM ztravel WHERE agency_id = '999'"
    )
    assert none.total_rows == 0 and none.rows == ()


async def test_unsupported_queries_are_refused_with_a_reason(emulator: Emulator) -> None:
    transport = httpx.ASGITransport(app=emulator.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://e", auth=("DEVELOPER", "developer")
    ) as raw:
        token = (await raw.get("/sap/bc/adt/discovery", headers={"x-csrf-token": "Fetch"})).headers[
            "x-csrf-token"
        ]
        headers = {
            "x-csrf-token": token,
            "Accept": "application/vnd.sap.adt.datapreview.table.v1+xml",
        }
        bad = await raw.post(
            "/sap/bc/adt/datapreview/freestyle", content=b"DELETE FROM ztravel", headers=headers
        )
        assert bad.status_code == 400 and "Only SELECT" in bad.text
        unknown = await raw.post(
            "/sap/bc/adt/datapreview/ddic?ddicEntityName=ZNOPE", headers=headers
        )
        assert (
            unknown.status_code == 400
            and "ZNOPE is neither a table nor a CDS entity" in unknown.text
        )
        xml = await raw.post(
            "/sap/bc/adt/datapreview/freestyle",
            content=b"SELECT * FROM t000",
            headers={**headers, "Accept": "application/xml"},
        )
        assert xml.status_code == 406


async def test_the_answer_has_the_shape_a4h_sends(emulator: Emulator, adt_captures: Path) -> None:
    capture = adt_captures / "a4h" / "087-p3b-datapreview-t000.xml"
    meta = json.loads((adt_captures / "a4h" / "087-p3b-datapreview-t000.meta.json").read_text())
    transport = httpx.ASGITransport(app=emulator.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://e", auth=("DEVELOPER", "developer")
    ) as raw:
        token = (await raw.get("/sap/bc/adt/discovery", headers={"x-csrf-token": "Fetch"})).headers[
            "x-csrf-token"
        ]
        answer = await raw.post(
            "/sap/bc/adt/datapreview/freestyle?rowNumber=20",
            content=meta["requestBody"].encode(),
            headers={
                "x-csrf-token": token,
                "Accept": meta["requestHeaders"]["Accept"],
                "Content-Type": "text/plain",
            },
        )
    assert answer.status_code == 200
    assert answer.headers["content-type"] == meta["responseHeaders"]["content-type"]
    assert (
        structure_diff(capture.read_bytes(), answer.content, ignore_text=["queryExecutionTime"])
        == []
    )


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("ZS_ADMIN", "is a structure"),
        ("ZA_DISCOUNT", "is an abstract entity"),
        ("ZCE_TRAVEL", "is a custom entity"),
    ],
)
async def test_definitions_without_rows_are_refused(
    client: AdtClient, name: str, reason: str
) -> None:
    """ABAP SQL cannot select from a structure, an abstract or a custom entity: the preview
    says so instead of showing an empty table."""
    with pytest.raises(AdtError, match=f"{name} {reason}"):
        await client.datapreview.table(name)
