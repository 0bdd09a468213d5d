"""Extract method end to end, for a UTF-16 (VS Code) and a UTF-8 (Neovim) client: a
selection offers a ``refactor.extract`` code action; its command asks ADT for the method and
its signature, hands the editor one annotated edit (workspace/applyEdit) and, once applied,
writes the source token-checked under its lock — with the buffer's unsaved edits — or not at
all, and activates it. The emulator's lock table is empty at the end of every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

MAIN = "/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main"
MAIN_URI = f"adt://A4H{MAIN}"
NON_ASCII = "ä😀"


@pytest.fixture(autouse=True)
def no_lock_left(emulator: Emulator) -> Iterator[None]:
    yield
    assert emulator.locks() == []


def _lines(client: EditorClient, first: str, last: str) -> tuple[int, int]:
    numbered = list(enumerate(client.texts[MAIN_URI].split("\n")))
    start = next(n for n, line in numbered if first in line)
    return start, next(n for n, line in numbered if n >= start and last in line)


async def _extract_action(client: EditorClient, first: int, last: int) -> types.CodeAction:
    """The code action offered for lines ``first``–``last`` selected whole."""
    selection = types.Range(
        start=client.position(MAIN_URI, first, 0), end=client.position(MAIN_URI, last + 1, 0)
    )
    offered = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=MAIN_URI),
            range=selection,
            context=types.CodeActionContext(
                diagnostics=[], trigger_kind=types.CodeActionTriggerKind.Invoked
            ),
        )
    )
    action = next(a for a in offered or [] if a.kind == types.CodeActionKind.RefactorExtract)
    assert isinstance(action, types.CodeAction) and action.command is not None
    return action


async def _run(client: EditorClient, action: types.CodeAction, name: str) -> object:
    assert action.command is not None
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command=action.command.command, arguments=[*(action.command.arguments or []), name]
        )
    )


async def test_extract_writes_the_method_with_unsaved_edits_and_activates(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    client.insert_line(MAIN_URI, 0, f"* {NON_ASCII} an unsaved line, written with the method")
    first, last = _lines(client, "IF iv_name IS INITIAL.", "ENDIF.")
    action = await _extract_action(client, first, last)
    assert action.title == "Extract method"
    result = await _run(client, action, "greeting_for")
    assert result == {
        "method": "greeting_for",
        "signature": "IMPORTING iv_name TYPE string EXPORTING rv_text TYPE string",
        "objects": ["ZCL_DEMO_GREETER"],
        "activated": True,
    }
    edit = client.applied_edits[-1].edit
    if edit.change_annotations:  # VS Code: confirmation per object
        assert all(a.needs_confirmation for a in edit.change_annotations.values())
    text = client.texts[MAIN_URI]
    assert text == emulator.source(MAIN, "active"), "the editor shows what was written"
    assert text.startswith(f"* {NON_ASCII} an unsaved line")
    assert "    greeting_for(\n      EXPORTING iv_name = iv_name\n" in text
    assert "  METHOD greeting_for.\n    IF iv_name IS INITIAL." in text
    assert "METHODS greeting_for\n      IMPORTING\n        iv_name TYPE string" in text
    saved = await client.save(MAIN_URI)
    assert saved["status"] == "unchanged", "the written version is the document's base"


async def test_half_a_block_or_a_colleagues_change_writes_nothing(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    loop, _ = _lines(client, "LOOP AT it_names", "LOOP AT it_names")
    half = await _extract_action(client, loop, loop)
    with pytest.raises(JsonRpcException, match="opens a block it does not close"):
        await _run(client, half, "half")
    assert client.applied_edits == [], "refused before the editor sees anything"

    first, last = _lines(client, "mv_salutation = iv_salutation.", "NEW lcl_formatter")
    action = await _extract_action(client, first, last)
    theirs = (emulator.source(MAIN) or "") + "\n* a colleague's comment"
    client.before_apply = lambda: emulator.write_as("COLLEAGUE", MAIN, theirs)
    with pytest.raises(JsonRpcException) as refused:
        await _run(client, action, "setup")
    assert "ZCL_DEMO_GREETER" in str(refused.value) and "COLLEAGUE" in str(refused.value)
    assert emulator.source(MAIN) == theirs, "nothing written"
