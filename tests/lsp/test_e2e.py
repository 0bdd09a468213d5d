"""The language server end to end: a real server process, pytest-lsp clients with the
capabilities of real editors (VS Code: UTF-16, Neovim 0.11: UTF-8), the emulator on a socket."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.lsp_editor import EditorClient

from adt.emulator import Emulator
from adt.text import server_canonical

SYSTEM = "A4H"
REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
REPORT_URI = f"adt://{SYSTEM}{REPORT}/source/main"
GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
GREETER_MAIN = f"adt://{SYSTEM}{GREETER}/source/main"
GREETER_IMPL = f"adt://{SYSTEM}{GREETER}/includes/implementations"


def _stored(emulator: Emulator, uri_path: str) -> str:
    text = emulator.source(uri_path)
    assert text is not None
    return text


def _append_unclosed_if(client: EditorClient, uri: str) -> int:
    """Type ``IF 1 = 1.`` (never closed: a syntax error) on a new last line; returns its
    0-based line."""
    lines = client.texts[uri].split("\n")
    end = (len(lines) - 1, len(lines[-1]))
    client.edit(uri, end, end, "\n  IF 1 = 1.")
    return len(lines)


async def _execute(client: EditorClient, command: str, uri: str) -> dict[str, object]:
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=[uri])
    )
    assert isinstance(result, dict)
    return result


async def _requests_during(emulator: Emulator, seconds: float) -> int:
    """ADT requests the server makes in the next ``seconds``."""
    emulator.reset_request_log()
    await asyncio.sleep(seconds)
    return len(emulator.request_log)


# --- capabilities and editing -------------------------------------------------------------


async def test_capabilities(client: EditorClient, request: pytest.FixtureRequest) -> None:
    assert client.encoding == ("utf-8" if "neovim" in request.node.callspec.id else "utf-16")
    capabilities = client.server_capabilities
    assert capabilities is not None
    sync = capabilities.text_document_sync
    assert isinstance(sync, types.TextDocumentSyncOptions)
    assert sync.change == types.TextDocumentSyncKind.Incremental
    assert sync.open_close
    assert capabilities.execute_command_provider is not None
    assert set(capabilities.execute_command_provider.commands) == {
        "adt.activate",
        "adt.check",
        "adt.runUnitTests",
        "adt.runAtc",
        "adt.createObject",
        "adt.chooseTransport",
        "adt.transportObjects",
        "adt.releaseTransport",
        "adt.reassignTransport",
        "adt.transportRequests",
        "adt.checkRelease",
        "adt.objectTransport",
        "adt.runPackageTests",
        "adt.extractMethod",
        "adt.setMessage",
        "adt.publishServiceBinding",
    }
    completion = capabilities.completion_provider
    assert completion is not None and completion.resolve_provider
    assert capabilities.hover_provider and capabilities.definition_provider
    assert capabilities.references_provider and capabilities.folding_range_provider
    assert capabilities.document_formatting_provider
    assert capabilities.document_range_formatting_provider
    actions = capabilities.code_action_provider
    assert isinstance(actions, types.CodeActionOptions) and actions.resolve_provider
    assert types.CodeActionKind.RefactorExtract in (actions.code_action_kinds or [])
    assert capabilities.code_lens_provider is not None
    assert capabilities.type_hierarchy_provider and capabilities.call_hierarchy_provider


async def test_incremental_edits_are_saved_as_checked_patches(
    client: EditorClient, emulator: Emulator
) -> None:
    read = await client.open(REPORT_URI)
    original = read["text"].split("\n")
    client.insert_line(REPORT_URI, 6, "* Ünïcödé 😀 comment")
    client.edit(REPORT_URI, (6, 11), (6, 11), "🎉")  # right after the emoji: encoding matters
    client.edit(REPORT_URI, (1, 2), (1, 8), "Program")
    client.edit(REPORT_URI, (8, 0), (8, 0), "* pasted one\n* pasted two\n")
    client.delete_lines(REPORT_URI, 3, 4)
    emulator.reset_request_log()
    result = await client.save(REPORT_URI)
    assert result["status"] == "saved" and result["hunks"] >= 3
    fresh = await client.request("adt/readDocument", {"uri": REPORT_URI})
    assert result["token"] == fresh["token"] != read["token"], "the token of what is stored"
    assert fresh["text"] == client.texts[REPORT_URI]
    assert _stored(emulator, f"{REPORT}/source/main") == client.texts[REPORT_URI]
    assert client.texts[REPORT_URI].split("\n")[4] == "* Ünïcödé 😀🎉 comment"
    assert emulator.request_counts()[f"PUT {REPORT}/source/main"] == 1, "one PUT for all hunks"
    assert len(client.texts[REPORT_URI].split("\n")) == len(original) + 1
    again = await client.save(REPORT_URI)
    assert again["status"] == "unchanged" and again["token"] == result["token"]
    assert emulator.locks() == []


async def test_class_include_documents(client: EditorClient, emulator: Emulator) -> None:
    await client.open(GREETER_IMPL)
    client.insert_line(GREETER_IMPL, 0, "* local implementation note")
    assert (await client.save(GREETER_IMPL))["status"] == "saved"
    stored = _stored(emulator, f"{GREETER}/includes/implementations")
    assert stored.startswith("* local implementation note\n")


# --- conflicts ----------------------------------------------------------------------------


async def _conflicting_edit(client: EditorClient, emulator: Emulator, line: int) -> str:
    read = await client.open(REPORT_URI)
    lines = read["text"].split("\n")
    theirs = "\n".join([*lines[:line], "* COLLEAGUE inserted this", *lines[line:]])
    emulator.write_as("COLLEAGUE", f"{REPORT}/source/main", theirs)
    return theirs


async def test_conflict_reload_theirs(client: EditorClient, emulator: Emulator) -> None:
    theirs = await _conflicting_edit(client, emulator, 10)
    client.insert_line(REPORT_URI, 0, "* my edit")
    client.answers.append("Reload theirs")
    result = await client.save(REPORT_URI)
    assert result["status"] == "conflict" and result["conflict"]["code"] == 4003
    assert result["conflict"]["details"]["changedBy"] == "COLLEAGUE"
    assert result["conflict"]["retryAction"] == "adt/readDocument"  # the editor's words
    await client.until(lambda: client.texts[REPORT_URI] == theirs)
    assert "COLLEAGUE" in client.questions[0].message
    assert _stored(emulator, f"{REPORT}/source/main") == theirs
    client.insert_line(REPORT_URI, 0, "* after reload")
    assert (await client.save(REPORT_URI))["status"] == "saved"
    assert _stored(emulator, f"{REPORT}/source/main") == "* after reload\n" + theirs


async def test_conflict_overwrite_with_mine(client: EditorClient, emulator: Emulator) -> None:
    await _conflicting_edit(client, emulator, 10)
    client.insert_line(REPORT_URI, 0, "* my edit wins")
    client.answers.append("Overwrite with mine")
    assert (await client.save(REPORT_URI))["status"] == "conflict"
    mine = client.texts[REPORT_URI]
    await client.until(lambda: _stored(emulator, f"{REPORT}/source/main") == mine)
    assert "COLLEAGUE inserted" not in mine


async def test_conflict_merge_without_overlap(client: EditorClient, emulator: Emulator) -> None:
    theirs = await _conflicting_edit(client, emulator, 20)
    client.insert_line(REPORT_URI, 0, "* my edit at the top")
    client.answers.append("Merge")
    assert (await client.save(REPORT_URI))["status"] == "conflict"
    merged = "* my edit at the top\n" + theirs
    await client.until(lambda: _stored(emulator, f"{REPORT}/source/main") == merged)
    await client.until(lambda: client.texts[REPORT_URI] == merged)


async def test_conflict_merge_with_overlap_keeps_both_and_marks_it(
    client: EditorClient, emulator: Emulator
) -> None:
    theirs = await _conflicting_edit(client, emulator, 5)
    client.insert_line(REPORT_URI, 5, "* my line at the same place")
    client.answers.append("Merge")
    assert (await client.save(REPORT_URI))["status"] == "conflict"
    await client.until(lambda: "<<<<<<< yours (unsaved)" in client.texts[REPORT_URI])
    text = client.texts[REPORT_URI]
    assert "* my line at the same place" in text and "* COLLEAGUE inserted this" in text
    diagnostics = await client.until(lambda: client.diagnostics.get(REPORT_URI))
    assert any(d.code == "merge-conflict" for d in diagnostics)
    assert _stored(emulator, f"{REPORT}/source/main") == theirs, "nothing saved with markers"


async def test_unanswered_conflict_keeps_everything(
    client: EditorClient, emulator: Emulator
) -> None:
    theirs = await _conflicting_edit(client, emulator, 10)
    client.insert_line(REPORT_URI, 0, "* pending edit")
    mine = client.texts[REPORT_URI]
    assert (await client.save(REPORT_URI))["status"] == "conflict"
    await client.until(lambda: client.questions)
    await client.until(lambda: any("Not saved" in m.message for m in client.messages))
    assert client.texts[REPORT_URI] == mine
    assert _stored(emulator, f"{REPORT}/source/main") == theirs
    resolved = await client.request("adt/resolveConflict", {"uri": REPORT_URI, "choice": "merge"})
    assert resolved["status"] == "merged"


# --- locks and sessions -------------------------------------------------------------------


@pytest.mark.parametrize("lsp_options", [{"lockMode": "onEdit"}], indirect=True)
async def test_on_edit_lock_lifecycle(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    await client.open(REPORT_URI)
    assert emulator.locks() == []
    client.insert_line(REPORT_URI, 0, "* typing")
    await client.until(lambda: [lock.object_uri for lock in emulator.locks()] == [REPORT])
    client.delete_lines(REPORT_URI, 0, 0)  # back to clean
    await client.until(lambda: emulator.locks() == [])
    client.insert_line(REPORT_URI, 0, "* typing again")
    await client.until(lambda: emulator.locks())
    assert (await client.save(REPORT_URI))["status"] == "saved"
    await client.until(lambda: emulator.locks() == [])
    client.insert_line(REPORT_URI, 0, "* and once more")
    await client.until(lambda: emulator.locks())
    client.close(REPORT_URI)
    await client.until(lambda: emulator.locks() == [])


@pytest.mark.parametrize("lsp_options", [{"lockMode": "onEdit"}], indirect=True)
async def test_session_death_relocks_and_reverifies(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    await client.open(REPORT_URI)
    client.insert_line(REPORT_URI, 0, "* edited before the session died")
    await client.until(lambda: emulator.locks())
    emulator.expire_contexts()
    assert emulator.locks() == []
    result = await client.save(REPORT_URI)
    assert result["status"] == "saved", result
    assert any("session" in m.message and "lock" in m.message for m in client.messages)
    assert _stored(emulator, f"{REPORT}/source/main").startswith("* edited before")
    await client.until(lambda: emulator.locks() == [])

    # The session dies again, and while nobody holds the lock a colleague saves: the lock
    # taken again re-verifies the token, so nothing of theirs is overwritten.
    client.insert_line(REPORT_URI, 0, "* edited before the second death")
    await client.until(lambda: emulator.locks())
    emulator.expire_contexts()
    theirs = _stored(emulator, f"{REPORT}/source/main") + "\n* COLLEAGUE saved meanwhile"
    emulator.write_as("COLLEAGUE", f"{REPORT}/source/main", theirs)
    result = await client.save(REPORT_URI)
    assert result["status"] == "conflict", result
    assert result["conflict"]["details"]["changedBy"] == "COLLEAGUE"
    assert _stored(emulator, f"{REPORT}/source/main") == theirs
    assert [(lock.object_uri, lock.user) for lock in emulator.locks()] == [(REPORT, "DEVELOPER")]


@pytest.mark.parametrize(
    "lsp_options", [{"lockMode": "onEdit", "pollInterval": 0.1}], indirect=True
)
async def test_session_death_noticed_by_polling(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    await client.open(REPORT_URI)
    client.insert_line(REPORT_URI, 0, "* edited before the session died")
    await _emulator_until(emulator, lambda: emulator.locks())
    emulator.expire_contexts()
    assert emulator.locks() == []
    await client.until_event(lambda: any("session ended" in m.message for m in client.messages))
    await _emulator_until(
        emulator, lambda: [lock.object_uri for lock in emulator.locks()] == [REPORT]
    )
    saved = await client.save(REPORT_URI)
    assert saved["status"] == "saved", saved
    await _emulator_until(emulator, lambda: emulator.locks() == [])


async def _emulator_until(emulator: Emulator, condition: Callable[[], object]) -> None:
    """Wait for the language server (another process) to change the emulator's state:
    re-checked after every request the emulator serves, not on a clock."""
    assert await asyncio.to_thread(emulator.wait_until, condition), "the server never got there"


@pytest.mark.parametrize("lsp_options", [{"lockMode": "onEdit"}], indirect=True)
async def test_lock_mode_changes_at_runtime(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    await client.open(REPORT_URI)
    client.insert_line(REPORT_URI, 0, "* typing in onEdit mode")
    await client.until(lambda: emulator.locks())
    client.configure({"lockMode": "onSave"})
    await client.until(lambda: emulator.locks() == [])  # released at once, not at shutdown
    client.insert_line(REPORT_URI, 0, "* typing in onSave mode")
    await client.sync(REPORT_URI)
    client.configure({"lockMode": "onEdit"})
    await client.sync(REPORT_URI)
    await asyncio.sleep(0.2)
    assert emulator.locks() == [], "a dirty document is locked at its next change"
    client.insert_line(REPORT_URI, 0, "* typing in onEdit mode again")
    await client.until(lambda: emulator.locks())
    assert (await client.save(REPORT_URI))["status"] == "saved"
    assert _stored(emulator, f"{REPORT}/source/main") == client.texts[REPORT_URI]
    await client.until(lambda: emulator.locks() == [])


async def test_lock_held_by_someone_else_is_a_clear_error(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(REPORT_URI)
    client.insert_line(REPORT_URI, 0, "* blocked")
    emulator.lock_as("COLLEAGUE", REPORT)
    try:
        result = await client.save(REPORT_URI)
    finally:
        emulator.unlock_as("COLLEAGUE", REPORT)
    assert result["status"] == "error" and result["error"]["code"] == 4009
    assert "COLLEAGUE" in result["error"]["error"]
    assert (await client.save(REPORT_URI))["status"] == "saved", "the edit was kept"


# --- remote changes -----------------------------------------------------------------------


@pytest.mark.parametrize("lsp_options", [{"pollInterval": 0.1}], indirect=True)
async def test_remote_change_refreshes_a_clean_document(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    read = await client.open(REPORT_URI)
    theirs = read["text"] + "\n* changed remotely"
    emulator.write_as("COLLEAGUE", f"{REPORT}/source/main", theirs)
    await client.until(lambda: client.texts[REPORT_URI] == theirs)
    client.insert_line(REPORT_URI, 0, "* then edited here")
    assert (await client.save(REPORT_URI))["status"] == "saved"


@pytest.mark.parametrize("lsp_options", [{"pollInterval": 0.1}], indirect=True)
async def test_remote_change_warns_a_dirty_document(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    read = await client.open(REPORT_URI)
    client.insert_line(REPORT_URI, 0, "* unsaved")
    mine = client.texts[REPORT_URI]
    emulator.write_as("COLLEAGUE", f"{REPORT}/source/main", read["text"] + "\n* theirs")
    await client.until(lambda: any("changed on the server" in m.message for m in client.messages))
    assert client.texts[REPORT_URI] == mine


async def test_polling_starts_when_an_interval_is_set(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(REPORT_URI)  # the fixture starts with pollInterval 0: off
    assert await _requests_during(emulator, 0.3) == 0
    client.configure({"pollInterval": 0.1})
    await client.sync(REPORT_URI)
    assert await _requests_during(emulator, 0.6) >= 2


@pytest.mark.parametrize("lsp_options", [{"pollInterval": 0.1}], indirect=True)
async def test_polling_stops_when_the_interval_is_zero(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    await client.open(REPORT_URI)
    assert await _requests_during(emulator, 0.6) >= 2
    client.configure({"pollInterval": 0})
    await client.sync(REPORT_URI)
    await asyncio.sleep(0.2)  # a check in progress finishes
    assert await _requests_during(emulator, 0.5) == 0


# --- language features --------------------------------------------------------------------


async def test_diagnostics_after_save(client: EditorClient, emulator: Emulator) -> None:
    read = await client.open(REPORT_URI)
    count = len(read["text"].split("\n"))
    client.edit(REPORT_URI, (count - 1, 10**6), (count - 1, 10**6), "\n  IF 1 = 1.")
    assert (await client.save(REPORT_URI))["status"] == "saved"
    diagnostics = await client.until(lambda: client.diagnostics.get(REPORT_URI))
    error = diagnostics[0]
    assert error.severity == types.DiagnosticSeverity.Error
    assert (error.range.start.line, error.range.start.character) == (count, 2)
    assert "IF" in error.message


@pytest.mark.parametrize("lsp_options", [{"lockMode": "onEdit"}], indirect=True)
async def test_diagnostics_while_typing_in_on_edit_mode(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    read = await client.open(REPORT_URI)
    line = _append_unclosed_if(client, REPORT_URI)
    diagnostics = await client.until(lambda: client.diagnostics.get(REPORT_URI))
    error = diagnostics[0]
    assert error.severity == types.DiagnosticSeverity.Error
    assert (error.range.start.line, error.range.start.character) == (line, 2)
    assert "IF" in error.message
    assert _stored(emulator, f"{REPORT}/source/main") == read["text"], "checked, not saved"


async def test_check_command(client: EditorClient, emulator: Emulator) -> None:
    read = await client.open(REPORT_URI)
    clean = await _execute(client, "adt.check", REPORT_URI)
    assert clean["errorCount"] == 0
    line = _append_unclosed_if(client, REPORT_URI)  # onSave mode: no check while typing
    result = await _execute(client, "adt.check", REPORT_URI)
    assert result["errorCount"] == 1, result
    diagnostics = await client.until(lambda: client.diagnostics.get(REPORT_URI))
    assert (diagnostics[0].range.start.line, diagnostics[0].range.start.character) == (line, 2)
    assert _stored(emulator, f"{REPORT}/source/main") == read["text"], "checked, not saved"
    with pytest.raises(JsonRpcException, match="not an adt"):
        await _execute(client, "adt.check", "file:///tmp/x.abap")


async def test_document_symbols(client: EditorClient) -> None:
    await client.open(GREETER_MAIN)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=GREETER_MAIN))
    )
    assert symbols is not None
    names = [(s.name, s.detail) for s in symbols]  # type: ignore[union-attr]
    assert ("ZCL_DEMO_GREETER", "definition") in names
    assert ("ZCL_DEMO_GREETER", "implementation") in names
    implementation = next(s for s in symbols if s.detail == "implementation")  # type: ignore[union-attr]
    assert implementation.children and all(  # type: ignore[union-attr]
        c.kind == types.SymbolKind.Method
        for c in implementation.children  # type: ignore[union-attr]
    )


async def test_outline_and_folds_follow_edits(client: EditorClient) -> None:
    """After each edit, the server's outline and folds (kept between requests, sent without
    lsprotocol objects) are those of the whole text as the editor holds it."""
    from adt.abap.folding import folds
    from adt.abap.outline import outline
    from lsp_server.merge import marked_blocks, ours_view

    await client.open(GREETER_MAIN)
    ident = types.TextDocumentIdentifier(uri=GREETER_MAIN)
    edits = [
        (0, ""),
        (2, "* a comment\n* and another\n"),
        (6, "<<<<<<< yours (unsaved)\n  METHODS x.\n=======\n  METHODS y.\n>>>>>>> server\n"),
        (1, '  "! é\n'),
    ]
    for line, text in edits:
        client.edit(GREETER_MAIN, (line, 0), (line, 0), text)
        ranges = await client.text_document_folding_range_async(
            types.FoldingRangeParams(text_document=ident)
        )
        symbols = await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=ident)
        )
        lines = client.texts[GREETER_MAIN].split("\n")
        view = ours_view(lines)
        expected = [(f.start, f.end, f.kind, None) for f in folds(view)] + [
            (b.start, b.end, "region", "merge conflict") for b in marked_blocks(lines)
        ]
        got = [(r.start_line, r.end_line, r.kind, r.collapsed_text) for r in ranges or []]
        assert sorted(got) == sorted(expected) and len(got) > 3
        assert [(s.name, s.detail or "", s.range.start.line) for s in symbols or []] == [
            (w.name, w.detail, w.start[0] - 1) for w in outline(view)
        ]
        first = symbols[0]  # type: ignore[index]
        assert first.selection_range.start == first.range.start  # type: ignore[union-attr]
        assert first.selection_range.end.line == first.range.start.line  # type: ignore[union-attr]
    assert any(kind == "comment" for _, _, kind, _ in got)
    assert any(text for _, _, _, text in got)


async def test_workspace_symbols(client: EditorClient) -> None:
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="ZCL_DEMO_GR"))
    assert found is not None
    (greeter,) = [s for s in found if s.name == "ZCL_DEMO_GREETER"]
    assert greeter.location.uri == GREETER_MAIN  # type: ignore[union-attr]


async def test_activation_with_progress(client: EditorClient, emulator: Emulator) -> None:
    await client.open(REPORT_URI)
    client.insert_line(REPORT_URI, 0, "* to activate")
    dirty = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="adt.activate", arguments=[REPORT_URI])
    )
    assert dirty["activated"] is False and "save first" in dirty["reason"]
    await client.save(REPORT_URI)
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="adt.activate", arguments=[REPORT_URI])
    )
    assert result["activated"] is True
    assert emulator.source(f"{REPORT}/source/main", "active") == client.texts[REPORT_URI]
    reports = [r for steps in client.progress_reports.values() for r in steps]
    assert any(isinstance(r, types.WorkDoneProgressBegin) for r in reports)
    assert any(isinstance(r, types.WorkDoneProgressEnd) for r in reports)


async def test_activation_errors_become_diagnostics(
    client: EditorClient, emulator: Emulator
) -> None:
    read = await client.open(REPORT_URI)
    line = _append_unclosed_if(client, REPORT_URI)
    assert (await client.save(REPORT_URI))["status"] == "saved"
    await client.until(lambda: client.diagnostics.get(REPORT_URI))  # the check after the save
    client.diagnostics.pop(REPORT_URI)
    result = await _execute(client, "adt.activate", REPORT_URI)
    assert result["activated"] is False and result["findings"], result
    diagnostics = await client.until(lambda: client.diagnostics.get(REPORT_URI))
    error = diagnostics[0]
    assert error.severity == types.DiagnosticSeverity.Error
    assert (error.range.start.line, error.range.start.character) == (line, 2)
    assert "IF" in error.message
    assert emulator.source(f"{REPORT}/source/main", "active") == read["text"]


# --- our requests -------------------------------------------------------------------------


async def test_open_object_structure_and_search(client: EditorClient) -> None:
    opened = await client.request("adt/openObject", {"name": "zcl_demo_greeter"})
    assert opened["found"] and opened["uri"] == GREETER_MAIN
    structure = await client.request("adt/objectStructure", {"uri": GREETER_MAIN})
    includes = {i["includeType"]: i["uri"] for i in structure["includes"]}
    assert includes["implementations"] == GREETER_IMPL
    hits = await client.request("adt/searchObjects", {"query": "ZDEMO*", "maxResults": 10})
    assert REPORT_URI in [h.get("documentUri") for h in hits]
    missing = await client.request("adt/openObject", {"name": "ZNOPE_NOTHING"})
    assert missing["found"] is False
    await _package_contents(client)


async def _package_contents(client: EditorClient) -> None:
    """A package tree's two levels: ``$TMP`` lists its sub-packages, ``$ZDEMO`` its objects,
    those with a source carrying the document URI an editor opens; a package that does not
    exist and a name that cannot be one are errors."""
    tmp = await client.request("adt/packageContents", {"package": "$tmp"})
    assert (tmp["package"], tmp["system"], tmp["objects"]) == ("$TMP", SYSTEM, [])
    assert [p["name"] for p in tmp["packages"]] == ["$ZDEMO", "ZDEMO_TR"]
    demo = await client.request("adt/packageContents", {"package": "$ZDEMO"})
    assert demo["packages"] == []
    by_name = {o["name"]: o for o in demo["objects"]}
    assert by_name["ZCL_DEMO_GREETER"]["type"] == "CLAS/OC"
    assert by_name["ZCL_DEMO_GREETER"]["documentUri"] == GREETER_MAIN
    assert by_name["ZDEMO_REPORT"]["documentUri"] == REPORT_URI
    assert [(o["type"], o["name"]) for o in demo["objects"]] == sorted(
        (o["type"], o["name"]) for o in demo["objects"]
    )
    with pytest.raises(JsonRpcException, match="ZNOPE"):
        await client.request("adt/packageContents", {"package": "ZNOPE"})
    with pytest.raises(JsonRpcException, match="not a package name"):
        await client.request("adt/packageContents", {"package": "a b"})


async def test_bad_requests_get_clear_errors(client: EditorClient) -> None:
    with pytest.raises(JsonRpcException, match="uri"):
        await client.request("adt/saveDocument", {})
    with pytest.raises(JsonRpcException, match="not an adt"):
        await client.request("adt/readDocument", {"uri": "file:///etc/passwd"})
    with pytest.raises(JsonRpcException, match="not open"):
        await client.save("adt://A4H/sap/bc/adt/programs/programs/zdemo_include/source/main")
    with pytest.raises(JsonRpcException, match="unknown system"):
        await client.request(
            "adt/readDocument", {"uri": "adt://PRD/sap/bc/adt/oo/classes/x/source/main"}
        )


async def test_document_opened_without_read(client: EditorClient, emulator: Emulator) -> None:
    text = _stored(emulator, f"{REPORT}/source/main")
    client.open_text(REPORT_URI, text + "\n* restored unsaved edit")
    result = await client.until(lambda: client.save(REPORT_URI))
    assert (await result)["status"] == "saved"
    assert _stored(emulator, f"{REPORT}/source/main").endswith("* restored unsaved edit")


@pytest.mark.parametrize("lsp_options", [{"askOnConflict": False}], indirect=True)
async def test_editor_driven_conflict_resolution(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    theirs = await _conflicting_edit(client, emulator, 20)
    client.insert_line(REPORT_URI, 0, "* mine")
    assert (await client.save(REPORT_URI))["status"] == "conflict"
    resolved = await client.request("adt/resolveConflict", {"uri": REPORT_URI, "choice": "merge"})
    assert resolved["status"] == "merged"
    assert _stored(emulator, f"{REPORT}/source/main") == "* mine\n" + theirs
    assert client.questions == [], "the server did not ask: the editor resolved it"
    assert not any("Not saved" in m.message for m in client.messages)


@pytest.mark.parametrize("client", ["neovim"], indirect=True)  # one encoding: a server start
@pytest.mark.parametrize("lsp_options", [{"mergeOnSave": "auto"}], indirect=True)
async def test_save_merges_over_a_colleagues_change_elsewhere(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    theirs = await _conflicting_edit(client, emulator, 20)
    client.insert_line(REPORT_URI, 0, "* mine")
    result = await client.save(REPORT_URI)
    assert result["status"] == "merged", result
    assert result["rebasedOver"]["changedBy"] == "COLLEAGUE"
    stored = _stored(emulator, f"{REPORT}/source/main")
    assert stored == "* mine\n" + theirs
    await client.until(lambda: client.texts[REPORT_URI] == stored)  # the editor shows it
    told = await client.until(lambda: [m for m in client.messages if "merged" in m.message])
    assert "COLLEAGUE" in told[0].message and "their lines: 22" in told[0].message
    assert client.questions == []
    assert emulator.locks() == []


# --- didSave (saveOnDidSave) ----------------------------------------------------------------


@pytest.mark.parametrize("lsp_options", [{"saveOnDidSave": True}], indirect=True)
async def test_did_save_saves(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    await client.open(REPORT_URI)
    client.insert_line(REPORT_URI, 0, "* saved through didSave")
    client.did_save(REPORT_URI)
    await client.until(
        lambda: _stored(emulator, f"{REPORT}/source/main") == client.texts[REPORT_URI]
    )
    await client.until(lambda: any(m.message.startswith("Saved") for m in client.messages))
    client.insert_line(REPORT_URI, 0, "* blocked")
    emulator.lock_as("COLLEAGUE", REPORT)
    try:
        client.did_save(REPORT_URI)
        failed = await client.until(lambda: [m for m in client.messages if "failed" in m.message])
    finally:
        emulator.unlock_as("COLLEAGUE", REPORT)
    assert failed[0].type == types.MessageType.Error and "COLLEAGUE" in failed[0].message
    assert not _stored(emulator, f"{REPORT}/source/main").startswith("* blocked")


@pytest.mark.parametrize(
    "lsp_options", [{"saveOnDidSave": True, "askOnConflict": False}], indirect=True
)
async def test_did_save_conflict_is_reported_when_not_asked(
    client: EditorClient, emulator: Emulator, lsp_options: dict[str, object]
) -> None:
    theirs = await _conflicting_edit(client, emulator, 10)
    client.insert_line(REPORT_URI, 0, "* mine")
    mine = client.texts[REPORT_URI]
    client.did_save(REPORT_URI)
    reported = await client.until(lambda: [m for m in client.messages if "Not saved" in m.message])
    assert reported[0].type == types.MessageType.Warning
    assert "COLLEAGUE" in reported[0].message
    assert client.questions == []
    assert client.texts[REPORT_URI] == mine
    assert _stored(emulator, f"{REPORT}/source/main") == theirs


async def test_many_random_keystrokes_reach_the_server_exactly(
    client: EditorClient, emulator: Emulator
) -> None:
    """Every change goes through the server's fast path; after 300 random keystrokes and
    pastes (UTF-16 or UTF-8 positions, multi-byte characters), the saved source is the
    editor's text, character for character."""
    rng = random.Random(1124)
    await client.open(REPORT_URI)
    for _ in range(300):
        lines = client.texts[REPORT_URI].split("\n")
        line = rng.randrange(len(lines))
        start = rng.randint(0, len(lines[line]))
        end_line = min(len(lines) - 1, line + rng.choice([0, 0, 0, 1]))
        end = rng.randint(0, len(lines[end_line])) if end_line != line else start
        text = rng.choice(["x", "é", "😀", "\n* new line\n", "", "ab"])
        client.edit(REPORT_URI, (line, start), (end_line, end), text)
    assert (await client.save(REPORT_URI))["status"] == "saved"
    stored = _stored(emulator, f"{REPORT}/source/main")
    assert stored == server_canonical(client.texts[REPORT_URI])  # as SAP stores any text
