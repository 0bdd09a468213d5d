"""The editor follows the server version its document is based on: who changed it last on
reading and saving, and ``adt/baseVersion`` whenever the base moves (save, refresh, agent)."""

from __future__ import annotations

from support.fake_editor import REPORT_URI, workspace_on

from adt.emulator import Emulator

REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
SOURCE = f"{REPORT}/source/main"


async def test_a_read_names_who_changed_the_source_last(emulator: Emulator) -> None:
    text = emulator.source(SOURCE)
    assert text is not None
    emulator.write_as("COLLEAGUE", SOURCE, "* theirs\n" + text)
    async with workspace_on(emulator) as (workspace, _editor):
        read = await workspace.objects.read_document(REPORT_URI)
        assert read.changed_by == "COLLEAGUE", "named although no metadata was cached"
        assert read.to_dict()["changedBy"] == "COLLEAGUE"


async def test_a_save_names_the_user_and_tells_the_editor_the_new_base(
    emulator: Emulator,
) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        await workspace.wait_idle()
        assert editor.base_versions == [], "opening is no move of the base"
        editor.insert_line(REPORT_URI, 0, "* mine")
        saved = await workspace.save(REPORT_URI)
        assert saved.to_dict()["changedBy"] == "DEVELOPER"
        await workspace.wait_idle()
        assert editor.base_versions == [(REPORT_URI, saved.token, saved.changed_at, "DEVELOPER")]


async def test_a_refresh_and_an_agent_edit_tell_the_editor(emulator: Emulator) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        emulator.write_as("COLLEAGUE", SOURCE, editor.texts[REPORT_URI] + "\n* remote")
        await workspace.remote.poll_once()
        await workspace.wait_idle()
        doc = workspace.documents.require(REPORT_URI)
        assert editor.base_versions[-1][1] == doc.base_token
        assert editor.base_versions[-1][3] == "COLLEAGUE"

        view = workspace.agent_views.view("A4H", REPORT, "main")
        assert view is not None
        outcome = await workspace.agent_views.write_through(
            view, doc.base_token, lambda base: "* agent\n" + base, lock_handle=None, transport=None
        )
        await workspace.wait_idle()
        assert editor.base_versions[-1] == (
            REPORT_URI,
            outcome.token,
            outcome.changed_at,
            "DEVELOPER",
        )
        assert len(editor.base_versions) == 2
    assert emulator.locks() == []


async def test_the_editor_learns_of_an_inactive_version_and_of_its_activation(
    emulator: Emulator,
) -> None:
    """A save leaves an inactive version (the system runs the active one); the editor hears
    it with the new base, and hears again when the object is activated."""
    async with workspace_on(emulator) as (workspace, editor):
        read = await workspace.objects.read_document(REPORT_URI)
        assert read.inactive is False and read.to_dict()["inactive"] is False
        await editor.open(REPORT_URI)
        doc = workspace.documents.require(REPORT_URI)
        assert doc.inactive is False, "known from the read the editor opened"

        editor.insert_line(REPORT_URI, 0, "* mine")
        await workspace.save(REPORT_URI)
        await workspace.wait_idle()
        assert editor.inactive[REPORT_URI] is True and doc.inactive is True

        activated = await workspace.activation.activate(REPORT_URI)
        assert activated.outcome is not None and activated.outcome.success
        await workspace.wait_idle()
        assert editor.inactive[REPORT_URI] is False and doc.inactive is False
        assert editor.base_versions[-1][1] == doc.base_token, "the same version, now active"
    assert emulator.locks() == []
