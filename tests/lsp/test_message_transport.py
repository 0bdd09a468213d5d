"""``adt.setMessage`` asks the transport question of every other write (pytest-lsp, a real
server process): a message class in a transportable package and on no request — the user
picks one of their requests (the question names the class and its package), the message
lands on it and the next change goes there without asking again; with no answer nothing is
written and the refusal names the candidates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.emulated import make_client
from support.lsp_editor import EditorClient
from support.transportable_msag import (
    MSAG,
    NAME,
    PACKAGE,
    recorded_on,
    release_seeded_request,
    transportable_message_class,
)

from adt.emulator import Emulator

URI = f"adt://A4H{MSAG}"


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return transportable_message_class(tmp_path)


async def _set(client: EditorClient, number: str, text: str) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command="adt.setMessage", arguments=[URI, {"number": number, "text": text}]
        )
    )


async def _texts(emulator: Emulator) -> dict[str, str]:
    async with make_client(emulator) as adt:
        document = await adt.dictionary.read(MSAG)
    return {m["number"]: m["text"] for m in document.fields["messages"]}


@pytest.mark.parametrize("client", ["visual-studio-code"], indirect=True)
async def test_a_message_in_a_transportable_package_asks_for_its_request(
    client: EditorClient, emulator: Emulator
) -> None:
    await release_seeded_request(emulator)
    mine = emulator.create_transport_request("Messages")
    before = await _texts(emulator)
    await client.open(URI)
    with pytest.raises(JsonRpcException, match="none was chosen") as refused:
        await _set(client, "7", "Not yet")
    assert refused.value.data["name"] == "TRANSPORT_REQUIRED"
    assert "Change the message again to choose one" in str(refused.value)
    assert mine in {c["number"] for c in refused.value.data["details"]["candidates"]}
    question = client.questions[-1]
    assert NAME in question.message and PACKAGE in question.message
    assert await _texts(emulator) == before  # nothing written

    titles = [a.title for a in question.actions or []]
    client.answers.append(next(t for t in titles if t.startswith(mine)))
    added = await _set(client, "7", "Trip ok")
    assert added["transport"] == mine
    assert {"number": "007", "text": "Trip ok"} in added["messages"]
    changed = await _set(client, "7", "Trip fine")
    assert changed["transport"] == mine and len(client.questions) == 2  # asked once more only
    assert (await _texts(emulator))["007"] == "Trip fine"
    assert recorded_on(emulator, mine)
    assert emulator.locks() == []
