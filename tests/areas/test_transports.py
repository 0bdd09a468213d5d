"""``client.transports`` (and ``client.objects`` in a transportable package) on the emulator,
plus the parsers over the A4H ``cts`` captures."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.captures import capture
from support.emulated import make_client

from adt.areas.transport_results import (
    parse_check,
    parse_details,
    parse_release,
    parse_user_requests,
)
from adt.areas.transports import (
    LockedInOtherRequestError,
    TransportRequestError,
    TransportRequiredError,
    transport_error,
)
from adt.emulator import Emulator
from adt.errors import BadRequestError, ServerFailure

CLASS = "/sap/bc/adt/oo/classes/zcl_tr_cycle"
SOURCE = (
    "CLASS zcl_tr_cycle DEFINITION PUBLIC FINAL CREATE PUBLIC.\n"
    "  PUBLIC SECTION.\n    METHODS hello RETURNING VALUE(r) TYPE string.\nENDCLASS.\n\n"
    "CLASS zcl_tr_cycle IMPLEMENTATION.\n  METHOD hello.\n    r = `hello`.\n  ENDMETHOD.\n"
    "ENDCLASS.\n"
)


async def test_full_cycle_in_a_transportable_package(emulator: Emulator) -> None:
    async with make_client(emulator) as adt:
        check = await adt.transports.check(CLASS, "ZDEMO_TR")
        assert check.needs_request and check.recording and not check.is_local
        with pytest.raises(TransportRequiredError):
            await adt.objects.create(
                "CLAS/OC", "ZCL_TR_CYCLE", package="ZDEMO_TR", description="Cycle"
            )
        with pytest.raises(TransportRequestError):
            await adt.objects.create(
                "CLAS/OC",
                "ZCL_TR_CYCLE",
                package="ZDEMO_TR",
                description="Cycle",
                transport="A4HK999999",
            )
        number = await adt.transports.create("Cycle test", "ZDEMO_TR", object_url=CLASS)
        assert number in [
            r.number for r in (await adt.transports.check(CLASS, "ZDEMO_TR")).requests
        ]
        created = await adt.objects.create(
            "CLAS/OC", "ZCL_TR_CYCLE", package="ZDEMO_TR", description="Cycle", transport=number
        )
        assert created.object_url == CLASS
        assert (await adt.transports.check(CLASS, "ZDEMO_TR", operation="U")).locked_in == number
        assert (await adt.object_metadata(CLASS)).version == "inactive"

        other = await adt.transports.create("Another request", "ZDEMO_TR")
        async with adt.locked(CLASS) as lock:
            assert (lock.corrnr, lock.corrtext, lock.is_local) == (number, "Cycle test", False)
            with pytest.raises(ServerFailure) as refused:
                await adt.write_source(
                    created.source_url, SOURCE, lock_handle=lock.handle, corr_nr=other
                )
            typed = transport_error(refused.value)
            assert isinstance(typed, LockedInOtherRequestError) and typed.request == number
            await adt.write_source(
                created.source_url, SOURCE, lock_handle=lock.handle, corr_nr=lock.corrnr
            )
        assert (await adt.activate(CLASS)).success

        details = await adt.transports.details(number)
        [task] = details.tasks
        assert (task.owner, task.type, task.modifiable) == (
            "DEVELOPER",
            "Development/Correction",
            True,
        )
        assert [(o.type, o.name, o.locked) for o in task.objects] == [
            ("CLAS", "ZCL_TR_CYCLE", True)
        ]
        mine = await adt.transports.user_requests()
        assert {number, other} <= {r.number for r in mine.modifiable}

        await adt.objects.delete(CLASS)  # the lock names the request: it is used
        assert adt.held_locks == {}
        with pytest.raises(BadRequestError):
            await adt.transports.delete(number)  # the deletion is recorded, locked in it
        await adt.transports.delete(other)
        assert other not in [r.number for r in emulator.transport_requests()]
    assert emulator.locks() == []
    assert CLASS not in emulator.objects()


async def test_release_task_then_request(emulator: Emulator) -> None:
    async with make_client(emulator) as adt:
        number = await adt.transports.create("Release me", "ZDEMO_TR")
        [task] = (await adt.transports.details(number)).tasks
        unclassified = await adt.transports.release(task.number)
        assert not unclassified.released
        assert (
            unclassified.messages[0].text
            == f"Task {task.number} is unclassified (it cannot be released)"
        )
        await adt.objects.create(
            "PROG/P", "ZTR_RELEASED", package="ZDEMO_TR", description="Release", transport=number
        )
        inactive = await adt.transports.release(task.number)
        assert inactive.status == "abortrelinacobj"
        assert (await adt.activate("/sap/bc/adt/programs/programs/ztr_released")).success
        waiting = await adt.transports.release(number)
        assert waiting.messages[0].text == f"Referencing task {task.number} not yet released"
        assert (await adt.transports.release(task.number)).released
        assert (await adt.transports.release(number)).released
        released = await adt.transports.details(number)
        assert not released.modifiable
        assert [o.name for o in released.all_objects] == ["ZTR_RELEASED"]
        assert [o.pgmid for o in released.objects] == ["CORR", "R3TR"]
        via_task = await adt.transports.details(task.number)
        assert via_task.number == number and via_task.tasks[0].status == "R"
        mine = await adt.transports.user_requests()
        assert number in [r.number for r in mine.released]


async def test_generated_requests_option() -> None:
    emulator = Emulator(
        users={"DEVELOPER": "developer", "COLLEAGUE": "colleague"}, generate_requests=True
    )
    async with make_client(emulator) as adt:
        created = await adt.objects.create(
            "PROG/P", "ZTR_GENERATED", package="ZDEMO_TR", description="No request given"
        )
        lock = await adt.lock(created.object_url)
        assert lock.corrtext == "Generated Request for Change Recording"
        await adt.unlock(created.object_url, lock.handle)
    assert [r.text for r in emulator.transport_requests()][-1] == lock.corrtext


async def test_local_package_check(emulator: Emulator) -> None:
    async with make_client(emulator) as adt:
        check = await adt.transports.check("/sap/bc/adt/programs/programs/zdemo_report", "$ZDEMO")
        assert check.is_local and not check.needs_request and check.requests == ()
        assert (check.pgmid, check.object_type, check.object_name) == (
            "LIMU",
            "REPS",
            "ZDEMO_REPORT",
        )


# --- parsers over the captures -------------------------------------------------------


def _body(name: str) -> bytes:
    body = capture(f"a4h/cts/{name}").body
    assert body is not None
    return body


def test_check_parser_on_captures(adt_captures: Path) -> None:
    local = parse_check(_body("transport-info-tmp"))
    assert local.is_local and local.package_text == "Temporary Objects (never transported!)"
    open_ = parse_check(_body("transport-info-transportable-new-object"))
    assert open_.needs_request and [r.number for r in open_.requests] == [
        "A4HK900131",
        "A4HK900111",
    ]
    assert open_.requests[1].owner == "USER1" and open_.uri.endswith("/source/main")
    held = parse_check(_body("transport-info-after-create-with-corrnr"))
    assert held.locked_in == "A4HK900140" and held.existing_only and not held.needs_request
    assert held.lock is not None and held.lock.tasks[0].number == "A4HK900141"
    refused = parse_check(_body("transport-info-error-messages"))
    assert refused.result == "E"
    [message] = refused.messages
    assert (message.area, message.number, message.variables[:3]) == (
        "TO",
        "140",
        ("PROG", "ZMCP_CTS_PROBE9", "SABAPDEMOS"),
    )


def test_details_and_tree_parsers_on_captures(adt_captures: Path) -> None:
    request = parse_details(_body("transport-details-after-create-with-corrnr"))
    assert (request.number, request.type, request.modifiable) == ("A4HK900140", "K", True)
    assert [o.name for o in request.all_objects] == ["ZMCP_D1_A01"]
    via_task = parse_details(_body("transport-details-task-resolves-to-parent"))
    assert via_task.number == "A4HK900131" and via_task.tasks[0].number == "A4HK900132"
    released = parse_details(_body("transport-details-released"))
    assert [o.pgmid for o in released.objects] == ["CORR", "R3TR"]
    flat = parse_user_requests(_body("user-transports-targets-false"))
    assert [r.number for r in flat.released] == ["A4HK900125", "A4HK900121"] and not flat.modifiable
    by_config = parse_user_requests(_body("transports-by-config"))
    assert by_config.modifiable[0].number == "A4HK900117"
    assert "A4HK900044" in [r.number for r in by_config.modifiable]  # under a tm:target
    empty = parse_user_requests(_body("user-transports-targets-true-empty"))
    assert empty.modifiable == empty.released == ()


def test_release_parser_on_captures(adt_captures: Path) -> None:
    done = parse_release(_body("transport-release-success"))
    assert done.released and done.number == "A4HK900122" and done.messages == ()
    failed = parse_release(_body("transport-release-abort-inactive-object"))
    assert not failed.released and failed.status == "abortrelinacobj"
    assert failed.status_text.startswith("Release of transport request/task A4HK900122 has failed")
    assert [m.text for m in failed.messages] == ["Object REPS ZMCP_CTS_REL is inactive"]
