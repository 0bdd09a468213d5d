"""client.unit on the in-process emulator: typed results, a failing test reported at its line,
fixed with a write and an activation, and the parser on documents shaped like SAP's."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.emulated import USERS, make_client

from adt.areas.unit import (
    DEFAULT_RISK_LEVELS,
    SourcePosition,
    UnitRunResult,
    parse_run_result,
    run_configuration,
)
from adt.emulator import Emulator, samples_dir
from adt.emulator.emulator import quality_samples_dir
from adt.errors import InvalidObjectUrlError, NotFoundError

COUNTER = "/sap/bc/adt/oo/classes/zcl_demo_counter"
VAT = "/sap/bc/adt/oo/classes/zcl_demo_vat"
LEGACY = "/sap/bc/adt/programs/programs/zdemo_qa_legacy"


@pytest.fixture
def quality() -> Emulator:
    return Emulator(seed_dirs=[samples_dir(), quality_samples_dir()], users=USERS)


async def test_a_class_runs_green(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        result = await client.unit.run(COUNTER)
    assert result.passed and not result.no_tests and result.failures == ()
    [program] = result.programs
    assert (program.name, program.type, program.uri) == ("ZCL_DEMO_COUNTER", "CLAS/OC", COUNTER)
    [test_class] = result.test_classes
    assert (test_class.name, test_class.risk_level, test_class.duration) == (
        "LTCL_COUNTER",
        "harmless",
        "short",
    )
    assert test_class.navigation_uri.endswith(
        "/includes/testclasses#type=CLAS%2FOCL;name=LTCL_COUNTER"
    )
    assert [m.name for m in result.methods] == ["COUNTS_UP", "RESETS"]
    assert all(m.passed and m.execution_time == 0.0 for m in result.methods)


async def test_a_failing_test_is_reported_at_its_line_and_fixed(quality: Emulator) -> None:
    async with make_client(quality) as client:
        result = await client.unit.run(VAT)
        assert not result.passed
        [failure] = result.failures
        assert (failure.program, failure.test_class, failure.method) == (
            "ZCL_DEMO_VAT",
            "LTCL_VAT",
            "RATE_IS_NINETEEN",
        )
        assert failure.alert.kind == "failedAssertion" and failure.alert.is_error
        assert failure.alert.title == "Critical Assertion Error: 'VAT rate in percent'"
        assert failure.alert.lines[:2] == ("Different Values:", "\tExpected [16] Actual [19]")
        position = failure.position
        assert position is not None
        assert (position.uri, position.column) == (f"{VAT}/includes/testclasses", 0)
        source = await client.read_source(position.uri)
        lines = source.text.split("\n")
        assert "act = zcl_demo_vat=>c_rate_percent" in lines[position.line - 1]
        assert "exp = 16" in lines[position.line]
        fixed = source.text.replace("exp = 16", "exp = 19")
        async with client.locked(VAT) as lock:
            await client.write_source(position.uri, fixed, lock_handle=lock.handle)
        saved_only = await client.unit.run(VAT)
        assert not saved_only.passed, "a run executes the active version"
        activation = await client.activate(VAT)
        assert activation.success
        green = await client.unit.run(VAT)
    assert green.passed
    assert [m.name for m in green.methods] == [
        "ADDS_THE_RATE",
        "RATE_IS_NINETEEN",
        "RATE_IS_POSITIVE",
    ]


async def test_packages_risk_levels_and_durations(quality: Emulator) -> None:
    async with make_client(quality) as client:
        default = await client.unit.run(package="$ZDEMO_QA")
        everything = await client.unit.run(
            package="$ZDEMO_QA", risk_levels=("harmless", "dangerous", "critical")
        )
        short_only = await client.unit.run(package="$ZDEMO_QA", durations=("SHORT",))
        nothing = await client.unit.run(LEGACY, risk_levels=("dangerous",), durations=("short",))
    assert DEFAULT_RISK_LEVELS == ("harmless", "dangerous")
    assert [p.name for p in default.programs] == ["ZCL_DEMO_VAT", "ZDEMO_QA_LEGACY", "ZDEMO_QA_FG"]
    assert "LTCL_VAT_RATES" in [c.name for c in default.test_classes]
    assert "LTCL_LEGACY_SYSTEM" not in [c.name for c in default.test_classes]
    assert "LTCL_LEGACY_SYSTEM" in [c.name for c in everything.test_classes]
    assert [c.duration for c in short_only.test_classes] == ["short"] * 3
    assert nothing.no_tests and not nothing.passed
    assert [a.kind for a in nothing.alerts] == ["noTestClasses"]
    assert not nothing.alerts[0].is_error


async def test_rerunning_failed_methods_and_classes(quality: Emulator) -> None:
    async with make_client(quality) as client:
        first = await client.unit.run(VAT)
        failed = [m for m in first.methods if not m.passed]
        again = await client.unit.rerun(failed)
        classes = await client.unit.rerun(first.test_classes[1:])
        with pytest.raises(ValueError, match="does not name"):
            await client.unit.rerun([first.programs[0]])  # type: ignore[list-item]
    assert [m.name for m in again.methods] == ["RATE_IS_NINETEEN"]
    assert not again.passed
    assert [c.name for c in classes.test_classes] == ["LTCL_VAT_RATES"] and classes.passed


async def test_refusals(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        with pytest.raises(NotFoundError):
            await client.unit.run("/sap/bc/adt/oo/classes/zcl_nowhere")
        with pytest.raises(ValueError, match="risk levels"):
            await client.unit.run(COUNTER, risk_levels=("reckless",))
        with pytest.raises(ValueError, match="at least one"):
            await client.unit.run()
        with pytest.raises(InvalidObjectUrlError):
            await client.unit.run("https://elsewhere/sap/bc/adt/oo/classes/x")


def test_the_run_configuration_is_what_eclipse_sends() -> None:
    body = run_configuration(
        [COUNTER, "/sap/bc/adt/packages/%24zdemo"], risk_levels=("harmless",), durations=("long",)
    ).decode()
    assert body.startswith(
        '<?xml version="1.0" encoding="UTF-8"?><aunit:runConfiguration '
        'xmlns:aunit="http://www.sap.com/adt/aunit"><external><coverage active="false"/>'
    )
    assert '<testRiskLevels harmless="true" dangerous="false" critical="false"/>' in body
    assert '<testDurations short="false" medium="false" long="true"/>' in body
    assert f'<adtcore:objectReference adtcore:uri="{COUNTER}"/>' in body


# A result written for this test in SAP's shape: an older system's URIs, a class-level
# alert, a tolerable warning, nested details and a stack with two entries.
OLDER_SYSTEM = b"""<?xml version="1.0" encoding="utf-8"?>
<aunit:runResult xmlns:aunit="http://www.sap.com/adt/aunit">
  <alerts><alert kind="warning" severity="tolerant"><title>Run note</title></alert></alerts>
  <program adtcore:uri="/sap/bc/adt/programs/programs/zprog" adtcore:type="PROG/P"
      adtcore:name="ZPROG" uriType="semantic" xmlns:adtcore="http://www.sap.com/adt/core">
    <testClasses>
      <testClass
          adtcore:uri="/sap/bc/adt/programs/programs/zprog/source/main#type=PROG%2FPL;name=LTC"
          adtcore:type="PROG/PP" adtcore:name="LTC" uriType="semantic"
          durationCategory="medium" riskLevel="dangerous">
        <alerts>
          <alert kind="exception" severity="critical">
            <title>Exception Error &lt;CX_SY_ZERODIVIDE&gt;</title>
            <stack>
              <stackEntry
                  adtcore:uri="/sap/bc/adt/programs/programs/zprog/source/main#start=7,4;end=7,9"
                  adtcore:type="PROG/P" adtcore:name="ZPROG"
                  adtcore:description="Include: &lt;ZPROG&gt; Line: &lt;7&gt; (CLASS_SETUP)"/>
              <stackEntry adtcore:uri="/sap/bc/adt/programs/programs/zprog/source/main"
                  adtcore:type="PROG/P" adtcore:name="ZPROG" adtcore:description="caller"/>
            </stack>
          </alert>
        </alerts>
        <testMethods>
          <testMethod
              adtcore:uri="/sap/bc/adt/programs/programs/zprog#testclass=LTC;testmethod=SLOW"
              adtcore:type="PROG/OLI" adtcore:name="SLOW" executionTime="0.13"
              uriType="semantic" unit="s">
            <alerts>
              <alert kind="warning" severity="tolerable">
                <title>Duration exceeded</title>
                <details><detail text="Expected: short">
                  <details><detail text="Actual: medium"/></details>
                </detail></details>
              </alert>
            </alerts>
          </testMethod>
        </testMethods>
      </testClass>
    </testClasses>
  </program>
