"""The development-loop features against a fake editor on the in-process emulator: the
transport question (remembered, default, the request an object is on), run reports as
diagnostics beside the syntax check's, test lenses, references placed in edited buffers."""

from __future__ import annotations

import asyncio

import pytest
from support.emulated import make_client
from support.fake_editor import GREETER_URI, REPORT_URI, workspace_on

from adt.emulator import Emulator
from adt.source.errors import InvalidArgument
from adt.systems import EditorSettings, LockMode
from lsp_server.editor import Diagnostic, Severity
from lsp_server.features.quality import atc_severity
from lsp_server.features.transports import NEW_REQUEST
from lsp_server.results import SaveStatus

TR_REPORT = "/sap/bc/adt/programs/programs/zdemo_tr_report"
TR_REPORT_URI = f"adt://A4H{TR_REPORT}/source/main"
TESTS_URI = "adt://A4H/sap/bc/adt/oo/classes/zcl_demo_greeter/includes/testclasses"
QUIET = EditorSettings(poll_interval=0)


async def _release_generated_request(emulator: Emulator) -> None:
    async with make_client(emulator) as adt:
        for task in (await adt.transports.details("A4HK900101")).tasks:
            assert (await adt.transports.release(task.number)).released
        assert (await adt.transports.release("A4HK900101")).released


async def test_the_request_an_object_is_on_is_used_without_a_question(
    emulator: Emulator,
) -> None:
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        chosen = await workspace.transports.choose("A4H", TR_REPORT)
        assert chosen == "A4HK900101" and editor.questions == []
        assert workspace.transports.remembered("A4H", TR_REPORT) == "A4HK900101"


async def test_a_choice_is_asked_once_then_remembered(emulator: Emulator) -> None:
    await _release_generated_request(emulator)
    number = emulator.create_transport_request("Feature work")
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        editor.answers.append(f"{number} Feature work")
        assert await workspace.transports.choose("A4H", TR_REPORT) == number
        assert editor.offered == [[f"{number} Feature work", NEW_REQUEST]]
        assert "ZDEMO_TR_REPORT" in editor.questions[0]
        assert await workspace.transports.choose("A4H", TR_REPORT) == number
        assert len(editor.questions) == 1
        editor.answers.append(NEW_REQUEST)
        renewed = await workspace.transports.choose("A4H", TR_REPORT, ask=True)
        assert renewed not in (None, number) and len(editor.questions) == 2
        assert renewed in [r.number for r in emulator.transport_requests()]


async def test_the_default_request_and_an_unanswered_question(emulator: Emulator) -> None:
    await _release_generated_request(emulator)
    number = emulator.create_transport_request("Default")
    settings = EditorSettings(poll_interval=0, default_transport=number)
    async with workspace_on(emulator, settings) as (workspace, editor):
        assert await workspace.transports.choose("A4H", TR_REPORT) == number
        assert editor.questions == []
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        await editor.open(TR_REPORT_URI)
        editor.insert_line(TR_REPORT_URI, 0, "* nobody answers")
        result = await workspace.save(TR_REPORT_URI)
        assert result.status == SaveStatus.ERROR and result.error is not None
        assert result.error.code == 4019 and "none was chosen" in result.error.message
        assert result.error.details["package"] == "ZDEMO_TR"
        assert workspace.documents.require(TR_REPORT_URI).dirty
    assert emulator.locks() == []


async def test_an_invalid_default_is_not_retried_blindly(emulator: Emulator) -> None:
    await _release_generated_request(emulator)
    good = emulator.create_transport_request("Good")
    settings = EditorSettings(poll_interval=0, default_transport="A4HK999999")
    async with workspace_on(emulator, settings) as (workspace, editor):
        await editor.open(TR_REPORT_URI)
        editor.insert_line(TR_REPORT_URI, 0, "* into a request that exists")
        workspace.transports.remember("A4H", TR_REPORT, "A4HK999999")
        editor.answers.append(f"{good} Good")
        saved = await workspace.save(TR_REPORT_URI)
        assert saved.status == SaveStatus.SAVED, saved
        assert len(editor.questions) == 1, "asked although a default is set: it was refused"
        assert workspace.transports.remembered("A4H", TR_REPORT) == good
    assert emulator.locks() == []


