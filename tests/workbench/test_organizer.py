"""Transport requests after the changes: what a request holds, moving an object into it,
and releasing it — refused, naming the objects, while one is inactive or locked."""

from __future__ import annotations

import pytest

from adt.emulator import Emulator
from adt.source.errors import InvalidArgument, ReleaseRefused, TransportInvalid
from adt.workbench import Workbench

REPORT = "/sap/bc/adt/programs/programs/zdemo_tr_report"
ROW = "R3TR PROG ZDEMO_TR_REPORT"


def _holders(emulator: Emulator) -> dict[str, str]:
    """Request number → status, of the requests that record the report."""
    return {
        r.number: r.status
        for r in emulator.transport_requests()
        if any(o.name == "ZDEMO_TR_REPORT" for o in r.objects)
    }


async def test_move_an_object_in_then_release_once_it_is_active_and_unlocked(
    workbench: Workbench, emulator: Emulator
) -> None:
    [seeded] = _holders(emulator)
    number = await workbench.transports.create("Organizer", "ZDEMO_TR", REPORT)
    moved = await workbench.organizer.reassign(REPORT, number)
    assert moved == {"object": ROW, "from": seeded, "to": number, "moved": True}
    assert _holders(emulator) == {number: "D"}
    shown = (await workbench.organizer.contents(number)).to_dict()
    assert shown["objects"] == [ROW] and shown["tasks"][0]["objects"] == [ROW]

    source = workbench.source
    read = await source.get_source_v2(REPORT)
    await source.set_source_v2(
        REPORT, token=read.token, start_line=1, end_line=0, content="* organizer", transport=number
    )
    with pytest.raises(ReleaseRefused) as inactive:
        await workbench.organizer.release(number)
    assert inactive.value.details == {"reason": "inactive", "objects": [ROW]}
    assert (await source.activate(REPORT)).success
    await source.lock(REPORT)
    with pytest.raises(ReleaseRefused) as locked:
        await workbench.organizer.release(number)
    assert locked.value.details["reason"] == "locked" and "unLock" in locked.value.message
    assert _holders(emulator) == {number: "D"}, "nothing was released"
    await source.unlock(REPORT)

    released = await workbench.organizer.release(number)
    assert released["request"] == number and released["released"][-1] == number
    assert len(released["released"]) == 2  # the task first, then the request
    assert _holders(emulator) == {number: "R"}
    with pytest.raises(TransportInvalid):
        await workbench.organizer.release(number)
    assert emulator.locks() == []


async def test_a_colleagues_lock_is_the_systems_refusal(
    workbench: Workbench, emulator: Emulator
) -> None:
    [seeded] = _holders(emulator)
    emulator.lock_as("COLLEAGUE", REPORT)
    try:
        with pytest.raises(ReleaseRefused) as refused:
            await workbench.organizer.release(seeded)
        assert refused.value.details["reason"] == "locked"
        assert "COLLEAGUE" in refused.value.message
        assert _holders(emulator) == {seeded: "D"}
    finally:
        emulator.unlock_as("COLLEAGUE", REPORT)
    assert emulator.locks() == []


async def test_moving_to_a_task_a_released_or_a_made_up_request_moves_nothing(
    workbench: Workbench, emulator: Emulator
) -> None:
    before = _holders(emulator)
    number = await workbench.transports.create("Target", "ZDEMO_TR", REPORT)
    [task] = (await workbench.organizer.contents(number)).request.tasks
    with pytest.raises(TransportInvalid):
        await workbench.organizer.reassign(REPORT, task.number)
    with pytest.raises(InvalidArgument):
        await workbench.organizer.reassign(REPORT, "A4HK9<1>")
    with pytest.raises(InvalidArgument, match="local package"):
        await workbench.organizer.reassign("/sap/bc/adt/programs/programs/zdemo_report", number)
    assert _holders(emulator) == before
    moved = await workbench.organizer.reassign(REPORT, number)
    again = await workbench.organizer.reassign(REPORT, number)
    assert moved["moved"] and not again["moved"] and _holders(emulator) == {number: "D"}
