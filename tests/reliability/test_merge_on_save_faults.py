"""The fault matrix for the editor's automatic merge (``mergeOnSave: auto``): a save rebased
over a colleague's change, hit by a 503, a reset before the server or a lost answer at each
step, keeps the colleague's change, writes the user's once or not at all (the edit stays in
the editor), and leaves no lock. The service-level rebased writes are in test_fault_matrix."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import pytest
from support.fake_editor import REPORT_URI, FakeEditor
from support.faulty import Fault, FaultyTransport, faulty_client

from adt.emulator import Emulator
from adt.source import SourceConfig
from adt.systems import Connections, EditorSettings, MergeOnSave, SystemsConfig
from lsp_server.results import SaveStatus
from lsp_server.workspace import EditorWorkspace

REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
SOURCE = f"{REPORT}/source/main"
LOCK = ("POST", REPORT, "_action=LOCK")
UNLOCK = ("POST", REPORT, "_action=UNLOCK")
READ = ("GET", SOURCE, "")
PUT = ("PUT", SOURCE, "")
AUTO = EditorSettings(poll_interval=0, ask_on_conflict=False, merge_on_save=MergeOnSave.AUTO)

CASES: dict[str, tuple[tuple[str, str, str], str, SaveStatus]] = {
    "lock connection reset": (LOCK, "reset-before", SaveStatus.MERGED),
    "lock taken, answer lost": (LOCK, "reset-after", SaveStatus.MERGED),
    "read under the lock answers 503": (READ, "fail", SaveStatus.MERGED),
    "read under the lock connection reset": (READ, "reset-before", SaveStatus.MERGED),
    "put answers 503": (PUT, "fail", SaveStatus.ERROR),
    "put connection reset before the server": (PUT, "reset-before", SaveStatus.MERGED),
    "put applied, answer lost": (PUT, "reset-after", SaveStatus.MERGED),
    "unlock applied, answer lost": (UNLOCK, "reset-after", SaveStatus.MERGED),
}


@contextlib.asynccontextmanager
async def _faulty_workspace(
    emulator: Emulator,
) -> AsyncIterator[tuple[EditorWorkspace, FakeEditor, FaultyTransport]]:
    client, transport = faulty_client(emulator)
    connections = Connections(
        SystemsConfig({"A4H": client.profile}),
        source_config=SourceConfig(retry_delays=(0.0, 0.0, 0.0)),
        client_factory=lambda profile: client,
    )
    editor = FakeEditor()
    workspace = EditorWorkspace(connections, AUTO, editor)
    editor.workspace = workspace
    try:
        yield workspace, editor, transport
    finally:
        await workspace.wait_idle()
        await workspace.close()


@pytest.mark.parametrize("case", list(CASES))
async def test_an_auto_merged_save_under_faults(emulator: Emulator, case: str) -> None:
    (method, path, query), kind, expected = CASES[case]
    async with _faulty_workspace(emulator) as (workspace, editor, transport):
        await editor.open(REPORT_URI)
        theirs = editor.texts[REPORT_URI] + "\n* theirs"
        emulator.write_as("COLLEAGUE", SOURCE, theirs)
        editor.insert_line(REPORT_URI, 0, "* mine")
        mine = editor.texts[REPORT_URI]
        transport.add(Fault(method, path, query, kind=kind, count=1))
        result = await workspace.save(REPORT_URI)
        assert transport.faults[0].hits == 1, "the fault was hit"
        assert result.status == expected, result
        stored = emulator.source(SOURCE)
        if expected == SaveStatus.MERGED:
            assert stored == "* mine\n" + theirs, "saved once, over their change"
            assert editor.texts[REPORT_URI] == stored
        else:
            assert result.error is not None and result.error.message
            assert stored == theirs, "their change intact, nothing of ours written"
            assert editor.texts[REPORT_URI] == mine, "the edit stays in the editor"
    assert [lock for lock in emulator.locks() if lock.user == "DEVELOPER"] == []
