"""The development loop through the workbench, against the emulator: create a class in a
transportable package (the transport question first), write it by named parts, activate,
run its tests, fix the failing one, ATC, history, where-used, delete."""

from __future__ import annotations

import pytest

from adt.emulator import Emulator
from adt.kinds import KINDS
from adt.source.errors import InvalidArgument, NameRefused, SymbolNotFound, TransportRequired
from adt.workbench import NewObject, Workbench

CLASS = "/sap/bc/adt/oo/classes/zcl_wb_loop"
MAIN = """CLASS zcl_wb_loop DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    METHODS double IMPORTING iv TYPE i RETURNING VALUE(rv) TYPE i.
ENDCLASS.

CLASS zcl_wb_loop IMPLEMENTATION.
  METHOD double.
    rv = iv + iv.
  ENDMETHOD.
ENDCLASS."""
TESTS = """CLASS ltcl_double DEFINITION FINAL FOR TESTING DURATION SHORT RISK LEVEL HARMLESS.
  PRIVATE SECTION.
    METHODS doubles_two FOR TESTING.
    METHODS doubles_three FOR TESTING.
ENDCLASS.

CLASS ltcl_double IMPLEMENTATION.
  METHOD doubles_two.
    cl_abap_unit_assert=>assert_equals( act = NEW zcl_wb_loop( )->double( 2 ) exp = 4 ).
  ENDMETHOD.
  METHOD doubles_three.
    cl_abap_unit_assert=>fail( msg = 'not written yet' ).
  ENDMETHOD.
ENDCLASS."""


async def test_the_loop_in_a_transportable_package(workbench: Workbench) -> None:
    new = NewObject("class", "ZCL_WB_LOOP", "Workbench loop", "ZDEMO_TR", test_classes=True)
    with pytest.raises(TransportRequired) as refused:
        await workbench.objects.create(new)
    candidates = refused.value.details["candidates"]
    assert refused.value.details["package"] == "ZDEMO_TR"
    assert all({"number", "description", "owner"} <= set(c) for c in candidates)
    assert await workbench.source.search("ZCL_WB_LOOP") == []  # nothing was created

    number = await workbench.transports.create("Workbench loop", "ZDEMO_TR", CLASS)
    assert any(r.number == number for r in await workbench.transports.open_requests())
    created = await workbench.objects.create(
        NewObject("class", "ZCL_WB_LOOP", "Workbench loop", "ZDEMO_TR", number, test_classes=True)
    )
    assert created.object_url == CLASS and created.transport == number
    need = await workbench.transports.need(CLASS)
    assert need.locked_in == number and not need.required and not need.local

    source = workbench.source
    read = await source.get_source_v2(CLASS)
    written = await source.set_source_v2(
        CLASS, token=read.token, start_line=1, end_line=read.line_count, content=MAIN
    )
    tests = await source.get_source_v2(CLASS, include_type="testclasses")
    await source.set_source_v2(
        CLASS,
        include_type="testclasses",
        token=tests.token,
        start_line=1,
        end_line=tests.line_count,
        content=TESTS,
    )
    assert (await source.activate(CLASS)).success

    report = await workbench.quality.unit_tests((CLASS,))
    assert (report.tests, report.passed, report.failed) == (2, 1, 1)
    (failure,) = report.failures
    assert failure.method.lower() == "doubles_three" and "not written yet" in failure.message
    assert failure.source_url.endswith("/includes/testclasses") and failure.line == 12

    # fix the failing test by name: only that method travels
    part = await source.get_source_v2(CLASS, include_type="testclasses", symbol="doubles_three")
    assert part.symbol == {
        "symbol": "ltcl_double=>doubles_three",
        "kind": "method",
        "startLine": 11,
        "endLine": 13,
    }
    assert part.content.splitlines()[0].strip() == "METHOD doubles_three."
    await source.set_source_v2(
        CLASS,
        include_type="testclasses",
        token=part.token,
        symbol="ltcl_double=>doubles_three",
        content="  METHOD doubles_three.\n"
        "    cl_abap_unit_assert=>assert_equals( act = NEW zcl_wb_loop( )->double( 3 ) exp = 6 ).\n"
        "  ENDMETHOD.",
    )
    inactive = await workbench.history.inactive()
    assert CLASS in [entry.object_url for entry in inactive]
    diff = await workbench.history.diff(f"{CLASS}/includes/testclasses")
    assert diff.changed and diff.added == 1 and diff.removed == 1
    assert "+    cl_abap_unit_assert=>assert_equals( act = NEW zcl_wb_loop( )->double( 3 )" in (
        diff.diff
    )
    assert (await source.activate(CLASS)).success
    assert (await workbench.quality.unit_tests((CLASS,))).green
    assert CLASS not in [entry.object_url for entry in await workbench.history.inactive()]

    versions = await workbench.history.versions(written.source_url)
    assert versions and versions[0].label == "active version"

    await workbench.objects.delete(CLASS, transport=number)
    assert await workbench.source.search("ZCL_WB_LOOP") == []


async def test_creation_refusals_before_anything_is_created(workbench: Workbench) -> None:
    with pytest.raises(NameRefused):
        await workbench.objects.create(NewObject("class", "ZCL_DEMO_GREETER", "taken", "$ZDEMO"))
    with pytest.raises(InvalidArgument, match="kinds"):
        await workbench.objects.create(NewObject("enhancement", "ZT", "x", "$ZDEMO"))
    with pytest.raises(InvalidArgument, match="functionGroup"):
        await workbench.objects.create(NewObject("functionModule", "Z_FM", "x"))
    created = await workbench.objects.create(
        NewObject("program", "ZWB_LOCAL", "Local program", "$ZDEMO")
    )
    assert created.transport == "" and created.source_url.endswith("/source/main")
    await workbench.objects.delete(created.object_url)


