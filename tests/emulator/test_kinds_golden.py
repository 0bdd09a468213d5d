"""Golden tests of the new kinds' documents against the A4H captures: the data definition
(``454``), the table (``453``), the data element (``844``) and the domain (``845``). The
emulator is seeded with equivalent objects; the documents are compared element by element
and attribute by attribute, values only where they are not the system's own (times, etags,
people, descriptions of SAP's packages)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from adt.emulator import Emulator

from .helpers import ADT, write_abapgit
from .xmlcompare import namespace_declarations, structure_diff

pytestmark = pytest.mark.captures

SYSTEM_VALUES = [
    "changedAt",
    "createdAt",
    "etag",
    "responsible",
    "changedBy",
    "createdBy",
    "masterSystem",
    "masterLanguage",
    "description",
    "href",
]


def _xml(serializer: str, values: str) -> str:
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n'
        f'<abapGit version="v1.0.0" serializer="LCL_OBJECT_{serializer}" '
        'serializer_version="v1.0.0">\n <asx:abap xmlns:asx="http://www.sap.com/abapxml" '
        f'version="1.0">\n  <asx:values>\n{values}\n  </asx:values>\n </asx:abap>\n</abapGit>\n'
    )


def _devc(text: str) -> str:
    return _xml("DEVC", f"<DEVC><CTEXT>{text}</CTEXT></DEVC>")


@pytest.fixture
def seeded(tmp_path: Path) -> Emulator:
    write_abapgit(
        tmp_path,
        {
            "sacm_common/package.devc.xml": _devc("Common Objects for Access Control Management"),
            "sacm_common/i_acmusr02.ddls.asddls": (
                "@EndUserText.label: 'View of user-table: USR02, used by ACM'\r\n"
                "define view entity I_ACMUSR02 as select from usr02 { key bname }\r\n"
            ),
            "sacm_common/i_acmusr02.ddls.xml": _xml(
                "DDLS", "<DDLS><DDTEXT>View of user-table: USR02, used by ACM</DDTEXT></DDLS>"
            ),
            "strm_t000/package.devc.xml": _devc("T000 API"),
            "strm_t000/t000.tabl.xml": _xml(
                "TABL",
                "<DD02V><TABNAME>T000</TABNAME><TABCLASS>TRANSP</TABCLASS>"
                "<DDTEXT>Clients</DDTEXT><CONTFLAG>C</CONTFLAG><EXCLASS>1</EXCLASS>"
                "<MATEFLAG>X</MATEFLAG></DD02V><DD03P_TABLE><DD03P><FIELDNAME>MANDT</FIELDNAME>"
                "<KEYFLAG>X</KEYFLAG><ROLLNAME>MANDT</ROLLNAME><NOTNULL>X</NOTNULL></DD03P>"
                "</DD03P_TABLE>",
            ),
            "sapbc_datamodel/package.devc.xml": _devc("Data Model: BC_TRAVEL"),
            "sapbc_datamodel/s_carr_id.dtel.xml": _xml(
                "DTEL",
                "<DD04V><ROLLNAME>S_CARR_ID</ROLLNAME><DOMNAME>S_CARR_ID</DOMNAME>"
                "<DDTEXT>Airline code</DDTEXT><REPTEXT>ID</REPTEXT><SCRTEXT_S>Carrier</SCRTEXT_S>"
                "<SCRTEXT_M>Airline</SCRTEXT_M><SCRTEXT_L>Airline</SCRTEXT_L><SCRLEN1>07</SCRLEN1>"
                "<SCRLEN2>16</SCRLEN2><SCRLEN3>16</SCRLEN3><HEADLEN>02</HEADLEN>"
                "<SHLPNAME>S_CARRIER_ID</SHLPNAME><SHLPFIELD>CARRID</SHLPFIELD>"
                "<MEMORYID>CAR</MEMORYID><DEFFDNAME>AIRLINEID</DEFFDNAME>"
                "<DATATYPE>CHAR</DATATYPE><LENG>000003</LENG></DD04V>",
            ),
            "sapbc_datamodel/s_carr_id.doma.xml": _xml(
                "DOMA",
                "<DD01V><DOMNAME>S_CARR_ID</DOMNAME><DATATYPE>CHAR</DATATYPE><LENG>000003</LENG>"
                "<OUTPUTLEN>000003</OUTPUTLEN><DDTEXT>Airline code</DDTEXT>"
                "<ENTITYTAB>SCARR</ENTITYTAB></DD01V>",
            ),
        },
    )
    return Emulator(seed_dirs=[tmp_path])


CASES = [
    ("454", f"{ADT}/ddic/ddl/sources/i_acmusr02"),
    ("453", f"{ADT}/ddic/tables/t000"),
    ("844", f"{ADT}/ddic/dataelements/s_carr_id"),
    ("845", f"{ADT}/ddic/domains/s_carr_id"),
]


@pytest.mark.parametrize(("number", "uri"), CASES)
async def test_documents_have_the_captured_shape(
    seeded: Emulator, adt_captures: Path, number: str, uri: str
) -> None:
    [path] = [p for p in (adt_captures / "a4h").glob(f"{number}-*") if not p.name.endswith(".json")]
    captured = path.read_bytes()
    transport = httpx.ASGITransport(app=seeded.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://emulator", auth=("DEVELOPER", "developer")
    ) as client:
        response = await client.get(uri, headers={"Accept": "application/*"})
    assert response.status_code == 200
    diffs = structure_diff(
        captured,
        response.content,
        ignore_values=SYSTEM_VALUES,
        ignore_text=[
            "dataTypeLength",
            "mediumFieldLabel",
            "longFieldLabel",
            "mediumFieldLength",
            "longFieldLength",
            "deactivateInputHistory",
        ],
    )
    assert diffs == []
    assert (
        namespace_declarations(response.text)[:3]
        == namespace_declarations(captured.decode("utf-8"))[:3]
    )
