"""A data element in the editor (pytest-lsp, a real server process): it opens as its ADT
document, indented, with an outline of its facts; a changed label is saved as a
token-checked patch and the system has the new label."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from support.emulated import USERS, make_client
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kinds" / "$zkinds"
DTEL = "/sap/bc/adt/ddic/dataelements/zkinds_trip_id"
URI = f"adt://A4H{DTEL}"


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(seed_dirs=[FIXTURE], users=USERS)


@pytest.mark.parametrize("client", ["visual-studio-code"], indirect=True)
async def test_open_outline_and_save_a_data_element(
    client: EditorClient, emulator: Emulator
) -> None:
    read = await client.open(URI)
    assert read["objectType"] == "DTEL/DE" and read["sourceUrl"] == DTEL
    lines = read["text"].split("\n")
    outline = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=URI))
    )
    assert outline is not None
    (top,) = outline
    assert top.name == "ZKINDS_TRIP_ID"
    (element,) = [c for c in top.children or [] if c.name == "dataElement"]  # type: ignore[union-attr]
    labels = {c.name: c.detail for c in element.children or []}  # type: ignore[union-attr]
    assert labels["mediumFieldLabel"]
    at = next(i for i, line in enumerate(lines) if "mediumFieldLabel>" in line)
    old = labels["mediumFieldLabel"]
    start = lines[at].index(old)
    client.edit(URI, (at, start), (at, start + len(old)), "Trip number")
    saved = await client.save(URI)
    assert saved["status"] == "saved", saved
    async with make_client(emulator) as adt:
        document = await adt.dictionary.read(DTEL)
    assert document.fields["labels"]["medium"]["text"] == "Trip number"
    assert emulator.locks() == []
