"""A RAP developer's loop in the editor, end to end (pytest-lsp, a real server process): open
a CDS view over a new table, complete a field, save a token-checked patch, see activation
refused for the inactive table and activate both together, then preview the view's rows
(``adt/dataPreview``, a page at a time)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.cds_abapgit import write_samples
from support.emulated import USERS, make_client
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

TABLE = "/sap/bc/adt/ddic/tables/ztrip"
VIEW = "/sap/bc/adt/ddic/ddl/sources/zi_trip"
VIEW_URI = f"adt://A4H{VIEW}/source/main"
TABLE_SOURCE = """define table ztrip {
  key client : abap.clnt not null;
  key trip_id : abap.numc(4) not null;
  city : abap.char(20);
}
"""
VIEW_SOURCE = (
    "define view entity ZI_Trip as select from ztrip\n{\n  key trip_id as TripID,\n  \n}\n"
)
ROWS = [
    {"CLIENT": "001", "TRIP_ID": f"{n:04d}", "CITY": city}
    for n, city in enumerate(["Rome", "Oslo", "Lima", "Kyiv", "Nara"], start=1)
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
            created = await adt.objects.create(kind, name, description="Trips", package="$ZCDS")
            assert created.object_url == url
            async with adt.locked(url) as held:
                await adt.write_source(f"{url}/source/main", source, lock_handle=held.handle)


async def _activate(client: EditorClient, *arguments: Any) -> dict[str, Any]:
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="adt.activate", arguments=list(arguments))
    )
    assert isinstance(result, dict)
    return result


async def test_open_complete_save_activate_with_dependency_preview(
    client: EditorClient, emulator: Emulator
) -> None:
    await _new_inactive_table_and_view(emulator)
    found = await client.request("adt/searchObjects", {"query": "ZI_TRIP"})
    assert [(f["type"], f.get("documentUri")) for f in found] == [("DDLS/DF", VIEW_URI)]
    symbols = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="ZI_TRI"))
    assert symbols is not None and any(
        s.name.upper() == "ZI_TRIP" and getattr(s.location, "uri", "") == VIEW_URI for s in symbols
    ), symbols
    await client.open(VIEW_URI)
    completion = await client.text_document_completion_async(
        types.CompletionParams(
            types.TextDocumentIdentifier(uri=VIEW_URI), client.position(VIEW_URI, 3, 2)
        )
    )
    assert completion is not None
    items = completion.items if isinstance(completion, types.CompletionList) else completion
    assert {"CITY", "TRIP_ID"} <= {i.label.upper() for i in items}

    client.edit(VIEW_URI, (3, 2), (3, 2), "    city as City")
    saved = await client.save(VIEW_URI)
    assert saved["status"] == "saved" and saved["hunks"] == 1
    stored = emulator.source(f"{VIEW}/source/main")
    assert stored is not None and "city as City" in stored

    alone = await _activate(client, VIEW_URI)
    assert not alone["activated"]
    assert "ZTRIP is not active" in json.dumps(alone)
    both = await _activate(client, VIEW_URI, [TABLE])
    assert both["activated"], both

    page = await client.request("adt/dataPreview", {"uri": VIEW_URI, "offset": 2, "limit": 2})
    assert [c["name"] for c in page["columns"]] == ["TRIPID", "CITY"]
    assert page["rows"] == [{"TRIPID": "0003", "CITY": "Lima"}, {"TRIPID": "0004", "CITY": "Kyiv"}]
    assert page["totalRows"] == 5
    narrowed = await client.request(
        "adt/dataPreview", {"name": "ZI_TRIP", "columns": ["City"], "where": "TripID > '0003'"}
    )
    assert narrowed["rows"] == [{"CITY": "Kyiv"}, {"CITY": "Nara"}]
    with pytest.raises(JsonRpcException, match="not a column name"):
        await client.request("adt/dataPreview", {"name": "ZI_TRIP", "columns": ["a;b"]})
    assert emulator.locks() == []
