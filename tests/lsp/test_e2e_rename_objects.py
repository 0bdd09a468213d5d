"""Renaming a global class end to end, for a UTF-16 (VS Code) and a UTF-8 (Neovim) client:
F2 on the class name hands the editor one annotated edit over the class and its users; once
applied, the new class is created with the renamed text (the unsaved edits included), the
users are written, the old class is deleted and all is activated together — or nothing is.
The editor is shown the new class's document; the old one is marked gone. The emulator's
lock table is empty at the end of every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

SYSTEM = "A4H"
GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
HELLO = "/sap/bc/adt/oo/classes/zcl_demo_hello"
MAIN = f"{GREETER}/source/main"
REPORT = "/sap/bc/adt/programs/programs/zdemo_report/source/main"
MAIN_URI = f"adt://{SYSTEM}{MAIN}"
TESTS_URI = f"adt://{SYSTEM}{GREETER}/includes/testclasses"
REPORT_URI = f"adt://{SYSTEM}{REPORT}"
HELLO_URI = f"adt://{SYSTEM}{HELLO}/source/main"
NON_ASCII = "ä😀"


@pytest.fixture(autouse=True)
def no_lock_left(emulator: Emulator) -> Iterator[None]:
    yield
    assert emulator.locks() == []


def _at_class_name(client: EditorClient) -> types.Position:
    lines = client.texts[MAIN_URI].split("\n")
    line = next(n for n, text in enumerate(lines) if text.startswith("CLASS zcl_demo_greeter DEF"))
    return client.position(MAIN_URI, line, len("CLASS zcl_demo"))


async def _rename(client: EditorClient, new: str) -> object:
    return await client.text_document_rename_async(
        types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=MAIN_URI),
            position=_at_class_name(client),
            new_name=new,
        )
    )


async def test_a_class_becomes_a_new_object_with_its_unsaved_edits(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    client.open_on_edit = True
    client.insert_line(MAIN_URI, 0, f"* {NON_ASCII} unsaved, moved with the class")
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(
            text_document=types.TextDocumentIdentifier(uri=MAIN_URI),
            position=_at_class_name(client),
        )
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder)
    assert prepared.placeholder == "zcl_demo_greeter"

    await _rename(client, "zcl_demo_hello")
    edit = client.applied_edits[-1].edit
    changed = {c.text_document.uri for c in edit.document_changes or []}  # type: ignore[union-attr]
    changed |= set(edit.changes or {})
    assert changed == {MAIN_URI, TESTS_URI, REPORT_URI}
    new_main = emulator.source(f"{HELLO}/source/main", "active") or ""
    assert new_main == client.texts[MAIN_URI], "the new class has what the editor showed"
    assert new_main.startswith(f"* {NON_ASCII} unsaved, moved with the class\nCLASS zcl_demo_hello")
    assert "NEW zcl_demo_hello( )" in (emulator.source(REPORT, "active") or "")
    assert emulator.source(MAIN) is None, "the old class is gone"
    # the editor is shown the new document; the old one is marked gone
    shown = {d.uri for d in client.shown_documents}
    assert shown == {HELLO_URI, f"adt://{SYSTEM}{HELLO}/includes/testclasses"}, "both were open"
    last = client.shown_documents[-1]
    assert (last.uri, last.take_focus) == (HELLO_URI, True), "where the rename started"
    assert (await client.open(HELLO_URI))["text"] == new_main
    await client.until(lambda: client.diagnostics.get(MAIN_URI))
    assert "no longer exists" in client.diagnostics[MAIN_URI][0].message
    saved = await client.save(REPORT_URI)
    assert saved["status"] == "unchanged", "the written version is the user's base"


async def test_a_colleagues_change_in_a_user_stops_the_class_rename(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    await client.open(REPORT_URI)  # read before the colleague's change
    theirs = (emulator.source(REPORT) or "") + "\n* a colleague's line"
    emulator.write_as("COLLEAGUE", REPORT, theirs)
    with pytest.raises(JsonRpcException) as refused:
        await _rename(client, "zcl_demo_hello")
    assert "ZDEMO_REPORT" in str(refused.value) and "COLLEAGUE" in str(refused.value)
    assert client.applied_edits == [], "nothing offered to the editor"
    assert emulator.source(f"{HELLO}/source/main") is None and emulator.source(MAIN) is not None


async def test_a_change_while_the_user_confirms_creates_nothing(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    client.open_on_edit = True
    theirs = (emulator.source(REPORT) or "") + "\n* changed while the preview was shown"
    client.before_apply = lambda: emulator.write_as("COLLEAGUE", REPORT, theirs)
    with pytest.raises(JsonRpcException) as refused:
        await _rename(client, "zcl_demo_hello")
    assert "nothing was renamed" in str(refused.value) and "ZDEMO_REPORT" in str(refused.value)
    assert emulator.source(f"{HELLO}/source/main") is None, "no new class"
    assert emulator.source(MAIN) is not None and emulator.source(REPORT) == theirs
    assert client.shown_documents == []


async def test_a_taken_name_is_refused_before_the_editor_sees_anything(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    with pytest.raises(JsonRpcException, match="ZCL_DEMO_COUNTER already exists"):
        await _rename(client, "zcl_demo_counter")
    assert client.applied_edits == []


@pytest.mark.parametrize("lsp_options", [{"lockMode": "onEdit"}], indirect=True)
async def test_the_editors_lock_on_the_old_class_ends_with_it(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    """With ``lockMode: onEdit`` the first keystroke locks the class; the rename uses that
    lock, and it ends with the deleted class (nothing is left locked, nothing released
    twice)."""
    await client.open(MAIN_URI)
    client.open_on_edit = True
    client.insert_line(MAIN_URI, 0, "* typed: the editor locks the class")
    await client.until(lambda: [e.object_uri for e in emulator.locks()] == [GREETER])
    await _rename(client, "zcl_demo_hello")
    assert (emulator.source(f"{HELLO}/source/main", "active") or "").startswith("* typed")
    assert emulator.source(MAIN) is None
    assert emulator.locks() == []
