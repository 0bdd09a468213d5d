"""The language server on CDS-family documents (abap-cds, abap-bdef): outline, folding,
hover, definition and completion, on an emulator seeded with our CDS samples."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from support import cds_samples as s
from support.cds_abapgit import write_samples
from support.emulated import USERS
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

TRAVEL = "adt://A4H/sap/bc/adt/ddic/ddl/sources/zi_travel/source/main"
PROJECTION = "adt://A4H/sap/bc/adt/ddic/ddl/sources/zc_travel/source/main"
BEHAVIOR = "adt://A4H/sap/bc/adt/bo/behaviordefinitions/zi_travel/source/main"


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return Emulator(users=USERS, seed_dirs=[write_samples(tmp_path / "$zcds")])


def _document(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def _position(text: str, marker: str) -> types.Position:
    before = text[: text.index(marker)]
    return types.Position(line=before.count("\n"), character=len(before.split("\n")[-1]))


async def test_outline_and_folds_of_a_view_and_a_behavior(client: EditorClient) -> None:
    await client.open(TRAVEL)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=_document(TRAVEL))
    )
    assert symbols is not None
    (view,) = symbols
    assert (view.name, view.kind) == ("ZI_Travel", types.SymbolKind.Class)
    children = {(c.name, c.kind) for c in view.children or []}  # type: ignore[union-attr]
    assert ("_Agency", types.SymbolKind.Property) in children
    assert ("TotalPrice", types.SymbolKind.Field) in children
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=_document(TRAVEL))
    )
    assert folds is not None and [(f.start_line, f.end_line) for f in folds] == [(8, 23)]
    await client.open(BEHAVIOR)
    behaviors = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=_document(BEHAVIOR))
    )
    assert behaviors is not None
    assert [b.name for b in behaviors] == ["ZI_Travel", "ZI_Booking"]


async def test_hover_definition_and_completion(client: EditorClient) -> None:
    read = await client.open(PROJECTION)
    assert read["text"].replace("\r\n", "\n") == s.TRAVEL_PROJECTION
    hover = await client.text_document_hover_async(
        types.HoverParams(_document(PROJECTION), _position(s.TRAVEL_PROJECTION, "TravelID"))
    )
    assert hover is not None and "Travel ID" in str(hover.contents)
    where = _position(s.TRAVEL_PROJECTION, "ZI_Travel")
    definition = await client.text_document_definition_async(
        types.DefinitionParams(_document(PROJECTION), where)
    )
    targets = definition if isinstance(definition, list) else [definition]
    assert any("ddl/sources/zi_travel" in t.uri for t in targets if t is not None)  # type: ignore[union-attr]
    await client.open(TRAVEL)
    at = _position(s.TRAVEL_VIEW, "Name as AgencyName")
    completion = await client.text_document_completion_async(
        types.CompletionParams(_document(TRAVEL), at)
    )
    assert completion is not None
    items = completion.items if isinstance(completion, types.CompletionList) else completion
    assert {i.label.upper() for i in items} >= {"NAME", "AGENCYID"}


async def _format(client: EditorClient, uri: str) -> list[types.TextEdit] | None:
    return await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=_document(uri),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )


async def test_formatting_writes_defined_names_in_their_case_and_says_when_there_is_none(
    client: EditorClient, emulator: Emulator
) -> None:
    """A data definition is formatted by ADT's identifier formatter: names of what CDS
    defines come back in their defined case and nothing else moves (not the ABAP pretty
    printer, which would rewrite a DDL source as ABAP); for a behavior definition ADT has no
    formatter, and the server says so instead of doing nothing."""
    read = await client.open(PROJECTION)
    original = client.texts[PROJECTION]
    for marker, lowered in (("ZI_Travel", "zi_travel"), ("_Agency.Name", "_AGENCY.name")):
        at = _position(client.texts[PROJECTION], marker)
        end = (at.line, at.character + len(marker))
        client.edit(PROJECTION, (at.line, at.character), end, lowered)
    edits = await _format(client, PROJECTION)
    assert edits
    client.apply_text_edits(PROJECTION, edits)
    assert client.texts[PROJECTION] == original
    assert not await _format(client, PROJECTION), "formatting twice changes nothing"
    assert emulator.source(PROJECTION.removeprefix("adt://A4H")) == read["text"], "not saved"
    await client.open(BEHAVIOR)
    before = client.texts[BEHAVIOR]
    assert await _format(client, BEHAVIOR) is None
    assert client.texts[BEHAVIOR] == before
    said = [m.message for m in client.messages]
    assert any("no formatter for a Behavior Definition" in m for m in said), said


async def test_fields_of_the_entity_in_an_abap_select(client: EditorClient) -> None:
    """In the report that selects from the samples, completion inside a SELECT proposes
    the projection's elements, and after ``a~`` only the aliased table's fields."""
    uri = "adt://A4H/sap/bc/adt/programs/programs/zr_travels/source/main"
    await client.open(uri)

    async def labels(marker: str, offset: int) -> set[str]:
        at = _position(s.ABAP_REPORT, marker)
        at = types.Position(line=at.line, character=at.character + offset)
        answer = await client.text_document_completion_async(
            types.CompletionParams(_document(uri), at)
        )
        items = answer.items if isinstance(answer, types.CompletionList) else answer or []
        return {item.label.upper() for item in items}

    assert "TOTALPRICE" in await labels("totalprice FROM", 2)
    after_alias = await labels("agency_id = a~agency_id", len("agency_id = a~"))
    assert {"AGENCY_ID", "NAME"} <= after_alias and "TRAVEL_ID" not in after_alias
