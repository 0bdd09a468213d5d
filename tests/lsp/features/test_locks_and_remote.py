"""onEdit locks and remote changes, against a fake editor."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from support.fake_editor import REPORT_URI, workspace_on

from adt.emulator import Emulator
from adt.systems import EditorSettings, LockMode
from lsp_server.editor import Severity
from lsp_server.results import SaveStatus

REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
SOURCE = f"{REPORT}/source/main"
ON_EDIT = EditorSettings(lock_mode=LockMode.ON_EDIT, poll_interval=0, check_delay=0.01)


async def test_on_edit_locks_at_the_first_change_and_releases_when_clean(
    emulator: Emulator,
) -> None:
    async with workspace_on(emulator, ON_EDIT) as (_workspace, editor):
        await editor.open(REPORT_URI)
        original = editor.texts[REPORT_URI]
        editor.insert_line(REPORT_URI, 0, "* typing")
        await editor.until(lambda: [lock.object_uri for lock in emulator.locks()] == [REPORT])
        editor.replace(REPORT_URI, original)  # undone: clean again
        await editor.until(lambda: emulator.locks() == [])


async def test_undoing_to_the_saved_text_clears_the_unsaved_texts_findings(
    emulator: Emulator,
) -> None:
    async with workspace_on(emulator, ON_EDIT) as (_workspace, editor):
        await editor.open(REPORT_URI)
        original = editor.texts[REPORT_URI]
        editor.insert_line(REPORT_URI, 3, "IF 1 = 1.")
        await editor.until(
            lambda: any(d.severity == Severity.ERROR for d in editor.published.get(REPORT_URI, []))
        )
        editor.replace(REPORT_URI, original)  # undone: the error's line is gone
        await editor.until(lambda: editor.published.get(REPORT_URI) == [])
        await editor.until(lambda: emulator.locks() == [])


async def test_closing_a_dirty_document_releases_its_lock(emulator: Emulator) -> None:
    async with workspace_on(emulator, ON_EDIT) as (workspace, editor):
        await editor.open(REPORT_URI)
        editor.insert_line(REPORT_URI, 0, "* typing")
        await editor.until(lambda: len(emulator.locks()) == 1)
        workspace.did_close(REPORT_URI)
        await editor.until(lambda: emulator.locks() == [])


async def test_leaving_on_edit_releases_the_editors_locks(emulator: Emulator) -> None:
    async with workspace_on(emulator, ON_EDIT) as (workspace, editor):
        await editor.open(REPORT_URI)
        editor.insert_line(REPORT_URI, 0, "* typing")
        await editor.until(lambda: len(emulator.locks()) == 1)
        workspace.update_settings(EditorSettings(poll_interval=0))
        await editor.until(lambda: emulator.locks() == [])
        assert workspace.documents.require(REPORT_URI).dirty  # the edit stays


async def test_entering_on_edit_at_runtime_locks_at_the_next_key(emulator: Emulator) -> None:
    """In onSave mode no feature is told of a key; the settings changing to onEdit makes the
    locks hear the next one."""
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        editor.insert_line(REPORT_URI, 0, "* typing")
        await workspace.wait_idle()
        assert emulator.locks() == []
        workspace.update_settings(ON_EDIT)
        editor.insert_line(REPORT_URI, 0, "* more")
        await editor.until(lambda: [lock.object_uri for lock in emulator.locks()] == [REPORT])
        workspace.update_settings(EditorSettings(poll_interval=0))
        await editor.until(lambda: emulator.locks() == [])


async def test_a_lock_held_by_someone_else_is_a_warning_not_a_failure(
    emulator: Emulator,
) -> None:
    emulator.lock_as("COLLEAGUE", REPORT)
    async with workspace_on(emulator, ON_EDIT) as (_workspace, editor):
        await editor.open(REPORT_URI)
        editor.insert_line(REPORT_URI, 0, "* typing")
        await editor.until(lambda: bool(editor.said(Severity.WARNING)))
        assert "saving waits" in editor.said(Severity.WARNING)[0]
    emulator.unlock_as("COLLEAGUE", REPORT)


async def test_a_clean_document_follows_the_server(emulator: Emulator) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        changed = editor.texts[REPORT_URI] + "\n* remote"
        emulator.write_as("COLLEAGUE", SOURCE, changed)
        await workspace.remote.poll_once()
        assert editor.texts[REPORT_URI] == changed
        assert any("COLLEAGUE" in m for m in editor.said(Severity.INFO))


async def test_a_read_older_than_a_save_does_not_move_the_document_back(
    emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A poll whose read was answered before a save finished (found by the Neovim suite under
    load: an agent's edit through the editor vanished from the buffer) leaves the document on
    the saved version instead of reloading the older text."""
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        doc = workspace.documents.require(REPORT_URI)
        service = workspace.remote.ctx.service_for(doc.ref)
        read_source = service.get_source_v2

        async def read_then_save(*args: Any, **kwargs: Any) -> Any:
            read = await read_source(*args, **kwargs)  # the version the editor has
            monkeypatch.setattr(service, "get_source_v2", read_source)
            editor.insert_line(REPORT_URI, 0, "* mine")
            assert (await workspace.save(REPORT_URI)).status == SaveStatus.SAVED
            return read

        monkeypatch.setattr(service, "get_source_v2", read_then_save)
        await workspace.remote.poll_once()
        saved = emulator.source(SOURCE)
        assert saved is not None and saved.startswith("* mine\n")
        assert editor.texts[REPORT_URI] == saved
        assert not editor.said(Severity.INFO), "nothing was reloaded"
        await workspace.remote.poll_once()  # the next round finds nothing new
        assert editor.texts[REPORT_URI] == saved


async def test_a_dirty_document_is_warned_once_per_remote_version(emulator: Emulator) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        editor.insert_line(REPORT_URI, 0, "* mine")
        emulator.write_as("COLLEAGUE", SOURCE, editor.texts[REPORT_URI] + "\n* remote")
        await workspace.remote.poll_once()
        await workspace.remote.poll_once()
        assert len(editor.said(Severity.WARNING)) == 1
        assert editor.texts[REPORT_URI].startswith("* mine")  # the edit is kept


async def test_a_new_poll_interval_starts_and_stops_polling(emulator: Emulator) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        workspace.update_settings(EditorSettings(poll_interval=0.02))
        changed = editor.texts[REPORT_URI] + "\n* remote"
        emulator.write_as("COLLEAGUE", SOURCE, changed)
        await editor.until(lambda: editor.texts[REPORT_URI] == changed)
        workspace.update_settings(EditorSettings(poll_interval=0))
        await asyncio.sleep(0.05)
        emulator.write_as("COLLEAGUE", SOURCE, changed + "\n* again")
        await asyncio.sleep(0.1)
        assert editor.texts[REPORT_URI] == changed  # no longer polling
