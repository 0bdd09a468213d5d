"""mergeOnSave: auto, against a fake editor: a save over a colleague's change elsewhere is
rebased (adt/source/rebase.py) and the editor shown the result; an overlap is asked about."""

from __future__ import annotations

import attrs
from support.fake_editor import REPORT_URI, FakeEditor, workspace_on

from adt.emulator import Emulator
from adt.systems import EditorSettings, LockMode, MergeOnSave
from lsp_server.editor import Severity
from lsp_server.results import SaveStatus
from lsp_server.workspace import EditorWorkspace


def doc_base_lines(theirs: str) -> list[str]:
    """The text the editor opened: theirs without the colleague's last line."""
    return theirs.split("\n")[:-1]


SOURCE = "/sap/bc/adt/programs/programs/zdemo_report/source/main"
AUTO = EditorSettings(poll_interval=0, ask_on_conflict=False, merge_on_save=MergeOnSave.AUTO)


async def _theirs_last_mine_first(
    workspace: EditorWorkspace, editor: FakeEditor, emulator: Emulator
) -> str:
    """The colleague appends a line; we insert one at the top. Returns their text."""
    await editor.open(REPORT_URI)
    theirs = editor.texts[REPORT_URI] + "\n* theirs"
    emulator.write_as("COLLEAGUE", SOURCE, theirs)
    editor.insert_line(REPORT_URI, 0, "* mine")
    return theirs


async def test_a_save_beside_a_colleagues_change_is_merged(emulator: Emulator) -> None:
    async with workspace_on(emulator, AUTO) as (workspace, editor):
        theirs = await _theirs_last_mine_first(workspace, editor, emulator)
        result = await workspace.save(REPORT_URI)
        assert result.status == SaveStatus.MERGED
        assert result.rebased_over is not None
        assert result.rebased_over["changedBy"] == "COLLEAGUE"
        assert result.to_dict()["rebasedOver"]["changedBy"] == "COLLEAGUE"
        stored = emulator.source(SOURCE)
        assert stored == "* mine\n" + theirs
        assert editor.texts[REPORT_URI] == stored  # the editor shows the merged text
        told = editor.said(Severity.INFO)
        last = len(stored.split("\n"))
        assert any("COLLEAGUE" in m and f"their lines: {last}" in m for m in told), told
        # the merged text is the base now: the next save is an ordinary one
        editor.insert_line(REPORT_URI, 1, "* again")
        assert (await workspace.save(REPORT_URI)).status == SaveStatus.SAVED
        assert emulator.source(SOURCE) == editor.texts[REPORT_URI]
    assert emulator.locks() == []


async def test_the_editors_base_serves_after_the_cache_forgot_it(emulator: Emulator) -> None:
    async with workspace_on(emulator, AUTO) as (workspace, editor):
        theirs = await _theirs_last_mine_first(workspace, editor, emulator)
        service = workspace.connections.service("A4H")
        service.cache.clear()
        doc = workspace.documents.require(REPORT_URI)
        ref, token = doc.ref, doc.base_token
        assert token is not None
        key = service.resolve(ref.object_url, include_type=ref.include_type).key
        # a text that is not the token's is never taken for it
        assert not service.keep_base(ref.object_url, ref.include_type, token, "* forged")
        assert service.cache.base_lines(key, token) is None
        assert (await workspace.save(REPORT_URI)).status == SaveStatus.MERGED
        assert service.cache.base_lines(key, token) == tuple(doc_base_lines(theirs))
        assert emulator.source(SOURCE) == "* mine\n" + theirs


async def test_overlapping_lines_are_a_conflict_as_before(emulator: Emulator) -> None:
    asking = EditorSettings(poll_interval=0, merge_on_save=MergeOnSave.AUTO)
    async with workspace_on(emulator, asking) as (workspace, editor):
        await editor.open(REPORT_URI)
        lines = editor.texts[REPORT_URI].split("\n")
        theirs = "\n".join(["* theirs", *lines[1:]])
        emulator.write_as("COLLEAGUE", SOURCE, theirs)
        editor.replace(REPORT_URI, "\n".join(["* mine", *lines[1:]]))
        result = await workspace.save(REPORT_URI)
        assert result.status == SaveStatus.CONFLICT and result.conflict is not None
        assert result.conflict.details["overlap"]["theirLines"] == [[1, 1]]
        await workspace.wait_idle()  # the question (unanswered: everything stays)
        assert "Their change of lines 1 is next to or inside yours" in editor.questions[0]
        assert emulator.source(SOURCE) == theirs  # nothing of ours was written
        assert editor.texts[REPORT_URI].startswith("* mine")  # our edit is kept
    assert emulator.locks() == []


async def test_ask_keeps_todays_conflict(emulator: Emulator) -> None:
    ask = EditorSettings(poll_interval=0, ask_on_conflict=False)
    async with workspace_on(emulator, ask) as (workspace, editor):
        theirs = await _theirs_last_mine_first(workspace, editor, emulator)
        assert (await workspace.save(REPORT_URI)).status == SaveStatus.CONFLICT
        assert emulator.source(SOURCE) == theirs


async def test_an_editor_that_moved_on_keeps_every_edit(emulator: Emulator) -> None:
    async with workspace_on(emulator, AUTO) as (workspace, editor):
        theirs = await _theirs_last_mine_first(workspace, editor, emulator)
        editor.follow_edits = False  # the user keeps typing: the merged text is not applied
        result = await workspace.save(REPORT_URI)
        assert result.status == SaveStatus.CONFLICT and result.conflict is not None
        assert result.conflict.details["saved"] is True
        assert emulator.source(SOURCE) == "* mine\n" + theirs  # the merge was saved
        assert editor.texts[REPORT_URI].startswith("* mine")
        editor.follow_edits = True
        assert (await workspace.conflicts.resolve(REPORT_URI, "merge")).status in (
            SaveStatus.UNCHANGED,
            SaveStatus.MERGED,
        )
        assert editor.texts[REPORT_URI] == emulator.source(SOURCE)
    assert emulator.locks() == []


async def test_an_on_edit_lock_ends_with_the_merged_save(emulator: Emulator) -> None:
    on_edit = attrs.evolve(AUTO, lock_mode=LockMode.ON_EDIT)
    async with workspace_on(emulator, on_edit) as (workspace, editor):
        await _theirs_last_mine_first(workspace, editor, emulator)
        await editor.until(lambda: bool(emulator.locks()))  # locked at the first change
        assert (await workspace.save(REPORT_URI)).status == SaveStatus.MERGED
        assert emulator.locks() == []  # clean on the merged base: released at once
