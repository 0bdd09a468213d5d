"""A RAP developer's loop in the editor, end to end (pytest-lsp, a real server process): find
and open a CDS view over a new table, complete a field, save a token-checked patch, see
activation refused with the inactive table named (``inactiveDependencies``) and activate
both with the command's second argument, then preview the view's rows (``adt/dataPreview``,
a page at a time)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.cds_loop import (
    FIELD_LINE,
    REFUSAL,
    TABLE,
    VIEW_SOURCE_URL,
    assert_both_active,
    cds_emulator,
    new_inactive_table_and_view,
)
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

VIEW_URI = f"adt://A4H{VIEW_SOURCE_URL}"


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return cds_emulator(tmp_path)


async def _activate(client: EditorClient, *arguments: Any) -> dict[str, Any]:
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="adt.activate", arguments=list(arguments))
    )
    assert isinstance(result, dict)
    return result


async def test_open_complete_save_activate_with_dependency_preview(
    client: EditorClient, emulator: Emulator
) -> None:
    await new_inactive_table_and_view(emulator)
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

    client.edit(VIEW_URI, (3, 0), (3, 2), FIELD_LINE)
    saved = await client.save(VIEW_URI)
    assert saved["status"] == "saved" and saved["hunks"] == 1
    stored = emulator.source(VIEW_SOURCE_URL)
    assert stored is not None and stored.splitlines()[3] == FIELD_LINE

    alone = await _activate(client, VIEW_URI)
    assert not alone["activated"] and REFUSAL in str(alone["findings"])
    assert alone["inactiveDependencies"] == [
        {"name": "ZTRIP", "type": "TABL/DT", "objectUrl": TABLE}
    ]
    both = await _activate(
        client, VIEW_URI, [d["objectUrl"] for d in alone["inactiveDependencies"]]
    )
    assert both["activated"] and "inactiveDependencies" not in both, both
    assert_both_active(emulator)

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
    behavior = "adt://A4H/sap/bc/adt/bo/behaviordefinitions/zi_trip/source/main"
    with pytest.raises(JsonRpcException, match="has no rows to preview"):
        await client.request("adt/dataPreview", {"uri": behavior})
    assert emulator.locks() == []


async def test_an_activation_over_active_objects_names_no_dependencies(
    client: EditorClient, emulator: Emulator
) -> None:
    """A refusal for another reason (an unknown field) names no inactive objects once the
    table is active: nothing to offer."""
    await new_inactive_table_and_view(emulator)
    assert (await _activate(client, f"adt://A4H{TABLE}/source/main"))["activated"]
    await client.open(VIEW_URI)
    client.edit(VIEW_URI, (3, 0), (3, 2), "      nowhere as Nowhere")
    assert (await client.save(VIEW_URI))["status"] == "saved"
    refused = await _activate(client, VIEW_URI)
    assert not refused["activated"] and refused["findings"], refused
    assert "inactiveDependencies" not in refused
    assert emulator.locks() == []
