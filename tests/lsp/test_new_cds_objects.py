"""New CDS and RAP objects from the editor (``adt.createObject``): a view over a table with
the table's fields, a behavior definition for it as root entity with its persistent table,
a service definition exposing it — each in a transportable package, so the server asks for
a request first; a basis that does not exist is refused before anything is created."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.cds_loop import (
    NEW_SERVICE,
    NEW_URLS,
    NEW_VIEW,
    TABLE,
    TRANSPORTABLE,
    assert_created_from_templates,
    cds_emulator,
    new_inactive_table_and_view,
)
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

NEW_REQUEST = "Create new request…"
POOL = (
    "CLASS zbp_zi_trip_t DEFINITION PUBLIC ABSTRACT FINAL FOR BEHAVIOR OF zi_trip_t.\n"
    "ENDCLASS.\n\nCLASS zbp_zi_trip_t IMPLEMENTATION.\nENDCLASS.\n"
)


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return cds_emulator(tmp_path)


async def _execute(client: EditorClient, command: str, *arguments: Any) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments))
    )


async def test_a_view_a_behavior_and_a_service_from_the_templates(
    client: EditorClient, emulator: Emulator
) -> None:
    await new_inactive_table_and_view(emulator)
    common = {"description": "Trips", "package": TRANSPORTABLE}
    client.answers.append(NEW_REQUEST)
    view = await _execute(
        client,
        "adt.createObject",
        {"kind": "dataDefinition", "name": NEW_VIEW.lower(), "basedOn": "ztrip", **common},
    )
    question = client.questions[-1]
    assert NEW_VIEW in question.message and TRANSPORTABLE in question.message
    request = view["transport"]
    client.answers += [f"{request} Changes to {NEW_VIEW}"] * 2  # the same request, twice
    behavior = await _execute(
        client, "adt.createObject", {"kind": "behaviorDefinition", "name": NEW_VIEW, **common}
    )
    service = await _execute(
        client,
        "adt.createObject",
        {"kind": "serviceDefinition", "name": NEW_SERVICE, "basedOn": NEW_VIEW, **common},
    )
    assert len(client.questions) == 3
    assert behavior["transport"] == service["transport"] == request
    assert [view["objectUrl"], behavior["objectUrl"], service["objectUrl"]] == list(
        NEW_URLS.values()
    )
    assert_created_from_templates(emulator)
    recorded = next(r for r in emulator.transport_requests() if r.number == request)
    assert ("R3TR", "DDLS", NEW_VIEW) in {(o.pgmid, o.type, o.name) for o in recorded.objects}

    # the service exposes the view (and so its behavior), the view selects from the table:
    # all are named, each after what it builds on
    refused = await _execute(client, "adt.activate", service["uri"])
    urls = [d["objectUrl"] for d in refused["inactiveDependencies"]]
    assert urls == [TABLE, NEW_URLS["dataDefinition"], NEW_URLS["behaviorDefinition"]]
    together = await _execute(client, "adt.activate", service["uri"], urls)
    assert not together["activated"] and "inactiveDependencies" not in together
    (finding,) = together["findings"]  # the behavior's own error: its pool is missing
    assert finding["text"] == "Behavior pool 'zbp_zi_trip_t' does not exist"
    pool = await _execute(
        client,
        "adt.createObject",
        {"kind": "class", "name": "ZBP_ZI_TRIP_T", "description": "Pool", "package": "$ZCDS"},
    )
    await client.open(pool["uri"])
    lines = client.texts[pool["uri"]].split("\n")
    client.edit(pool["uri"], (0, 0), (len(lines) - 1, len(lines[-1])), POOL)
    assert (await client.save(pool["uri"]))["status"] == "saved"
    together = await _execute(client, "adt.activate", service["uri"], urls)
    assert together["activated"], together
    assert emulator.locks() == []


async def test_a_view_over_nothing_is_refused_before_it_is_created(
    client: EditorClient, emulator: Emulator
) -> None:
    spec = {
        "kind": "dataDefinition",
        "name": "ZI_NOWHERE",
        "description": "x",
        "package": "$ZCDS",
        "basedOn": "ZNO_SUCH_TABLE",
    }
    with pytest.raises(JsonRpcException, match="ZNO_SUCH_TABLE") as refused:
        await _execute(client, "adt.createObject", spec)
    assert refused.value.data["name"] == "INVALID_ARGUMENT"
    assert "/sap/bc/adt/ddic/ddl/sources/zi_nowhere" not in emulator.objects()
    plain = await _execute(client, "adt.createObject", {**spec, "basedOn": None})
    text = emulator.source(f"{plain['objectUrl']}/source/main") or ""
    assert "as select from <data_source>" in text  # the placeholders stay for the user
    assert emulator.locks() == []
