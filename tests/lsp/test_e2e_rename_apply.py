"""What the editor really applied of a rename decides what is written: VS Code's refactor
preview lets the user untick changes and still answers "applied", and Neovim sends its
changes after its answer. The server writes only when the buffers hold the planned texts;
otherwise nothing is written and the buffers keep what the editor applied. The emulator's
lock table is empty at the end of every test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
MAIN = f"{GREETER}/source/main"
TESTS = f"{GREETER}/includes/testclasses"
MAIN_URI = f"adt://A4H{MAIN}"
TESTS_URI = f"adt://A4H{TESTS}"


@pytest.fixture(autouse=True)
def no_lock_left(emulator: Emulator) -> Iterator[None]:
    yield
    assert emulator.locks() == []


async def _rename_greet_all(client: EditorClient) -> object:
    lines = client.texts[MAIN_URI].split("\n")
    line = next(n for n, text in enumerate(lines) if "METHODS greet_all" in text)
    column = lines[line].index("greet_all") + 2
    return await client.text_document_rename_async(
        types.RenameParams(
            text_document=types.TextDocumentIdentifier(uri=MAIN_URI),
            position=client.position(MAIN_URI, line, column),
            new_name="greet_each",
        )
    )


async def test_a_document_left_out_in_the_preview_writes_nothing(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    client.open_on_edit = True
    saved = {MAIN: emulator.source(MAIN), TESTS: emulator.source(TESTS)}
    client.keep_edits = lambda uri, edits: [] if uri == TESTS_URI else edits
    with pytest.raises(JsonRpcException) as refused:
        await _rename_greet_all(client)
    said = str(refused.value)
    assert "only part of the edit in ZCL_DEMO_GREETER" in said and "nothing was written" in said
    assert {MAIN: emulator.source(MAIN), TESTS: emulator.source(TESTS)} == saved
    assert "greet_each" in client.texts[MAIN_URI], "the editor keeps what it applied"
    assert TESTS_URI not in client.texts, "nothing applied there: the editor did not open it"


async def test_an_open_document_left_unchanged_writes_nothing(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    await client.open(TESTS_URI)
    saved = {MAIN: emulator.source(MAIN), TESTS: emulator.source(TESTS)}
    client.keep_edits = lambda uri, edits: [] if uri == MAIN_URI else edits
    with pytest.raises(JsonRpcException, match="only part of the edit in ZCL_DEMO_GREETER"):
        await _rename_greet_all(client)
    assert {MAIN: emulator.source(MAIN), TESTS: emulator.source(TESTS)} == saved
    assert "greet_each" in client.texts[TESTS_URI] and "greet_each" not in client.texts[MAIN_URI]


async def test_one_change_left_out_of_a_document_writes_nothing(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    client.open_on_edit = True
    saved = emulator.source(MAIN)
    client.keep_edits = lambda uri, edits: edits[1:] if uri == MAIN_URI else edits
    with pytest.raises(JsonRpcException, match="only part of the edit"):
        await _rename_greet_all(client)
    assert emulator.source(MAIN) == saved
    main = client.texts[MAIN_URI]
    assert "greet_each" in main and "greet_all" in main, "the buffer holds the partial edit"
    answer = await client.save(MAIN_URI)
    assert answer["status"] == "saved", "a save writes what the buffer shows"
    assert emulator.source(MAIN) == main


async def test_changes_sent_after_the_editors_answer_are_waited_for(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(MAIN_URI)
    client.open_on_edit = True
    client.changes_after = 0.3  # as Neovim's debounced didChange
    await _rename_greet_all(client)
    main = emulator.source(MAIN, "active") or ""
    assert "greet_all" not in main and main == client.texts[MAIN_URI]
    assert emulator.source(TESTS, "active") == client.texts[TESTS_URI]
    assert (await client.save(MAIN_URI))["status"] == "unchanged"


async def test_the_editor_is_told_the_written_documents_are_clean(
    client: EditorClient, emulator: Emulator
) -> None:
    """So VS Code and Neovim can drop their unsaved mark on the tabs the server wrote."""
    await client.open(MAIN_URI)
    client.open_on_edit = True
    await _rename_greet_all(client)

    def told(uri: str) -> bool:
        return any(
            b["uri"] == uri and b["clean"] is True and b["version"] == client.versions[uri]
            for b in client.base_versions
        )

    await client.until_event(lambda: told(MAIN_URI) and told(TESTS_URI))


async def test_a_source_changed_since_it_was_read_is_named_before_planning(
    client: EditorClient, emulator: Emulator
) -> None:
    """ADT would plan at the buffer's line numbers on the colleague's text: other lines."""
    await client.open(MAIN_URI)
    theirs = "* a colleague's line on top\n" + (emulator.source(MAIN) or "")
    emulator.write_as("COLLEAGUE", MAIN, theirs)
    with pytest.raises(JsonRpcException) as refused:
        await _rename_greet_all(client)
    said = str(refused.value)
    assert "changed on the server since it was read" in said and "COLLEAGUE" in said, said
    assert client.applied_edits == [] and emulator.source(MAIN) == theirs
