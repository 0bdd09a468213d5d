"""Commands on metadata objects in the editor (pytest-lsp, a real server process): one
message of the open message class is added, then changed, on the version the editor shows
(the editor follows the new document; unsaved edits are refused, nothing lost); a service
binding is published and unpublished; a new data element and a binding are created."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.emulated import USERS, make_client
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kinds" / "$zkinds"
MSAG = "adt://A4H/sap/bc/adt/messageclass/zkinds_msg"
SRVB = "adt://A4H/sap/bc/adt/businessservices/bindings/zui_kinds_trip_o4"


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(seed_dirs=[FIXTURE], users=USERS)


async def _execute(client: EditorClient, command: str, *arguments: Any) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments))
    )


async def _messages(emulator: Emulator) -> list[dict[str, str]]:
    async with make_client(emulator) as adt:
        document = await adt.dictionary.read("/sap/bc/adt/messageclass/zkinds_msg")
    return list(document.fields["messages"])


@pytest.mark.parametrize("client", ["visual-studio-code"], indirect=True)
async def test_a_message_added_and_changed_in_the_open_class(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MSAG)
    added = await _execute(client, "adt.setMessage", MSAG, {"number": "7", "text": "Trip &1 ok"})
    assert {"number": "007", "text": "Trip &1 ok"} in added["messages"]
    assert 'msgtext="Trip &amp;1 ok"' in client.texts[MSAG]  # the editor shows the new class
    changed = await _execute(client, "adt.setMessage", MSAG, {"number": "001", "text": "Gone"})
    numbers = {m["number"]: m["text"] for m in changed["messages"]}
    assert (numbers["001"], numbers["007"]) == ("Gone", "Trip &1 ok")
    assert await _messages(emulator) == changed["messages"]

    client.edit(MSAG, (0, 0), (0, 0), "<!-- mine -->")
    with pytest.raises(JsonRpcException, match="unsaved changes") as refused:
        await _execute(client, "adt.setMessage", MSAG, {"number": "2", "text": "lost?"})
    assert refused.value.data["name"] == "INVALID_ARGUMENT"
    assert client.texts[MSAG].startswith("<!-- mine -->")
    assert await _messages(emulator) == changed["messages"]
    with pytest.raises(JsonRpcException, match="not a message class"):
        await _execute(client, "adt.setMessage", SRVB, {"number": "1", "text": "x"})
    assert emulator.locks() == []


@pytest.mark.parametrize("client", ["visual-studio-code"], indirect=True)
async def test_publish_unpublish_and_create_metadata_objects(
    client: EditorClient, emulator: Emulator
) -> None:
    published = await _execute(client, "adt.publishServiceBinding", SRVB)
    assert (published["ok"], published["published"]) == (True, True), published
    read = await client.open(SRVB)
    assert 'srvb:published="true"' in read["text"]
    withdrawn = await _execute(client, "adt.publishServiceBinding", SRVB, False)
    assert withdrawn["ok"] and not withdrawn["published"]

    common = {"description": "New", "package": "$ZKINDS"}
    element = await _execute(
        client, "adt.createObject", {"kind": "dataElement", "name": "ZLSP_DTEL", **common}
    )
    assert element["uri"] == "adt://A4H/sap/bc/adt/ddic/dataelements/zlsp_dtel"
    assert (await client.open(element["uri"]))["objectType"] == "DTEL/DE"
    binding = await _execute(
        client,
        "adt.createObject",
        {"kind": "serviceBinding", "name": "ZLSP_SRVB", "basedOn": "ZUI_KINDS_TRIP", **common},
    )
    opened = await client.open(binding["uri"])
    assert 'adtcore:name="ZUI_KINDS_TRIP"' in opened["text"]
    assert emulator.locks() == []
