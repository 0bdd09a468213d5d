"""The requests behind the editors' transports view and package-wide Testing view, end to
end for a UTF-16 and a UTF-8 client: the user's open requests with tasks and openable
objects, the request an object is on, the release's checks without releasing, and every
test of a package by object, class and method."""

from __future__ import annotations

from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.emulated import USERS
from support.lsp_editor import EditorClient

from adt.emulator import Emulator
from adt.emulator.emulator import quality_samples_dir, samples_dir

SYSTEM = "A4H"
REQUEST = "A4HK900101"  # the seeded request holding ZDEMO_TR_REPORT
TR_REPORT = "/sap/bc/adt/programs/programs/zdemo_tr_report"
TR_REPORT_URI = f"adt://{SYSTEM}{TR_REPORT}/source/main"
REPORT_URI = f"adt://{SYSTEM}/sap/bc/adt/programs/programs/zdemo_report/source/main"
VAT = "/sap/bc/adt/oo/classes/zcl_demo_vat"
VAT_TESTS = f"adt://{SYSTEM}{VAT}/includes/testclasses"


@pytest.fixture
def emulator() -> Emulator:
    """The samples and the quality set ($ZDEMO_QA: ZCL_DEMO_VAT has a failing test)."""
    return Emulator(users=USERS, seed_dirs=[samples_dir(), quality_samples_dir()])


async def _execute(client: EditorClient, command: str, *arguments: Any) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments))
    )


def _status(emulator: Emulator, number: str) -> str:
    return next(r.status for r in emulator.transport_requests() if r.number == number)


async def test_my_requests_with_tasks_and_the_objects_to_open(
    client: EditorClient, emulator: Emulator
) -> None:
    mine = await _execute(client, "adt.transportRequests")
    assert mine["system"] == SYSTEM
    request = next(r for r in mine["requests"] if r["number"] == REQUEST)
    assert request["status"] == "modifiable" and request["owner"] == "DEVELOPER"
    [task] = request["tasks"]
    assert task["number"] != REQUEST and task["status"] == "modifiable"
    [entry] = task["objects"]
    assert entry == {
        "pgmid": "R3TR",
        "type": "PROG",
        "name": "ZDEMO_TR_REPORT",
        "objectUrl": TR_REPORT,
        "documentUri": TR_REPORT_URI,
    }
    # a colleague's request is not the user's
    emulator.create_transport_request("Not mine", owner="COLLEAGUE")
    again = await _execute(client, "adt.transportRequests", SYSTEM)
    assert {r["owner"] for r in again["requests"]} == {"DEVELOPER"}


async def test_the_request_an_object_is_on_is_answered_without_a_question(
    client: EditorClient,
) -> None:
    on = await _execute(client, "adt.objectTransport", TR_REPORT_URI)
    assert on["lockedIn"] == REQUEST and on["package"] == "ZDEMO_TR" and on["local"] is False
    local = await _execute(client, "adt.objectTransport", REPORT_URI)
    assert local["lockedIn"] == "" and local["required"] is False and local["local"] is True
    assert client.questions == []


async def test_release_checks_find_an_inactive_object_and_release_nothing(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(TR_REPORT_URI)
    client.insert_line(TR_REPORT_URI, 0, "* saved, not activated")
    assert (await client.save(TR_REPORT_URI))["status"] == "saved"
    checked = await _execute(client, "adt.checkRelease", REQUEST)
    assert checked["releasable"] is False
    assert checked["request"] == REQUEST and len(checked["tasks"]) == 1
    assert checked["objects"] == ["R3TR PROG ZDEMO_TR_REPORT"]
    [finding] = checked["findings"]
    assert finding["reason"] == "inactive"
    assert finding["objects"] == ["R3TR PROG ZDEMO_TR_REPORT"]
    assert "activate them first" in finding["message"]
    assert _status(emulator, REQUEST) == "D", "a check releases nothing"
    with pytest.raises(JsonRpcException, match="inactive changes"):
        await _execute(client, "adt.releaseTransport", REQUEST)
    assert _status(emulator, REQUEST) == "D"

    emulator.activate_all()
    task = checked["tasks"][0]
    task_check = await _execute(client, "adt.checkRelease", task, SYSTEM)
    assert task_check["releasable"] is True and task_check["tasks"] == [task]
    released = await _execute(client, "adt.releaseTransport", REQUEST)
    assert released["released"] == [task, REQUEST]
    with pytest.raises(JsonRpcException, match="already released"):
        await _execute(client, "adt.checkRelease", REQUEST)


async def test_release_checks_name_a_colleagues_open_task(
    client: EditorClient, emulator: Emulator
) -> None:
    number = emulator.create_transport_request("Shared request")
    with emulator.state.lock:  # a colleague joins the request with a task of their own
        colleague = emulator.state.cts.add_task(number, "COLLEAGUE").number
    checked = await _execute(client, "adt.checkRelease", number)
    assert [f["reason"] for f in checked["findings"]] == ["openTasks"]
    assert checked["findings"][0]["tasks"] == [colleague]


async def test_package_tests_answer_every_test_where_it_is(client: EditorClient) -> None:
    run = await _execute(client, "adt.runPackageTests", "$zdemo_qa")
    assert run["package"] == "$ZDEMO_QA" and run["system"] == SYSTEM
    assert run["failed"] == 1 and run["passed"] == run["tests"] - 1
    vat = next(o for o in run["objects"] if o["name"] == "ZCL_DEMO_VAT")
    assert vat["objectUrl"] == VAT and vat["documentUri"] == f"adt://{SYSTEM}{VAT}/source/main"
    classes = {c["name"]: c for c in vat["classes"]}
    ltcl_vat = classes["LTCL_VAT"]
    assert ltcl_vat["uri"] == VAT_TESTS and ltcl_vat["line"] == 7
    methods = {m["name"]: m for m in ltcl_vat["methods"]}
    assert methods["ADDS_THE_RATE"]["passed"] is True
    assert methods["ADDS_THE_RATE"]["line"] == 19 and "failure" not in methods["ADDS_THE_RATE"]
    assert isinstance(methods["ADDS_THE_RATE"]["durationMs"], int)
    failed = methods["RATE_IS_NINETEEN"]
    assert failed["passed"] is False
    assert failed["failure"]["uri"] == VAT_TESTS and failed["failure"]["line"] == 25
    assert failed["failure"]["message"]
    # the other objects of the package are there, each with its classes
    names = {o["name"] for o in run["objects"]}
    assert {"ZCL_DEMO_VAT", "ZDEMO_QA_LEGACY"} <= names
    with pytest.raises(JsonRpcException, match="package"):
        await _execute(client, "adt.runPackageTests", "  ")
