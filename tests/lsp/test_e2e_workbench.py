"""The development loop's commands end to end, for a UTF-16 and a UTF-8 client: ABAP Unit
from code lenses with failures as diagnostics, ATC, new objects, the transport question on
create and on save, versions. Where a position matters, non-ASCII text ("ä" and an emoji)
stands before it on its line."""

from __future__ import annotations

from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.emulated import make_client
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

SYSTEM = "A4H"
GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
GREETER_MAIN = f"adt://{SYSTEM}{GREETER}/source/main"
GREETER_TESTS = f"adt://{SYSTEM}{GREETER}/includes/testclasses"
REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
REPORT_URI = f"adt://{SYSTEM}{REPORT}/source/main"
TR_REPORT = "/sap/bc/adt/programs/programs/zdemo_tr_report"
TR_REPORT_URI = f"adt://{SYSTEM}{TR_REPORT}/source/main"
NON_ASCII = "ä😀"
NEW_REQUEST = "Create new request…"


async def _execute(client: EditorClient, command: str, *arguments: Any) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments))
    )


def _ended(client: EditorClient) -> list[str]:
    return [
        r.message or ""
        for steps in client.progress_reports.values()
        for r in steps
        if isinstance(r, types.WorkDoneProgressEnd)
    ]


def _recorded(emulator: Emulator, number: str) -> list[str]:
    """The names of the objects a request records."""
    request = next(r for r in emulator.transport_requests() if r.number == number)
    return [o.name for task in request.tasks for o in task.objects]


async def _release_generated_request(emulator: Emulator) -> None:
    """Release the request the seeded ZDEMO_TR_REPORT is recorded in: afterwards a change
    of it needs a request again."""
    async with make_client(emulator) as adt:
        request = await adt.transports.details("A4HK900101")
        for task in request.tasks:
            assert (await adt.transports.release(task.number)).released
        assert (await adt.transports.release("A4HK900101")).released


# --- ABAP Unit ----------------------------------------------------------------------------


async def test_code_lenses_run_tests_and_failures_become_diagnostics(
    client: EditorClient, emulator: Emulator
) -> None:
    await client.open(GREETER_TESTS)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=GREETER_TESTS))
    )
    assert lenses is not None
    runs = [
        (lens.range.start.line, list(lens.command.arguments or []))
        for lens in lenses
        if lens.command
    ]
    assert runs == [
        (2, [GREETER_TESTS, {"testClass": "LTCL_GREETER"}]),
        (22, [GREETER_TESTS, {"testClass": "LTCL_GREETER", "method": "GREETS_THE_WORLD"}]),
        (27, [GREETER_TESTS, {"testClass": "LTCL_GREETER", "method": "GREETS_BY_NAME"}]),
        (32, [GREETER_TESTS, {"testClass": "LTCL_GREETER", "method": "GREETS_EVERYONE"}]),
    ]
    assert all(lens.command.command == "adt.runUnitTests" for lens in lenses if lens.command)
    one = await _execute(client, "adt.runUnitTests", *runs[2][1])
    assert (one["tests"], one["passed"], one["failed"]) == (1, 1, 0)

    # A failing test, saved and activated: its failure is a diagnostic where it fails.
    failing = f"    cl_abap_unit_assert=>fail( msg = '{NON_ASCII} not yet' )."
    client.insert_line(GREETER_TESTS, 36, failing)
    assert (await client.save(GREETER_TESTS))["status"] == "saved"
    assert (await _execute(client, "adt.activate", GREETER_TESTS))["activated"]
    result = await _execute(client, "adt.runUnitTests", GREETER_TESTS)
    assert (result["tests"], result["passed"], result["failed"]) == (3, 2, 1)
    (failure,) = result["failures"]
    assert failure["method"].upper() == "GREETS_EVERYONE" and failure["uri"] == GREETER_TESTS
    assert failure["line"] == 37 and "not yet" in failure["message"]
    diagnostics = await client.until(
        lambda: [d for d in client.diagnostics.get(GREETER_TESTS, []) if d.source == "abap-unit"]
    )
    assert diagnostics[0].range.start == client.position(GREETER_TESTS, 36, 4)
    assert diagnostics[0].severity == types.DiagnosticSeverity.Error
    assert "ABAP Unit: 2 passed, 1 failed" in _ended(client)
    assert any(m.message.startswith("ABAP Unit: 2 passed, 1 failed") for m in client.messages)

    client.delete_lines(GREETER_TESTS, 36, 36)  # fixed again: the next run clears it
    assert (await client.save(GREETER_TESTS))["status"] == "saved"
    assert (await _execute(client, "adt.activate", GREETER_TESTS))["activated"]
    green = await _execute(client, "adt.runUnitTests", GREETER_MAIN)  # any document of it
    assert (green["passed"], green["failed"]) == (3, 0)
    await client.until(
        lambda: not [d for d in client.diagnostics[GREETER_TESTS] if d.source == "abap-unit"]
    )


