"""A CDS element renamed from ABAP, end to end, for a UTF-16 (VS Code) and a UTF-8 (Neovim)
client: F2 on ``ls_travel-totalprice`` of a structure typed by the projection renames the
element where its view gives it the name, wherever the name travels, and in ABAP every
component of data typed by those entities and every SQL name reading them — while a
structure of the program's own type keeps its component."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol import types
from support.cds_abapgit import write_samples
from support.emulated import USERS
from support.lsp_editor import EditorClient

from adt.emulator import Emulator
from adt.urls import object_url

VIEW = object_url("DDLS/DF", "ZI_TRAVEL") + "/source/main"
PROJECTION = object_url("DDLS/DF", "ZC_TRAVEL") + "/source/main"
BEHAVIOR = object_url("BDEF/BDO", "ZI_TRAVEL") + "/source/main"
PRICES = object_url("PROG/P", "ZR_TRAVEL_PRICES") + "/source/main"
REPORT = object_url("PROG/P", "ZR_TRAVELS") + "/source/main"
PRICES_SOURCE = """REPORT zr_travel_prices.
TYPES: BEGIN OF ty_own,
         totalprice TYPE p LENGTH 16 DECIMALS 2,
       END OF ty_own.
DATA ls_travel TYPE zc_travel.
DATA lt_travels TYPE STANDARD TABLE OF zi_travel WITH EMPTY KEY.
DATA ls_own TYPE ty_own.
START-OF-SELECTION.
  SELECT SINGLE totalprice FROM zi_travel WHERE travelid = '1' INTO @ls_travel-totalprice.
  ls_own-totalprice = ls_travel-totalprice + lt_travels[ 1 ]-totalprice.
"""
URI = {url: f"adt://A4H{url}" for url in (PRICES, VIEW, PROJECTION, BEHAVIOR, REPORT)}


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    samples = write_samples(tmp_path / "$zcds")
    (samples / "zr_travel_prices.prog.abap").write_text(PRICES_SOURCE, encoding="utf-8")
    return Emulator(users=USERS, seed_dirs=[samples])


@pytest.fixture(autouse=True)
def no_lock_left(emulator: Emulator) -> Iterator[None]:
    yield
    assert emulator.locks() == []


async def test_an_element_renamed_from_an_abap_component(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(URI[PRICES])
    client.open_on_edit = True
    client.insert_line(URI[PRICES], 0, "* ä😀 unsaved, written with the rename")
    lines = client.texts[URI[PRICES]].split("\n")
    line = next(n for n, text in enumerate(lines) if text.startswith("  ls_own-"))
    at = client.position(URI[PRICES], line, lines[line].index("ls_travel-totalprice") + 12)
    document = types.TextDocumentIdentifier(uri=URI[PRICES])
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=document, position=at)
    )
    assert getattr(prepared, "placeholder", None) == "TotalPrice"
    await client.text_document_rename_async(
        types.RenameParams(text_document=document, position=at, new_name="GrossPrice")
    )
    edit = client.applied_edits[-1].edit
    changed = {c.text_document.uri for c in edit.document_changes or []}  # type: ignore[union-attr]
    assert changed | set(edit.changes or {}) == set(URI.values())
    prices = emulator.source(PRICES, "active") or ""
    assert prices == client.texts[URI[PRICES]] and prices.startswith("* ä😀 unsaved")
    assert "SELECT SINGLE GrossPrice FROM zi_travel WHERE travelid" in prices
    assert "INTO @ls_travel-GrossPrice." in prices
    assert "ls_own-totalprice = ls_travel-GrossPrice + lt_travels[ 1 ]-GrossPrice." in prices
    assert "         totalprice TYPE p" in prices, "the program's own type keeps its component"
    assert "total_price   as GrossPrice," in (emulator.source(VIEW, "active") or "")
    assert "      GrossPrice," in (emulator.source(PROJECTION, "active") or "")
    assert "{ field GrossPrice; }" in (emulator.source(BEHAVIOR, "active") or "")
    assert "SELECT travelid, GrossPrice FROM zc_travel" in (emulator.source(REPORT, "active") or "")
