"""An agent's RAP loop through the official MCP client (in memory): open a CDS view by
``TYPE:NAME``, patch it token-checked, see activation refused for the inactive table under
it and activate both (``also``), then preview its rows (``objectStructure`` with ``rows``):
refused unless the bridge allows data preview, narrowed by columns and a WHERE when it does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cds_abapgit import write_samples
from support.emulated import USERS, make_client
from support.mcp_calls import call, error
from support.mcp_memory import bridge

from adt.agent import WritePolicy
from adt.emulator import Emulator
from mcp_bridge.arguments import parser

TABLE = "/sap/bc/adt/ddic/tables/ztrip"
VIEW = "/sap/bc/adt/ddic/ddl/sources/zi_trip"
TABLE_SOURCE = (
    "define table ztrip {\n  key client : abap.clnt not null;\n"
    "  key trip_id : abap.numc(4) not null;\n  city : abap.char(20);\n}\n"
)
VIEW_SOURCE = "define view entity ZI_Trip as select from ztrip\n{\n  key trip_id as TripID\n}\n"
ROWS = [
    {"CLIENT": "001", "TRIP_ID": f"{n:04d}", "CITY": city}
    for n, city in enumerate(["Rome", "Oslo", "Lima"], start=1)
]


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    data = tmp_path / "data"
    data.mkdir()
    (data / "ztrip.tabu.json").write_text(json.dumps(ROWS), encoding="utf-8")
    return Emulator(users=USERS, seed_dirs=[write_samples(tmp_path / "$zcds")])


async def _new_inactive_table_and_view(emulator: Emulator) -> None:
    async with make_client(emulator) as adt:
        for kind, url, name, source in (
            ("TABL/DT", TABLE, "ZTRIP", TABLE_SOURCE),
            ("DDLS/DF", VIEW, "ZI_TRIP", VIEW_SOURCE),
        ):
            await adt.objects.create(kind, name, description="Trips", package="$ZCDS")
            async with adt.locked(url) as held:
                await adt.write_source(f"{url}/source/main", source, lock_handle=held.handle)


async def test_open_patch_activate_with_dependency_and_preview(emulator: Emulator) -> None:
    await _new_inactive_table_and_view(emulator)
    async with bridge(emulator, policy=WritePolicy(data_preview=True)) as client:
        read = (await call(client, "getObjectSourceV2", objectUrl="DDLS:ZI_TRIP"))["data"]
        assert read["objectUrl"] == VIEW and "key trip_id as TripID" in read["content"]
        stale = await error(
            client,
            "setObjectSourceV2",
            objectUrl="DDLS:ZI_TRIP",
            token="0" * len(read["token"]),
            startLine=3,
            endLine=3,
            content="  key trip_id as TripID,",
        )
        assert stale["name"] in {"VERSION_CONFLICT", "TOKEN_INVALID"}
        patched = await call(
            client,
            "setObjectSourceV2",
            objectUrl="DDLS:ZI_TRIP",
            token=read["token"],
            startLine=3,
            endLine=3,
            content="  key trip_id as TripID,\n      city as City",
        )
        assert patched["ok"], patched
        alone = (await call(client, "activate", objectUrl="DDLS:ZI_TRIP"))["data"]
        assert not alone["activated"] and "ZTRIP is not active" in json.dumps(alone)
        both = (await call(client, "activate", objectUrl=VIEW, also=["TABL:ZTRIP"]))["data"]
        assert both["activated"], both
        rows = (await call(client, "objectStructure", objectUrl="DDLS:ZI_TRIP", rows=2))["data"]
        assert rows["columns"] == ["TRIPID", "CITY"] and rows["keys"] == ["TRIPID"]
        assert rows["rows"] == [["0001", "Rome"], ["0002", "Oslo"]] and rows["totalRows"] == 3
        narrowed = await call(
            client,
            "objectStructure",
            objectUrl=VIEW,
            rows=5,
            columns=["City"],
            where="TripID > '0001'",
        )
        assert narrowed["data"]["rows"] == [["Oslo"], ["Lima"]]
    async with bridge(emulator) as client:
        refused = await error(client, "objectStructure", objectUrl="TABL:ZTRIP", rows=5)
        assert (refused["code"], refused["name"]) == (4023, "PREVIEW_REFUSED")
        assert "--allow-data-preview" in refused["error"]
        bad = await error(client, "objectStructure", objectUrl="XYZ:ZTRIP")
        assert bad["name"] == "INVALID_ARGUMENT"
    assert emulator.locks() == []


def test_the_flag_turns_data_preview_on() -> None:
    assert parser().parse_args(["--allow-data-preview"]).allow_data_preview
    assert not parser().parse_args([]).allow_data_preview
