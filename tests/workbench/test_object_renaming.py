"""Renaming a global class or interface through the workbench: ADT plans every place of
the name; we create the new object (same package and description, every part renamed),
write every user, delete the old object and activate together — or change nothing."""

from __future__ import annotations

import pytest
from support.emulated import GREETER, REPORT

from adt.emulator import Emulator
from adt.source.errors import NameRefused, SourceError, TransportRequired, VersionConflict
from adt.workbench import Workbench
from adt.workbench.object_renaming import ObjectMove, moved_object
from adt.workbench.objects import NewObject

MAIN = f"{GREETER}/source/main"
TESTS = f"{GREETER}/includes/testclasses"
LOCALS = f"{GREETER}/includes/implementations"
NEW = "/sap/bc/adt/oo/classes/zcl_demo_hello"
INTF = "/sap/bc/adt/oo/interfaces/zif_demo_greeting"
REPORT_MAIN = f"{REPORT}/source/main"


async def _plan(workbench: Workbench, url: str, new: str) -> tuple[ObjectMove, list[object]]:
    """The rename of the object whose source ``url`` starts with its own name (line 1)."""
    read = await workbench.source.get_source_v2(object_source_url=url)
    first = read.content.split("\n")[0]
    column = first.index(" ") + 1
    name_end = column + len(first[column:].split()[0])
    proposal = await workbench.renaming.propose(url, 1, column, name_end, new)
    move = moved_object(proposal)
    assert move is not None
    return move, await workbench.renaming.saved_edits(proposal)  # type: ignore[return-value]


async def test_a_class_becomes_a_new_object_and_every_user_follows(
    workbench: Workbench, emulator: Emulator
) -> None:
    locals_before = emulator.source(LOCALS, "active")
    move, edits = await _plan(workbench, MAIN, "zcl_demo_hello")
    assert (move.old_name, move.new_name, move.new_url) == (
        "ZCL_DEMO_GREETER",
        "ZCL_DEMO_HELLO",
        NEW,
    )
    await workbench.object_renaming.check_name(move)
    outcome = await workbench.object_renaming.write_all(move, edits)  # type: ignore[arg-type]
    assert outcome.activation is not None and outcome.activation.success, outcome
    main = emulator.source(f"{NEW}/source/main", "active") or ""
    assert main.startswith("CLASS zcl_demo_hello DEFINITION")
    assert "CLASS zcl_demo_hello IMPLEMENTATION." in main
    assert "TYPE REF TO zcl_demo_hello." in (emulator.source(f"{NEW}/includes/testclasses") or "")
    assert emulator.source(f"{NEW}/includes/implementations", "active") == locals_before
    assert "NEW zcl_demo_hello( )" in (emulator.source(REPORT_MAIN, "active") or "")
    assert emulator.source(MAIN) is None, "the old class is gone"
    meta = await workbench.source.client.object_metadata(NEW)
    assert (meta.package, meta.description) == (
        "$ZDEMO",
        "Greets people (demo class with all includes)",
    )
    written = {w.source_url for w in outcome.written}
    assert {f"{NEW}/source/main", REPORT_MAIN} <= written
    assert emulator.locks() == []


async def test_an_interface_rename_changes_its_implementing_class(
    workbench: Workbench, emulator: Emulator
) -> None:
    move, edits = await _plan(workbench, f"{INTF}/source/main", "zif_demo_salute")
    outcome = await workbench.object_renaming.write_all(move, edits)  # type: ignore[arg-type]
    assert outcome.activation is not None and outcome.activation.success, outcome
    main = emulator.source(MAIN, "active") or ""
    assert "INTERFACES zif_demo_salute." in main and "METHOD zif_demo_salute~greet." in main
    assert "zif_demo_greeting" not in main.lower()
    assert emulator.source(f"{INTF}/source/main") is None
    assert emulator.locks() == []