async def test_unit_tests_of_unsaved_changes_say_what_ran(client: EditorClient) -> None:
    await client.open(GREETER_TESTS)
    client.insert_line(GREETER_TESTS, 0, "* unsaved")
    result = await _execute(client, "adt.runUnitTests", GREETER_TESTS)
    assert result["passed"] == 3
    assert any("unsaved changes did not" in note for note in result["notes"])


# --- ATC and new objects ------------------------------------------------------------------


async def test_create_a_program_and_run_atc(client: EditorClient, emulator: Emulator) -> None:
    created = await _execute(
        client,
        "adt.createObject",
        {"kind": "program", "name": "zlsp_atc", "description": "ATC", "package": "$ZDEMO"},
    )
    uri = f"adt://{SYSTEM}/sap/bc/adt/programs/programs/zlsp_atc/source/main"
    assert created["uri"] == uri and "transport" not in created
    await client.open(uri)
    body = f"REPORT zlsp_atc.\nDATA lv TYPE i.\nMOVE 1 TO lv.\nBREAK-POINT.\nWRITE '{NON_ASCII}'."
    end = client.texts[uri].split("\n")
    client.edit(uri, (0, 0), (len(end) - 1, len(end[-1])), body)
    assert (await client.save(uri))["status"] == "saved"
    assert (await _execute(client, "adt.activate", uri))["activated"]
    result = await _execute(client, "adt.runAtc", uri)
    assert result["counts"] == {"2": 1, "3": 1}
    diagnostics = await client.until(
        lambda: [d for d in client.diagnostics.get(uri, []) if d.source == "atc"]
    )
    by_line = {d.range.start.line: d for d in diagnostics}
    assert by_line[3].severity == types.DiagnosticSeverity.Warning  # BREAK-POINT, priority 2
    move = by_line[2]
    assert move.severity == types.DiagnosticSeverity.Information  # MOVE, priority 3
    assert move.code == "Obsolete Statements" and "priority 3" in move.message
    assert (move.range.start.character, move.range.end.character) == (0, 4)  # the word MOVE
    assert any(m.startswith("ATC: 2 findings") for m in _ended(client))


async def test_create_object_refusals_are_clear(client: EditorClient) -> None:
    with pytest.raises(JsonRpcException, match="kinds") as wrong:
        await _execute(
            client,
            "adt.createObject",
            {"kind": "enhancement", "name": "ZT", "description": "x", "package": "$ZDEMO"},
        )
    assert wrong.value.data["name"] == "INVALID_ARGUMENT"
    with pytest.raises(JsonRpcException) as taken:
        await _execute(
            client,
            "adt.createObject",
            {"kind": "class", "name": "ZCL_DEMO_GREETER", "description": "x", "package": "$ZDEMO"},
        )
    assert taken.value.data["name"] == "NAME_REFUSED"


async def test_create_in_a_transportable_package_asks_for_a_request(
    client: EditorClient, emulator: Emulator
) -> None:
    existing = emulator.create_transport_request("Feature work")
    spec = {"kind": "class", "name": "ZCL_LSP_NEW", "description": "New", "package": "ZDEMO_TR"}
    with pytest.raises(JsonRpcException) as refused:
        await _execute(client, "adt.createObject", spec)  # nobody answers the question
    assert refused.value.data["code"] == 4019 and "none was chosen" in refused.value.message
    assert "/sap/bc/adt/oo/classes/zcl_lsp_new" not in emulator.objects()
    question = client.questions[-1]
    titles = [a.title for a in question.actions or []]
    assert f"{existing} Feature work" in titles and titles[-1] == NEW_REQUEST
    assert "ZCL_LSP_NEW" in question.message and "ZDEMO_TR" in question.message

    client.answers.append(NEW_REQUEST)
    created = await _execute(client, "adt.createObject", spec)
    new_request = created["transport"]
    assert new_request != existing
    request = next(r for r in emulator.transport_requests() if r.number == new_request)
    assert request.text == "Changes to ZCL_LSP_NEW"
    assert created["uri"] == f"adt://{SYSTEM}/sap/bc/adt/oo/classes/zcl_lsp_new/source/main"

    client.answers.append(f"{existing} Feature work")
    other = await _execute(
        client, "adt.createObject", {**spec, "name": "zif_lsp_new", "kind": "interface"}
    )
    assert other["transport"] == existing


# --- transports on save -------------------------------------------------------------------


