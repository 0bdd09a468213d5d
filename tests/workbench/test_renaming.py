"""Rename across objects through the workbench: ADT plans (evaluate, preview), we write all
sources token-checked under our locks — or none — and activate them together."""

from __future__ import annotations

import pytest
from support.emulated import GREETER, ServiceFactory

from adt.emulator import Emulator
from adt.source.errors import InvalidArgument, ObjectLocked, VersionConflict
from adt.workbench import Workbench
from adt.workbench.renaming import apply_replacements

MAIN = f"{GREETER}/source/main"
TESTS = f"{GREETER}/includes/testclasses"


async def _at_declaration(workbench: Workbench, name: str) -> tuple[int, int]:
    read = await workbench.source.get_source_v2(object_source_url=MAIN)
    for number, line in enumerate(read.content.split("\n"), start=1):
        column = line.lower().find(f"methods {name}")
        if column >= 0:
            return number, column + len("methods ")
    raise AssertionError(name)


async def test_a_method_is_renamed_in_every_source_and_activated(
    workbench: Workbench, emulator: Emulator
) -> None:
    line, column = await _at_declaration(workbench, "greet_all")
    proposal = await workbench.renaming.propose(MAIN, line, column, column + 9, "greet_each")
    assert proposal.old_name == "greet_all"
    assert {a.source_url for a in proposal.affected} == {MAIN, TESTS}
    assert proposal.places == 3
    edits = await workbench.renaming.saved_edits(proposal)
    outcome = await workbench.renaming.write_all(edits)
    assert {w.source_url for w in outcome.written} == {MAIN, TESTS}
    assert outcome.activation is not None and outcome.activation.success
    main = emulator.source(MAIN, "active")
    tests = emulator.source(TESTS, "active")
    assert "greet_all" not in main.lower() and "METHOD greet_each." in main
    assert "mo_cut->greet_each(" in tests
    assert emulator.locks() == []


async def test_a_colleagues_change_stops_the_whole_rename(
    workbench: Workbench, emulator: Emulator
) -> None:
    line, column = await _at_declaration(workbench, "greet_all")
    proposal = await workbench.renaming.propose(MAIN, line, column, column + 9, "greet_each")
    edits = await workbench.renaming.saved_edits(proposal)
    theirs = emulator.source(TESTS, "inactive") + "\n* reviewed"
    emulator.write_as("COLLEAGUE", TESTS, theirs)
    with pytest.raises(VersionConflict) as refused:
        await workbench.renaming.write_all(edits)
    assert refused.value.details["objects"] == ["ZCL_DEMO_GREETER"]
    assert "COLLEAGUE" in refused.value.message
    assert "greet_each" not in emulator.source(MAIN, "inactive")  # nothing written
    assert emulator.source(TESTS, "inactive") == theirs
    assert emulator.locks() == []


async def test_an_object_someone_else_edits_stops_the_rename(
    workbench: Workbench, emulator: Emulator, make_service: ServiceFactory
) -> None:
    line, column = await _at_declaration(workbench, "greet_all")
    proposal = await workbench.renaming.propose(MAIN, line, column, column + 9, "greet_each")
    edits = await workbench.renaming.saved_edits(proposal)
    colleague = make_service("COLLEAGUE")
    await colleague.locks.lock(GREETER, owner="colleague")
    try:
        with pytest.raises(ObjectLocked) as refused:
            await workbench.renaming.write_all(edits)
        assert "ZCL_DEMO_GREETER" in refused.value.message
    finally:
        await colleague.locks.unlock(GREETER, owner="colleague")
    assert "greet_each" not in emulator.source(MAIN, "inactive")
    assert emulator.locks() == []


async def test_a_refused_name_is_a_typed_error(workbench: Workbench) -> None:
    line, column = await _at_declaration(workbench, "greet_all")
    with pytest.raises(Exception, match="not a valid ABAP name"):
        await workbench.renaming.propose(MAIN, line, column, column + 9, "greet all")
    with pytest.raises(InvalidArgument):
        await workbench.renaming.propose(MAIN, line, column, column + 9, "  ")


def test_replacements_refuse_a_text_that_moved() -> None:
    from adt.areas.refactoring import TextReplacement

    moved = "  METHOD greet_all.\n"
    assert apply_replacements(moved, [TextReplacement(1, 9, 18, "greet_all", "x")]) == (
        "  METHOD x.\n"
    )
    with pytest.raises(VersionConflict):
        apply_replacements(" " + moved, [TextReplacement(1, 9, 18, "greet_all", "x")])