async def test_a_colleagues_change_in_a_user_stops_everything(
    workbench: Workbench, emulator: Emulator
) -> None:
    move, edits = await _plan(workbench, MAIN, "zcl_demo_hello")
    theirs = (emulator.source(REPORT_MAIN) or "") + "\n* a colleague's line"
    emulator.write_as("COLLEAGUE", REPORT_MAIN, theirs)
    with pytest.raises(VersionConflict) as refused:
        await workbench.object_renaming.write_all(move, edits)  # type: ignore[arg-type]
    assert "nothing was renamed" in refused.value.message and "COLLEAGUE" in refused.value.message
    assert refused.value.details["objects"] == ["ZDEMO_REPORT"]
    assert emulator.source(f"{NEW}/source/main") is None, "no new object"
    assert emulator.source(MAIN) is not None and emulator.source(REPORT_MAIN) == theirs
    assert emulator.locks() == []


async def test_a_failure_after_the_creation_puts_everything_back(
    workbench: Workbench, emulator: Emulator
) -> None:
    """The system fails the deletion of the old object (the last step): the user written
    is put back and the new object deleted."""
    move, edits = await _plan(workbench, MAIN, "zcl_demo_hello")
    report_before = emulator.source(REPORT_MAIN)
    emulator.faults.fail_next(status=500, method="DELETE", path_prefix=GREETER)
    with pytest.raises(SourceError):
        await workbench.object_renaming.write_all(move, edits)  # type: ignore[arg-type]
    emulator.faults.clear()
    assert emulator.source(REPORT_MAIN) == report_before
    assert emulator.source(f"{NEW}/source/main") is None
    assert emulator.source(MAIN) is not None
    assert emulator.locks() == []


async def test_a_taken_or_foreign_name_is_refused_before_anything(
    workbench: Workbench, emulator: Emulator
) -> None:
    read = await workbench.source.get_source_v2(object_source_url=MAIN)
    with pytest.raises(Exception, match="ZCL_DEMO_COUNTER already exists"):
        await workbench.renaming.propose(MAIN, 1, 6, 22, "zcl_demo_counter")
    with pytest.raises(Exception, match="customer name range"):
        await workbench.renaming.propose(MAIN, 1, 6, 22, "cl_demo_hello")
    move = ObjectMove(
        "CLAS/OC",
        GREETER,
        "ZCL_DEMO_GREETER",
        "/sap/bc/adt/oo/classes/zcl_demo_counter",
        "ZCL_DEMO_COUNTER",
    )
    with pytest.raises(NameRefused):
        await workbench.object_renaming.check_name(move)
    assert emulator.source(MAIN) == read.content


async def test_a_transportable_class_asks_for_a_request_before_anything(
    workbench: Workbench, emulator: Emulator
) -> None:
    """As for a new object: without a request nothing is created, with one the new class
    is on it."""
    request = await workbench.transports.create("rename a class", "ZDEMO_TR")
    created = await workbench.objects.create(
        NewObject("class", "ZCL_TR_GREETER", "Greets on a request", "ZDEMO_TR", request)
    )
    await workbench.source.activate(created.object_url)
    move, edits = await _plan(workbench, created.source_url, "zcl_tr_hello")
    renamed = "/sap/bc/adt/oo/classes/zcl_tr_hello"
    with pytest.raises(TransportRequired) as refused:
        await workbench.object_renaming.write_all(move, edits)  # type: ignore[arg-type]
    assert refused.value.details["package"] == "ZDEMO_TR"
    assert emulator.source(f"{renamed}/source/main") is None
    assert emulator.locks() == []
    outcome = await workbench.object_renaming.write_all(move, edits, request)  # type: ignore[arg-type]
    assert outcome.activation is not None and outcome.activation.success, outcome
    meta = await workbench.source.client.object_metadata(renamed)
    assert meta.package == "ZDEMO_TR"
    assert emulator.source(created.source_url) is None
    assert emulator.locks() == []