</aunit:runResult>"""


def test_the_parser_reads_an_older_systems_result() -> None:
    result = parse_run_result(OLDER_SYSTEM)
    assert isinstance(result, UnitRunResult)
    assert [a.title for a in result.alerts] == ["Run note"]
    [test_class] = result.test_classes
    assert test_class.navigation_uri == ""
    assert (test_class.duration, test_class.risk_level) == ("medium", "dangerous")
    [method] = test_class.methods
    assert method.execution_time == 0.13
    assert method.passed, "a tolerable alert does not fail the method"
    assert method.alerts[0].lines == ("Expected: short", "\tActual: medium")
    assert not test_class.passed and not result.passed
    [failure] = result.failures
    assert (failure.test_class, failure.method) == ("LTC", None)
    assert failure.alert.title == "Exception Error <CX_SY_ZERODIVIDE>"
    assert failure.position == SourcePosition(
        "/sap/bc/adt/programs/programs/zprog/source/main", 7, 4
    )
    assert failure.alert.stack[1].position is None
    assert SourcePosition.parse("/x#start=3") == SourcePosition("/x", 3, 0)


def test_the_parser_refuses_other_documents() -> None:
    from adt._xml import XmlFormatError

    with pytest.raises(XmlFormatError):
        parse_run_result(b"<notAResult/>")
    with pytest.raises(XmlFormatError):
        parse_run_result(b"<broken")


def _capture(captures: Path, name: str) -> bytes:
    path = captures / "a4h" / name
    if not path.is_file():
        pytest.skip(f"capture {name} is not in {captures}")
    return path.read_bytes()


@pytest.mark.captures
def test_the_parser_reads_the_a4h_captures(adt_captures: Path) -> None:
    failed = parse_run_result(_capture(adt_captures, "382-ut-testrun.xml"))
    [failure] = failed.failures
    assert (failure.test_class, failure.method) == ("LTCL_PROBE", "TEST_FAILS")
    assert failure.alert.lines[1] == "\tExpected [43] Actual [42]"
    assert failure.position == SourcePosition(
        "/sap/bc/adt/oo/classes/zcl_zmcp_ut_probe/includes/testclasses", 17, 0
    )
    assert [m.execution_time for m in failed.methods] == [0.05, 0.0]
    passed = parse_run_result(_capture(adt_captures, "852-i75-ut-testrun-allpass.xml"))
    assert passed.passed and len(passed.methods) == 2
    nothing = parse_run_result(_capture(adt_captures, "361-ut-testrun.xml"))
    assert nothing.no_tests and [a.kind for a in nothing.alerts] == ["noTestClasses"]
