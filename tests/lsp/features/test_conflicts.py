"""Conflicts, against a fake editor: reload, overwrite, merge, asked or requested."""

from __future__ import annotations

import pytest
from support.fake_editor import REPORT_URI, FakeEditor, workspace_on

from adt.emulator import Emulator
from adt.source.errors import InvalidArgument
from adt.systems import EditorSettings
from lsp_server.results import SaveStatus
from lsp_server.workspace import EditorWorkspace

SOURCE = "/sap/bc/adt/programs/programs/zdemo_report/source/main"
QUIET = EditorSettings(poll_interval=0, ask_on_conflict=False)


async def _conflict(workspace: EditorWorkspace, editor: FakeEditor, emulator: Emulator) -> str:
    """The colleague changes the last line, we change the first; the save conflicts."""
    await editor.open(REPORT_URI)
    theirs = editor.texts[REPORT_URI] + "\n* theirs"
    emulator.write_as("COLLEAGUE", SOURCE, theirs)
    editor.insert_line(REPORT_URI, 0, "* mine")
    result = await workspace.save(REPORT_URI)
    assert result.status == SaveStatus.CONFLICT and result.conflict is not None
    assert result.conflict.details["changedBy"] == "COLLEAGUE"
    assert emulator.source(SOURCE) == theirs  # nothing of ours was written
    return theirs


async def test_reload_takes_theirs(emulator: Emulator) -> None:
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        theirs = await _conflict(workspace, editor, emulator)
        result = await workspace.conflicts.resolve(REPORT_URI, "reload")
        assert result.status == SaveStatus.RELOADED
        assert editor.texts[REPORT_URI] == theirs
        assert (await workspace.conflicts.resolve(REPORT_URI, "reload")).status == (
            SaveStatus.NO_CONFLICT
        )


async def test_overwrite_writes_mine_over_theirs(emulator: Emulator) -> None:
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        await _conflict(workspace, editor, emulator)
        result = await workspace.conflicts.resolve(REPORT_URI, "overwrite")
        assert result.status == SaveStatus.SAVED
        assert emulator.source(SOURCE) == editor.texts[REPORT_URI]
        assert "* theirs" not in editor.texts[REPORT_URI]
    assert emulator.locks() == []


async def test_merge_keeps_both_when_they_do_not_overlap(emulator: Emulator) -> None:
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        await _conflict(workspace, editor, emulator)
        result = await workspace.conflicts.resolve(REPORT_URI, "merge")
        assert result.status == SaveStatus.MERGED
        stored = emulator.source(SOURCE)
        assert stored is not None and stored.startswith("* mine") and stored.endswith("* theirs")


async def test_overlapping_edits_get_markers_and_diagnostics(emulator: Emulator) -> None:
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        await editor.open(REPORT_URI)
        lines = editor.texts[REPORT_URI].split("\n")
        emulator.write_as("COLLEAGUE", SOURCE, "\n".join(["* theirs", *lines[1:]]))
        editor.replace(REPORT_URI, "\n".join(["* mine", *lines[1:]]))
        assert (await workspace.save(REPORT_URI)).status == SaveStatus.CONFLICT
        result = await workspace.conflicts.resolve(REPORT_URI, "merge")
        assert result.status == SaveStatus.MERGE_CONFLICTS and result.conflicts
        assert "<<<<<<<" in editor.texts[REPORT_URI]
        markers = [d for d in editor.published[REPORT_URI] if d.code == "merge-conflict"]
        assert len(markers) == 1


async def test_a_bad_choice_is_refused(emulator: Emulator) -> None:
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        await _conflict(workspace, editor, emulator)
        with pytest.raises(InvalidArgument, match="reload, overwrite or merge"):
            await workspace.conflicts.resolve(REPORT_URI, "keep both")


async def test_the_user_is_asked_and_their_answer_is_done(emulator: Emulator) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        editor.answers.append("Reload theirs")
        theirs = await _conflict(workspace, editor, emulator)
        await workspace.wait_idle()
        assert "COLLEAGUE" in editor.questions[0]
        assert editor.texts[REPORT_URI] == theirs
