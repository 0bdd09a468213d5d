"""Rename end to end, for a UTF-16 (VS Code) and a UTF-8 (Neovim) client: prepareRename
names the symbol; rename hands the editor one annotated edit over every affected object
(workspace/applyEdit, needing confirmation) and, once applied, writes all sources
token-checked under locks — or none — and activates them. The emulator's lock table is
empty at the end of every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

SYSTEM = "A4H"
GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
MAIN = f"{GREETER}/source/main"
TESTS = f"{GREETER}/includes/testclasses"
INTF = "/sap/bc/adt/oo/interfaces/zif_demo_greeting/source/main"
MAIN_URI = f"adt://{SYSTEM}{MAIN}"
TESTS_URI = f"adt://{SYSTEM}{TESTS}"
INTF_URI = f"adt://{SYSTEM}{INTF}"
REPORT_URI = f"adt://{SYSTEM}/sap/bc/adt/programs/programs/zdemo_report/source/main"
NON_ASCII = "ä😀"


@pytest.fixture(autouse=True)
def no_lock_left(emulator: Emulator) -> Iterator[None]:
    yield
    assert emulator.locks() == []


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def _line_of(text: str, needle: str) -> tuple[int, int]:
    for number, line in enumerate(text.split("\n")):
        if needle in line:
            return number, line.index(needle)
    raise AssertionError(needle)


async def _rename(client: EditorClient, uri: str, needle: str, offset: int, new: str) -> object:
    line, column = _line_of(client.texts[uri], needle)
    at = client.position(uri, line, column + offset)
    return await client.text_document_rename_async(
        types.RenameParams(text_document=_doc(uri), position=at, new_name=new)
    )


def _with_non_ascii_call(emulator: Emulator) -> str:
    """The saved test include with non-ASCII text before a call of ``greet_all`` on its
    line, so edit positions differ between UTF-8 and UTF-16."""
    text = emulator.source(TESTS) or ""
    call = "DATA(lt_lines) = mo_cut->greet_all("
    changed = text.replace(call, f"DATA(lv_tag) = |{NON_ASCII}|. {call}")
    emulator.write_as("DEVELOPER", TESTS, changed)
    return changed


async def test_rename_writes_every_object_with_unsaved_edits_and_activates(
    client: EditorClient, emulator: Emulator
) -> None:
    _with_non_ascii_call(emulator)
    await client.open(MAIN_URI)
    client.open_on_edit = True
    client.insert_line(MAIN_URI, 0, f"* {NON_ASCII} an unsaved line, written with the rename")
    line, column = _line_of(client.texts[MAIN_URI], "METHODS greet_all")
    at = client.position(MAIN_URI, line, column + len("METHODS gr"))
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=_doc(MAIN_URI), position=at)
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder)
    assert prepared.placeholder == "greet_all"
    start = column + len("METHODS ")
    assert prepared.range == types.Range(
        start=client.position(MAIN_URI, line, start),
        end=client.position(MAIN_URI, line, start + len("greet_all")),
    )

    answer = await _rename(client, MAIN_URI, "METHODS greet_all", 10, "greet_each")
    assert answer == types.WorkspaceEdit() or answer is None  # applied through applyEdit
    edit = client.applied_edits[-1].edit
    changed = {c.text_document.uri for c in edit.document_changes or []}  # type: ignore[union-attr]
    changed |= set(edit.changes or {})
    assert changed == {MAIN_URI, TESTS_URI}
    if edit.change_annotations:  # VS Code: one per object, each needing confirmation
        assert all(a.needs_confirmation for a in edit.change_annotations.values())
        assert "ZCL_DEMO_GREETER" in edit.change_annotations[TESTS_URI].label
    # the client applied the positions it was sent: its texts are renamed, in its encoding
    assert "greet_all" not in client.texts[MAIN_URI] + client.texts[TESTS_URI]
    assert f"|{NON_ASCII}|. DATA(lt_lines) = mo_cut->greet_each(" in client.texts[TESTS_URI]
    active_main = emulator.source(MAIN, "active") or ""
    assert active_main == client.texts[MAIN_URI], "the unsaved line was written too"
    assert active_main.startswith(f"* {NON_ASCII} an unsaved line")
    assert "METHOD greet_each." in active_main
    assert emulator.source(TESTS, "active") == client.texts[TESTS_URI]
    saved = await client.save(MAIN_URI)
    assert saved["status"] == "unchanged", "the written version is the document's base"


async def test_a_colleagues_change_stops_the_rename_before_the_editor_sees_it(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    await client.open(INTF_URI)  # read before the colleague's change
    before_main = emulator.source(MAIN)
    theirs = (emulator.source(INTF) or "") + "\n* a colleague's comment"
    emulator.write_as("COLLEAGUE", INTF, theirs)
    with pytest.raises(JsonRpcException) as refused:
        await _rename(client, MAIN_URI, "METHOD zif_demo_greeting~greet", 28, "salute")
    assert "ZIF_DEMO_GREETING" in str(refused.value)
    assert "COLLEAGUE" in str(refused.value)
    assert client.applied_edits == [], "nothing offered to the editor"
    assert emulator.source(MAIN) == before_main and emulator.source(INTF) == theirs


async def test_a_change_while_the_user_confirms_writes_nothing(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    client.open_on_edit = True
    before_main = emulator.source(MAIN)
    theirs = (emulator.source(INTF) or "") + "\n* changed while the preview was shown"
    client.before_apply = lambda: emulator.write_as("COLLEAGUE", INTF, theirs)
    with pytest.raises(JsonRpcException) as refused:
        await _rename(client, MAIN_URI, "METHOD zif_demo_greeting~greet", 28, "salute")
    assert "nothing was renamed" in str(refused.value) and "ZIF_DEMO_GREETING" in str(refused.value)
    assert emulator.source(MAIN) == before_main, "no object written"
    assert emulator.source(INTF) == theirs
    assert "salute" in client.texts[MAIN_URI], "the editor keeps the applied edit (undo)"


async def test_a_declined_rename_writes_nothing(client: EditorClient, emulator: Emulator) -> None:
    await client.open(MAIN_URI)
    client.decline_edits = True
    before = emulator.source(MAIN)
    with pytest.raises(JsonRpcException, match="nothing was written"):
        await _rename(client, MAIN_URI, "METHODS greet_all", 10, "greet_each")
    assert emulator.source(MAIN) == before


async def test_a_refused_name_and_a_program(client: EditorClient) -> None:
    """A program is no rename target (classes and interfaces are: test_e2e_rename_objects)."""
    await client.open(MAIN_URI)
    with pytest.raises(JsonRpcException, match="not a valid ABAP name"):
        await _rename(client, MAIN_URI, "METHODS greet_all", 10, "greet all")
    await client.open(REPORT_URI)
    line, column = _line_of(client.texts[REPORT_URI], "REPORT zdemo_report")
    with pytest.raises(JsonRpcException, match="repository object"):
        await client.text_document_prepare_rename_async(
            types.PrepareRenameParams(
                text_document=_doc(REPORT_URI),
                position=client.position(REPORT_URI, line, column + 8),
            )
        )
