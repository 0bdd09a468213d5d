"""The rename feature against a fake editor on the in-process emulator: in ``onEdit`` lock
mode the document's own lock is used for the rename (not refused as someone else's), the
unsaved edits are written with it, the lock is released once the document is clean, and the
objects are activated together."""

from __future__ import annotations

from support.fake_editor import GREETER_URI, workspace_on

from adt.emulator import Emulator
from adt.systems import EditorSettings, LockMode

MAIN = "/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main"
TESTS = "/sap/bc/adt/oo/classes/zcl_demo_greeter/includes/testclasses"


async def test_a_rename_under_the_documents_own_edit_lock(emulator: Emulator) -> None:
    settings = EditorSettings(poll_interval=0, lock_mode=LockMode.ON_EDIT)
    async with workspace_on(emulator, settings) as (workspace, editor):
        await editor.open(GREETER_URI)
        editor.insert_line(GREETER_URI, 0, "* unsaved")
        await editor.until(lambda: len(emulator.locks()) == 1)  # the onEdit lock
        lines = editor.texts[GREETER_URI].split("\n")
        line = next(i for i, text in enumerate(lines) if "METHODS greet_all" in text)
        column = lines[line].index("greet_all") + 2
        plan = await workspace.renaming.plan(GREETER_URI, (line, column), "greet_each")
        assert plan.objects == ["ZCL_DEMO_GREETER"] and plan.places == 3
        main = next(s for s in plan.sources if s.source_url == MAIN)
        editor.replace(GREETER_URI, main.text)  # the editor applied the edit
        outcome = await workspace.renaming.commit(plan)
        assert outcome.activation is not None and outcome.activation.success
        assert outcome.activation_failure is None
        active = emulator.source(MAIN, "active") or ""
        assert active.startswith("* unsaved\n") and "METHOD greet_each." in active
        assert "mo_cut->greet_each(" in (emulator.source(TESTS, "active") or "")
        assert not workspace.documents.require(GREETER_URI).dirty
        assert emulator.locks() == [], "the edit lock went with the unsaved edits"