async def test_run_reports_join_the_check_findings_and_leave_with_the_document(
    emulator: Emulator,
) -> None:
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        await editor.open(REPORT_URI)
        doc = workspace.documents.require(REPORT_URI)
        check = Diagnostic((0, 0), (0, 1), Severity.ERROR, "from the check")
        doc.check_findings = [check]
        atc = Diagnostic((1, 0), (1, 1), Severity.WARNING, "from ATC", source="atc")
        other = "adt://A4H/sap/bc/adt/programs/includes/zdemo_include/source/main"
        reports = workspace.diagnostics
        reports.publish_report("atc", "A4H", "/sap/bc/adt/x", {REPORT_URI: [atc], other: [atc]})
        assert editor.published[REPORT_URI] == [check, atc]
        assert editor.published[other] == [atc], "a document that is not open too"
        reports.publish_report("atc", "A4H", "/sap/bc/adt/x", {})
        assert editor.published[REPORT_URI] == [check] and editor.published[other] == []
        reports.publish_report("atc", "A4H", "/sap/bc/adt/x", {REPORT_URI: [atc]})
        workspace.did_close(REPORT_URI)
        assert editor.published[REPORT_URI] == []
        await editor.open(REPORT_URI)
        assert editor.published[REPORT_URI] == []


def test_atc_priorities_map_to_severities() -> None:
    assert [atc_severity(p) for p in (1, 2, 3, 4)] == [
        Severity.ERROR,
        Severity.WARNING,
        Severity.INFO,
        Severity.INFO,
    ]


async def test_test_lenses_follow_the_buffer(emulator: Emulator) -> None:
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        await editor.open(TESTS_URI)
        lenses = workspace.quality.test_lenses(TESTS_URI)
        assert [(lens.line, lens.method) for lens in lenses] == [
            (2, None),
            (22, "GREETS_THE_WORLD"),
            (27, "GREETS_BY_NAME"),
            (32, "GREETS_EVERYONE"),
        ]
        editor.insert_line(TESTS_URI, 0, "* moved down by an unsaved line")
        assert [lens.line for lens in workspace.quality.test_lenses(TESTS_URI)] == [
            3,
            23,
            28,
            33,
        ]
        assert workspace.quality.test_lenses(GREETER_URI) == [], "not open: no lenses"


async def test_references_are_placed_in_edited_buffers(emulator: Emulator) -> None:
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        await editor.open(REPORT_URI)
        editor.insert_line(REPORT_URI, 5, "* unsaved")
        line = editor.texts[REPORT_URI].split("\n")[13]
        assert "zcl_demo_greeter" in line
        found = await workspace.intelligence.references(
            REPORT_URI, (13, line.index("zcl_demo_greeter"))
        )
        assert (REPORT_URI, 13) in [(t.uri, t.line) for t in found]
        editor.insert_line(REPORT_URI, 13, "  DATA(lo_other) = NEW zcl_demo_greeter( ).")
        with pytest.raises(InvalidArgument, match="save first"):
            await workspace.intelligence.references(REPORT_URI, (13, 30))


async def test_go_to_references_asked_twice_runs_where_used_once(emulator: Emulator) -> None:
    """Issue 18: VS Code asks again (without the declaration) when there are two results;
    that ran where-used twice (10.6 s instead of 5.8 s). A save starts a new search."""
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        await editor.open(REPORT_URI)
        line = editor.texts[REPORT_URI].split("\n")[12]
        point = (12, line.index("zcl_demo_greeter"))

        def searches() -> int:
            return sum(1 for e in emulator.request_log if "usageReferences" in e.path)

        emulator.reset_request_log()
        first, second = await asyncio.gather(
            workspace.intelligence.references(REPORT_URI, point),
            workspace.intelligence.references(REPORT_URI, point),
        )
        again = await workspace.intelligence.references(REPORT_URI, point)
        assert first == second == again and len(first) > 1
        assert searches() == 1
        editor.insert_line(REPORT_URI, 0, "* saved")
        assert (await workspace.save(REPORT_URI)).status == SaveStatus.SAVED
        await workspace.intelligence.references(REPORT_URI, (13, point[1]))
        assert searches() == 2, "another saved version: searched again"
    assert emulator.locks() == []


