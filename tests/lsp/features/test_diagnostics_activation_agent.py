"""Diagnostics, activation and the agent's writes through open documents, against a fake
editor."""

from __future__ import annotations

import pytest
from support.fake_editor import REPORT_URI, workspace_on

from adt.emulator import Emulator
from adt.source.errors import VersionConflict
from lsp_server.editor import Severity

REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
SOURCE = f"{REPORT}/source/main"


async def test_a_check_of_unsaved_text_is_published_where_the_error_is(
    emulator: Emulator,
) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        editor.insert_line(REPORT_URI, 3, "IF 1 = 1.")
        result = await workspace.diagnostics.check(REPORT_URI)
        assert result.outcome.errors
        published = editor.published[REPORT_URI]
        assert published and published[0].severity == Severity.ERROR
        assert emulator.source(SOURCE) != editor.texts[REPORT_URI]  # nothing was saved


async def test_activation_refuses_unsaved_changes_and_reports_findings(
    emulator: Emulator,
) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        editor.insert_line(REPORT_URI, 3, "IF 1 = 1.")
        refused = await workspace.activation.activate(REPORT_URI)
        assert not refused.activated and "save first" in refused.reason
        await workspace.save(REPORT_URI)
        steps: list[str] = []
        failed = await workspace.activation.activate(REPORT_URI, steps.append)
        assert not failed.activated and steps == [f"Activating {REPORT}", "failed"]
        assert any(d.severity == Severity.ERROR for d in editor.published[REPORT_URI])


async def test_an_agent_edit_lands_in_the_clean_buffer(emulator: Emulator) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        doc = workspace.agent_views.view("a4h", REPORT, "main")
        assert doc is not None
        outcome = await workspace.agent_views.write_through(
            doc, doc.base_token, lambda base: "* agent\n" + base, lock_handle=None, transport=None
        )
        assert editor.texts[REPORT_URI] == emulator.source(SOURCE) == outcome.text
        assert not doc.dirty and doc.base_token == outcome.token
    assert emulator.locks() == []


async def test_an_agent_edit_that_overlaps_unsaved_lines_is_refused(emulator: Emulator) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        stored = emulator.source(SOURCE)
        editor.insert_line(REPORT_URI, 0, "* user")
        doc = workspace.documents.require(REPORT_URI)
        with pytest.raises(VersionConflict, match="unsaved changes that overlap"):
            await workspace.agent_views.write_through(
                doc,
                doc.base_token,
                lambda base: "* agent\n" + base,
                lock_handle=None,
                transport=None,
            )
        assert emulator.source(SOURCE) == stored and editor.texts[REPORT_URI].startswith("* user")
        # issue 18: the editor's user is told too, not only the agent
        [(uri, message)] = editor.refused_agent_edits
        assert uri == REPORT_URI
        assert "An agent's change to" in message and "it changes lines you are editing" in message
        assert "save them (or undo them)" in message


async def test_an_agent_edit_on_a_newer_version_than_unsaved_edits_is_refused_and_told(
    emulator: Emulator,
) -> None:
    """The agent read the source after a colleague changed it; the editor's unsaved edits
    started from the version before: nothing is written and the editor's user is told."""
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        editor.insert_line(REPORT_URI, 0, "* user")
        emulator.write_as("COLLEAGUE", SOURCE, (emulator.source(SOURCE) or "") + "* theirs\n")
        doc = workspace.documents.require(REPORT_URI)
        fresh = await workspace.ctx.service_for(doc.ref).get_source_v2(REPORT, fresh=True)
        with pytest.raises(VersionConflict, match="older version"):
            await workspace.agent_views.write_through(
                doc, fresh.token, lambda base: base + "* agent\n", lock_handle=None, transport=None
            )
        [(uri, message)] = editor.refused_agent_edits
        assert uri == REPORT_URI and "your unsaved edits started from an older version" in message
        assert "* agent" not in (emulator.source(SOURCE) or "")