async def test_save_asks_for_a_request_once(client: EditorClient, emulator: Emulator) -> None:
    await _release_generated_request(emulator)
    existing = emulator.create_transport_request("Feature work")
    read = await client.open(TR_REPORT_URI)
    client.insert_line(TR_REPORT_URI, 0, f"* {NON_ASCII} needs a request")
    mine = client.texts[TR_REPORT_URI]

    refused = await client.save(TR_REPORT_URI)  # the question goes unanswered
    assert refused["status"] == "error" and refused["error"]["code"] == 4019
    assert "none was chosen" in refused["error"]["error"]
    assert client.texts[TR_REPORT_URI] == mine, "the edit is kept"
    assert emulator.source(f"{TR_REPORT}/source/main") == read["text"]

    client.answers.append(f"{existing} Feature work")
    assert (await client.save(TR_REPORT_URI))["status"] == "saved"
    assert emulator.source(f"{TR_REPORT}/source/main") == mine
    assert "ZDEMO_TR_REPORT" in _recorded(emulator, existing)
    asked = len(client.questions)
    client.insert_line(TR_REPORT_URI, 0, "* and once more")
    assert (await client.save(TR_REPORT_URI))["status"] == "saved"
    assert len(client.questions) == asked, "the choice holds for the session"
    assert emulator.locks() == []


async def test_default_transport_skips_the_question(
    client: EditorClient, emulator: Emulator
) -> None:
    await _release_generated_request(emulator)
    number = emulator.create_transport_request("Default request")
    client.configure({"defaultTransport": number})
    await client.open(TR_REPORT_URI)
    client.insert_line(TR_REPORT_URI, 0, "* saved into the default request")
    assert (await client.save(TR_REPORT_URI))["status"] == "saved"
    assert client.questions == []
    assert "ZDEMO_TR_REPORT" in _recorded(emulator, number)


async def test_choose_transport_command(client: EditorClient, emulator: Emulator) -> None:
    local = await _execute(client, "adt.chooseTransport", REPORT_URI)
    assert local["required"] is False and local["transport"] is None
    locked = await _execute(client, "adt.chooseTransport", TR_REPORT_URI)
    assert locked["transport"] == "A4HK900101" and locked["lockedIn"] is True
    assert client.questions == []
    await _release_generated_request(emulator)
    client.answers.append(NEW_REQUEST)
    chosen = await _execute(client, "adt.chooseTransport", TR_REPORT_URI)
    assert chosen["required"] is True and chosen["transport"] not in (None, "A4HK900101")
    await client.open(TR_REPORT_URI)
    client.insert_line(TR_REPORT_URI, 0, "* into the chosen request")
    assert (await client.save(TR_REPORT_URI))["status"] == "saved"
    assert len(client.questions) == 1


async def test_the_transports_view_commands(client: EditorClient, emulator: Emulator) -> None:
    """Move the document's object into a new request, show it, then release it: refused
    while the object has an unactivated change, released once it is active."""
    number = emulator.create_transport_request("View request")
    moved = await _execute(client, "adt.reassignTransport", TR_REPORT_URI, number)
    assert moved["moved"] and moved["from"] == "A4HK900101" and moved["to"] == number
    shown = await _execute(client, "adt.transportObjects", number)
    assert shown["objects"] == ["R3TR PROG ZDEMO_TR_REPORT"]
    await client.open(TR_REPORT_URI)
    client.insert_line(TR_REPORT_URI, 0, "* into the reassigned request")
    assert (await client.save(TR_REPORT_URI))["status"] == "saved"
    assert client.questions == [], "the save used the request the object was moved into"
    with pytest.raises(JsonRpcException, match="inactive changes"):
        await _execute(client, "adt.releaseTransport", number)
    emulator.activate_all()
    released = await _execute(client, "adt.releaseTransport", number, SYSTEM)
    assert released["released"][-1] == number
    assert [r.status for r in emulator.transport_requests() if r.number == number] == ["R"]


# --- versions -----------------------------------------------------------------------------


async def test_versions_and_reading_one(client: EditorClient, emulator: Emulator) -> None:
    read = await client.open(REPORT_URI)
    before = await client.request("adt/versions", {"uri": REPORT_URI})
    assert before["inactive"] is False
    assert [r["label"] for r in before["revisions"]] == ["active version"]
    client.insert_line(REPORT_URI, 0, f"* {NON_ASCII} saved, not activated")
    assert (await client.save(REPORT_URI))["status"] == "saved"
    after = await client.request("adt/versions", {"uri": REPORT_URI})
    assert after["inactive"] is True
    assert after["revisions"][0]["label"] == "inactive version"
    active = await client.request("adt/readVersion", {"uri": REPORT_URI, "version": "active"})
    assert active["text"] == read["text"] and active["label"] == "active version"
    inactive = await client.request("adt/readVersion", {"uri": REPORT_URI, "version": "inactive"})
    assert inactive["text"] == client.texts[REPORT_URI]
    by_id = await client.request(
        "adt/readVersion", {"uri": REPORT_URI, "version": after["revisions"][-1]["id"]}
    )
    assert by_id["text"] == read["text"]
    with pytest.raises(JsonRpcException, match="no version"):
        await client.request("adt/readVersion", {"uri": REPORT_URI, "version": "12345"})
    with pytest.raises(JsonRpcException, match="version"):
        await client.request("adt/readVersion", {"uri": REPORT_URI})