async def test_a_cds_view_over_a_new_table_from_the_templates(workbench: Workbench) -> None:
    """The loop on the new kinds: a table (the system's frame), a data definition (created
    empty, written from the client's template), activated together in dependency order."""
    table = await workbench.objects.create(NewObject("table", "ZWB_TRIP", "Trips", "$ZDEMO"))
    view = await workbench.objects.create(
        NewObject("dataDefinition", "ZI_WB_TRIP", "Trip view", "$ZDEMO")
    )
    assert view.object_url == "/sap/bc/adt/ddic/ddl/sources/zi_wb_trip"
    source = workbench.source
    frame = await source.get_source_v2(table.object_url)
    assert "define table zwb_trip {" in frame.content
    empty = await source.get_source_v2(view.object_url)
    assert empty.content == ""
    kind = KINDS.get("DDLS/DF")
    assert kind is not None and kind.template is not None
    text = kind.template("ZI_WB_TRIP", "Trip view").replace("<data_source>", "zwb_trip")
    text = text.replace("<key_field>", "client")
    await source.set_source_v2(
        view.object_url, token=empty.token, start_line=1, end_line=0, content=text
    )
    refused = await source.activate(view.object_url)
    assert not refused.success
    assert [(f.text, f.line) for f in refused.findings] == [
        (
            "Database Table ZWB_TRIP is not active; activate it first or together with this object",
            4,  # the template's "as select from" line
        )
    ]
    both = await source.client.activate([view.object_url, table.object_url])
    assert both.success
    await workbench.objects.delete(view.object_url)
    await workbench.objects.delete(table.object_url)


async def test_a_behavior_definition_in_a_transportable_package_needs_its_request(
    workbench: Workbench, emulator: Emulator
) -> None:
    url = "/sap/bc/adt/bo/behaviordefinitions/zi_wb_tr"
    new = NewObject("behaviorDefinition", "ZI_WB_TR", "Behavior", "ZDEMO_TR")
    with pytest.raises(TransportRequired):
        await workbench.objects.create(new)
    assert url not in emulator.state.objects  # nothing was created
    number = await workbench.transports.create("Kinds", "ZDEMO_TR", url)
    created = await workbench.objects.create(
        NewObject("behaviorDefinition", "ZI_WB_TR", "Behavior", "ZDEMO_TR", number)
    )
    assert created.object_url == url and created.transport == number
    need = await workbench.transports.need(url)
    assert need.locked_in == number
    [recorded] = [r for r in emulator.transport_requests() if r.number == number]
    assert ("R3TR", "BDEF", "ZI_WB_TR") in {(o.pgmid, o.type, o.name) for o in recorded.objects}
    await workbench.objects.delete(url, transport=number)


async def test_a_symbol_that_is_not_there_lists_the_ones_that_are(
    workbench: Workbench,
) -> None:
    with pytest.raises(SymbolNotFound) as missing:
        await workbench.source.get_source_v2(
            "/sap/bc/adt/oo/classes/zcl_demo_greeter", symbol="nothing_like_this"
        )
    assert "zcl_demo_greeter=>greet_all" in missing.value.details["candidates"]


async def test_where_used_pages_cost_no_second_search(
    workbench: Workbench, emulator: Emulator
) -> None:
    first = await workbench.usages.page("/sap/bc/adt/oo/interfaces/zif_demo_greeting", limit=1)
    assert first.total >= 2 and len(first.usages) == 1 and first.next_offset == 1
    usage = first.usages[0]
    assert usage.snippet and usage.line >= 1 and usage.source_url.startswith("/sap/bc/adt/")
    emulator.reset_request_log()
    rest = await workbench.usages.page(
        "/sap/bc/adt/oo/interfaces/zif_demo_greeting", offset=1, limit=50
    )
    assert emulator.request_log == []
    assert rest.offset == 1 and len(rest.usages) == first.total - 1 and rest.next_offset is None
    assert usage not in rest.usages


async def test_atc_findings_with_positions(workbench: Workbench) -> None:
    created = await workbench.objects.create(
        NewObject("program", "ZWB_ATC", "ATC findings", "$ZDEMO")
    )
    source = workbench.source
    read = await source.get_source_v2(created.object_url)
    program = "REPORT zwb_atc.\nDATA lv TYPE i.\nMOVE 1 TO lv.\nBREAK-POINT.\nWRITE lv."
    await source.set_source_v2(
        created.object_url,
        token=read.token,
        start_line=1,
        end_line=read.line_count,
        content=program,
    )
    assert (await source.activate(created.object_url)).success
    report = await workbench.quality.atc((created.object_url,))
    assert report.variant == "DEFAULT"
    found = {(f.line, f.priority) for f in report.findings}
    assert found == {(3, 3), (4, 2)}  # MOVE ... TO (obsolete), BREAK-POINT
    assert report.counts == {2: 1, 3: 1}
    assert all(f.source_url == created.source_url for f in report.findings)
    assert [f.priority for f in report.findings] == [2, 3]  # most urgent first
    await workbench.objects.delete(created.object_url)


async def test_one_test_class_or_method_runs_alone(workbench: Workbench) -> None:
    greeter = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
    whole = await workbench.quality.unit_tests_of_class(greeter, "ltcl_greeter")
    assert (whole.tests, whole.passed) == (3, 3)
    one = await workbench.quality.unit_tests_of_class(greeter, "ltcl_greeter", "greets_by_name")
    assert (one.tests, one.passed) == (1, 1)
    with pytest.raises(InvalidArgument, match="test class"):
        await workbench.quality.unit_tests_of_class(greeter, " ")