async def test_on_edit_the_first_change_asks_for_a_request(emulator: Emulator) -> None:
    await _release_generated_request(emulator)
    number = emulator.create_transport_request("Feature work")
    settings = EditorSettings(poll_interval=0, lock_mode=LockMode.ON_EDIT, check_delay=60)
    async with workspace_on(emulator, settings) as (workspace, editor):
        await editor.open(TR_REPORT_URI)
        editor.answers.append(f"{number} Feature work")
        editor.insert_line(TR_REPORT_URI, 0, "* the first change")
        await editor.until(lambda: workspace.transports.remembered("A4H", TR_REPORT) == number)
        assert len(editor.questions) == 1
        assert (await workspace.save(TR_REPORT_URI)).status == SaveStatus.SAVED
        assert len(editor.questions) == 1, "the save did not ask again"
        assert "ZDEMO_TR_REPORT" in [
            o.name
            for r in emulator.transport_requests()
            if r.number == number
            for t in r.tasks
            for o in t.objects
        ]
    async with workspace_on(emulator, settings) as (workspace, editor):
        await editor.open(REPORT_URI)
        editor.insert_line(REPORT_URI, 0, "* local: no question")
        await workspace.locks.wait_for("/sap/bc/adt/programs/programs/zdemo_report")
        await workspace.wait_idle()
        assert editor.questions == []
    assert emulator.locks() == []


async def test_running_one_test_method_keeps_the_other_methods_failures(
    emulator: Emulator,
) -> None:
    """Issue 18: running one passing method from its code lens cleared another method's
    still-failing result from Problems."""
    async with workspace_on(emulator, QUIET) as (workspace, editor):
        await editor.open(TESTS_URI)
        fail = "    cl_abap_unit_assert=>fail( msg = 'not yet' )."
        editor.insert_line(TESTS_URI, 36, fail)  # in GREETS_EVERYONE
        assert (await workspace.save(TESTS_URI)).status == SaveStatus.SAVED
        assert (await workspace.activation.activate(TESTS_URI)).activated
        steps: list[str] = []
        everything = await workspace.quality.run_unit_tests(TESTS_URI, None, steps.append)
        assert everything["failed"] == 1
        assert steps == ["running the tests of ZCL_DEMO_GREETER"], "named, not a URL"

        def failing() -> set[str]:
            return {
                d.message.split(":")[0]
                for d in editor.published.get(TESTS_URI, [])
                if d.source == "abap-unit"
            }

        assert failing() == {"LTCL_GREETER->GREETS_EVERYONE"}
        scope = {"testClass": "ltcl_greeter", "method": "greets_by_name"}
        one = await workspace.quality.run_unit_tests(TESTS_URI, scope, steps.append)
        assert (one["tests"], one["failed"]) == (1, 0)
        assert steps[-1] == "running the tests of ZCL_DEMO_GREETER (ltcl_greeter->greets_by_name)"
        assert failing() == {"LTCL_GREETER->GREETS_EVERYONE"}, "the other failure stays"
        failing_one = {"testClass": "LTCL_GREETER", "method": "GREETS_EVERYONE"}
        assert (await workspace.quality.run_unit_tests(TESTS_URI, failing_one, steps.append))[
            "failed"
        ] == 1
        assert failing() == {"LTCL_GREETER->GREETS_EVERYONE"}, "replaced by its own run"
        editor.replace(TESTS_URI, editor.texts[TESTS_URI].replace(fail + "\n", "", 1))
        assert (await workspace.save(TESTS_URI)).status == SaveStatus.SAVED
        assert (await workspace.activation.activate(TESTS_URI)).activated
        fixed = await workspace.quality.run_unit_tests(TESTS_URI, failing_one, steps.append)
        assert fixed["failed"] == 0 and failing() == set(), "its own passing run clears it"
    assert emulator.locks() == []
