"""Renaming a CDS element end to end, for a UTF-16 (VS Code) and a UTF-8 (Neovim) client:
F2 on an element of a projection renames the alias it comes from and every place the name
travels to (the view, the projection, the metadata extension, the behavior) — the unsaved
edits of open documents included — written and activated together, or nothing is."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.cds_loop import cds_emulator
from support.lsp_editor import EditorClient

from adt.emulator import Emulator
from adt.urls import object_url

VIEW = object_url("DDLS/DF", "ZI_TRAVEL") + "/source/main"
PROJECTION = object_url("DDLS/DF", "ZC_TRAVEL") + "/source/main"
METADATA = object_url("DDLX/EX", "ZC_TRAVEL") + "/source/main"
BEHAVIOR = object_url("BDEF/BDO", "ZI_TRAVEL") + "/source/main"
ROLE = object_url("DCLS/DL", "ZI_TRAVEL") + "/source/main"
SERVICE = object_url("SRVD/SRV", "ZUI_TRAVEL") + "/source/main"
URI = {url: f"adt://A4H{url}" for url in (VIEW, PROJECTION, METADATA, BEHAVIOR, ROLE, SERVICE)}


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return cds_emulator(tmp_path)


@pytest.fixture(autouse=True)
def no_lock_left(emulator: Emulator) -> Iterator[None]:
    yield
    assert emulator.locks() == []


async def _rename(
    client: EditorClient, new: str, url: str = PROJECTION, needle: str = "AgencyID,"
) -> object:
    uri = URI[url]
    lines = client.texts[uri].split("\n")
    line = next(n for n, text in enumerate(lines) if needle in text)
    at = client.position(uri, line, lines[line].index(needle) + 3)
    return await client.text_document_rename_async(
        types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=uri), position=at, new_name=new
        )
    )


async def test_an_element_is_renamed_wherever_its_name_travels(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(URI[PROJECTION])
    client.open_on_edit = True
    client.insert_line(URI[PROJECTION], 0, "// ä😀 unsaved, written with the rename")
    await _rename(client, "AgencyCode")
    edit = client.applied_edits[-1].edit
    changed = {c.text_document.uri for c in edit.document_changes or []}  # type: ignore[union-attr]
    changed |= set(edit.changes or {})
    assert changed == set(URI.values()) - {URI[SERVICE]}
    projection = emulator.source(PROJECTION, "active") or ""
    assert projection == client.texts[URI[PROJECTION]]
    assert projection.startswith("// ä😀 unsaved") and "      AgencyCode," in projection
    assert "agency_id     as AgencyCode," in (emulator.source(VIEW, "active") or "")
    assert "AgencyID" not in (emulator.source(BEHAVIOR, "active") or "")
    assert "  AgencyCode;" in (emulator.source(METADATA, "active") or "")


async def test_a_colleagues_change_in_the_behavior_stops_the_element_rename(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(URI[PROJECTION])
    await client.open(URI[BEHAVIOR])  # read before the colleague's change
    theirs = (emulator.source(BEHAVIOR) or "") + "\n// a colleague's line"
    emulator.write_as("COLLEAGUE", BEHAVIOR, theirs)
    with pytest.raises(JsonRpcException) as refused:
        await _rename(client, "AgencyCode")
    assert "ZI_TRAVEL" in str(refused.value) and "COLLEAGUE" in str(refused.value)
    assert client.applied_edits == []
    assert "AgencyCode" not in (emulator.source(VIEW) or "") + (emulator.source(PROJECTION) or "")


async def test_a_service_alias_is_renamed_in_its_service_alone(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(URI[SERVICE])
    client.open_on_edit = True
    client.insert_line(URI[SERVICE], 0, "// ä😀 unsaved, written with the rename")
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(
            text_document=types.TextDocumentIdentifier(uri=URI[SERVICE]),
            position=client.position(URI[SERVICE], 3, len("  expose ZC_Travel as Tr")),
        )
    )
    assert prepared is not None and getattr(prepared, "placeholder", None) == "Travel"
    await _rename(client, "Trips", SERVICE, "as Travel;")
    edit = client.applied_edits[-1].edit
    changed = {c.text_document.uri for c in edit.document_changes or []}  # type: ignore[union-attr]
    assert changed | set(edit.changes or {}) == {URI[SERVICE]}
    service = emulator.source(SERVICE, "active") or ""
    assert service == client.texts[URI[SERVICE]]
    assert service.startswith("// ä😀 unsaved") and "  expose ZC_Travel as Trips;" in service
    assert "expose ZC_Booking as Booking;" in service


async def test_a_service_alias_taken_in_the_service_is_refused(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(URI[SERVICE])
    before = emulator.source(SERVICE)
    with pytest.raises(JsonRpcException) as refused:
        await _rename(client, "booking", SERVICE, "as Travel;")
    assert "ZUI_TRAVEL exposes ZC_Booking as Booking already" in str(refused.value)
    assert "unique within a service" in str(refused.value)
    assert client.applied_edits == [] and emulator.source(SERVICE) == before
