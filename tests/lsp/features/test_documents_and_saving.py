"""Documents and saving, against a fake editor: the base, the patch, the new token."""

from __future__ import annotations

from support.fake_editor import REPORT_URI, workspace_on

from adt.emulator import Emulator
from lsp_server.editor import Severity
from lsp_server.results import SaveStatus

REPORT_SOURCE = "/sap/bc/adt/programs/programs/zdemo_report/source/main"


async def test_a_document_read_first_is_based_on_that_read(emulator: Emulator) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        doc = workspace.documents.require(REPORT_URI)
        assert doc.base_ready.is_set() and doc.base_token is not None and not doc.dirty
        editor.insert_line(REPORT_URI, 0, "* added")
        assert doc.dirty and doc.buffer.text == editor.texts[REPORT_URI]
        workspace.did_close(REPORT_URI)
        assert REPORT_URI not in workspace.documents
        assert editor.published[REPORT_URI] == []  # closing clears its diagnostics


async def test_a_document_opened_without_a_read_fetches_its_base(emulator: Emulator) -> None:
    async with workspace_on(emulator) as (workspace, _editor):
        text = emulator.source(REPORT_SOURCE)
        assert text is not None
        doc = workspace.did_open(REPORT_URI, text, 1, "utf-16")
        await workspace.wait_idle()
        assert doc.base_ready.is_set() and doc.base_token is not None and not doc.dirty


async def test_saving_writes_only_the_changed_lines_and_adopts_the_new_token(
    emulator: Emulator,
) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        unchanged = await workspace.save(REPORT_URI)
        assert unchanged.status == SaveStatus.UNCHANGED
        editor.insert_line(REPORT_URI, 2, "* saved line")
        emulator.reset_request_log()
        saved = await workspace.save(REPORT_URI)
        assert saved.status == SaveStatus.SAVED and saved.hunks == 1
        assert emulator.source(REPORT_SOURCE) == editor.texts[REPORT_URI]
        doc = workspace.documents.require(REPORT_URI)
        assert doc.base_token == saved.token and not doc.dirty
        assert sum(1 for e in emulator.request_log if e.method == "PUT") == 1
        assert saved.to_dict()["status"] == "saved"
    assert emulator.locks() == []


async def test_a_save_refused_by_the_backend_is_an_error_result_not_an_exception(
    emulator: Emulator,
) -> None:
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        editor.insert_line(REPORT_URI, 0, "* mine")
        emulator.lock_as("COLLEAGUE", "/sap/bc/adt/programs/programs/zdemo_report")
        result = await workspace.save(REPORT_URI)
        assert result.status == SaveStatus.ERROR and result.error is not None
        assert result.error.name == "OBJECT_LOCKED" and "COLLEAGUE" in result.error.message
        assert workspace.documents.require(REPORT_URI).dirty  # nothing lost
        emulator.unlock_as("COLLEAGUE", "/sap/bc/adt/programs/programs/zdemo_report")
        assert (await workspace.save(REPORT_URI)).status == SaveStatus.SAVED
        assert not editor.said(Severity.ERROR)
