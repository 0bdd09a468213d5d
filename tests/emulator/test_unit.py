"""ABAP Unit in the emulator: the synchronous run (abap-adt-api's exact request), what the
evaluation decides, risk levels and durations, positions, the asynchronous API, errors."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from lxml import etree
from support.emulated import USERS

from adt.emulator import Emulator, samples_dir
from adt.emulator.aunit import object_constants, read_test_classes
from adt.emulator.emulator import quality_samples_dir

from .helpers import (
    ADT,
    EXC_PREFIX,
    activate,
    exc_info,
    fetch_token,
    lock,
    put_source,
    unlock,
    write_abapgit,
)

COUNTER = f"{ADT}/oo/classes/zcl_demo_counter"
VAT = f"{ADT}/oo/classes/zcl_demo_vat"
LEGACY = f"{ADT}/programs/programs/zdemo_qa_legacy"
QA_GROUP = f"{ADT}/functions/groups/zdemo_qa_fg"
QA_PACKAGE = f"{ADT}/packages/%24zdemo_qa"
AUNIT = "http://www.sap.com/adt/aunit"
ADTCORE = "{http://www.sap.com/adt/core}"
HEADERS = {"Content-Type": "application/*", "Accept": "application/*"}
NO_TESTS = (
    '<?xml version="1.0" encoding="utf-8"?><aunit:runResult xmlns:aunit="http://www.sap.com/adt/'
    'aunit"><alerts><alert kind="noTestClasses" severity="tolerable"><title>The task definition '
    "does not refer to any test</title></alert></alerts></aunit:runResult>"
)
ALL = {"harmless": True, "dangerous": True, "critical": True}
ALL_DURATIONS = {"short": True, "medium": True, "long": True}


def run_configuration(
    *uris: str, risk: dict[str, bool] | None = None, durations: dict[str, bool] | None = None
) -> str:
    """abap-adt-api's ``runUnitTest`` body (its default flags unless told otherwise)."""
    risk = risk or {"harmless": True, "dangerous": False, "critical": False}
    durations = durations or {"short": True, "medium": False, "long": False}
    flags = " ".join(f'{k}="{str(v).lower()}"' for k, v in risk.items())
    times = " ".join(f'{k}="{str(v).lower()}"' for k, v in durations.items())
    refs = "\n".join(f'        <adtcore:objectReference adtcore:uri="{u}"/>' for u in uris)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
  <aunit:runConfiguration xmlns:aunit="http://www.sap.com/adt/aunit">
  <external>
    <coverage active="false"/>
  </external>
  <options>
    <uriType value="semantic"/>
    <testDeterminationStrategy sameProgram="true" assignedTests="false"/>
    <testRiskLevels {flags}/>
    <testDurations {times}/>
    <withNavigationUri enabled="true"/>
  </options>
  <adtcore:objectSets xmlns:adtcore="http://www.sap.com/adt/core">
    <objectSet kind="inclusive">
      <adtcore:objectReferences>
{refs}
      </adtcore:objectReferences>
    </objectSet>
  </adtcore:objectSets>
</aunit:runConfiguration>"""


@pytest.fixture
def quality() -> Emulator:
    return Emulator(seed_dirs=[samples_dir(), quality_samples_dir()], users=USERS)


@pytest.fixture
async def qa_client(quality: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=quality.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://emulator", auth=("DEVELOPER", "developer")
    ) as client:
        yield client


async def _run(client: httpx.AsyncClient, body: str, path: str = "testruns") -> httpx.Response:
    token = await fetch_token(client)
    return await client.post(
        f"{ADT}/abapunit/{path}",
        content=body.encode("utf-8"),
        headers={"x-csrf-token": token, **HEADERS},
    )


def _methods(body: bytes) -> dict[str, etree._Element]:
    root = etree.fromstring(body)
    return {m.get(f"{ADTCORE}name") or "": m for m in root.iter("testMethod")}


def _classes(body: bytes) -> list[str]:
    return [c.get(f"{ADTCORE}name") or "" for c in etree.fromstring(body).iter("testClass")]


def test_the_quality_samples_are_clean_abap(quality: Emulator) -> None:
    from adt.emulator.checker import check

    uris = [u for u in quality.objects() if quality.state.objects[u].package == "$ZDEMO_QA"]
    assert len(uris) == 6  # class, program, group, its two includes and one module
    for uri in uris:
        obj = quality.state.objects[uri]
        for part in obj.parts:
            text = quality.source(obj.source_uri(part), "active")
            assert text is not None and check(text) == [], (uri, part)
            assert max(len(line) for line in text.split("\n")) <= 255


async def test_a_passing_class_answers_like_a4h(adt_client: httpx.AsyncClient) -> None:
    response = await _run(adt_client, run_configuration(COUNTER))
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/xml; charset=utf-8"
    text = response.text
    assert text.startswith(
        f'<?xml version="1.0" encoding="utf-8"?><aunit:runResult xmlns:aunit="{AUNIT}">'
        f'<program adtcore:uri="{COUNTER}" adtcore:type="CLAS/OC" adtcore:name="ZCL_DEMO_COUNTER" '
        'uriType="semantic" xmlns:adtcore="http://www.sap.com/adt/core"><testClasses>'
        f'<testClass adtcore:uri="{COUNTER}#testclass=LTCL_COUNTER" adtcore:type="CLAS/OL" '
        'adtcore:name="LTCL_COUNTER" uriType="semantic" '
        f'navigationUri="{COUNTER}/includes/testclasses#type=CLAS%2FOCL;name=LTCL_COUNTER" '
        'durationCategory="short" riskLevel="harmless"><testMethods>'
    )
    assert "<alerts>" not in text  # an all-passed run has no alerts element (A4H 852)
    counts_up = _methods(response.content)["COUNTS_UP"]
    assert dict(counts_up.attrib) == {
        f"{ADTCORE}uri": f"{COUNTER}#testclass=LTCL_COUNTER;testmethod=COUNTS_UP",
        f"{ADTCORE}type": "CLAS/OLI",
        f"{ADTCORE}name": "COUNTS_UP",
        "executionTime": "0",
        "uriType": "semantic",
        "navigationUri": f"{COUNTER}/includes/testclasses#type=CLAS%2FOLD;name=LTCL_COUNTER"
        + "%20" * 18
        + "COUNTS_UP",
        "unit": "s",
    }
    assert list(_methods(response.content)) == ["COUNTS_UP", "RESETS"]


async def test_the_sample_package_passes_everywhere(adt_client: httpx.AsyncClient) -> None:
    body = run_configuration(f"{ADT}/packages/%24zdemo", risk=ALL, durations=ALL_DURATIONS)
    response = await _run(adt_client, body)
    root = etree.fromstring(response.content)
    programs = [p.get(f"{ADTCORE}name") for p in root.findall("program")]
    assert programs == ["ZCL_DEMO_COUNTER", "ZCL_DEMO_GREETER", "ZCL_DEMO_LARGE"]
    assert len(_methods(response.content)) >= 6
    assert root.find(".//alert") is None


async def test_the_seeded_failure_points_at_its_line(
    quality: Emulator, qa_client: httpx.AsyncClient
) -> None:
    response = await _run(qa_client, run_configuration(VAT))
    method = _methods(response.content)["RATE_IS_NINETEEN"]
    [alert] = method.findall("alerts/alert")
    assert (alert.get("kind"), alert.get("severity")) == ("failedAssertion", "critical")
    assert alert.findtext("title") == "Critical Assertion Error: 'VAT rate in percent'"
    details = alert.findall("details/detail")
    assert [d.get("text") for d in details] == [
        "Different Values:",
        "Test 'LTCL_VAT->RATE_IS_NINETEEN' in Main Program 'ZCL_DEMO_VAT==================CP'.",
    ]
    assert [d.get("text") for d in details[0].findall("details/detail")] == [
        "Expected [16] Actual [19]"
    ]
    [entry] = alert.findall("stack/stackEntry")
    uri = entry.get(f"{ADTCORE}uri") or ""
    match = re.fullmatch(re.escape(f"{VAT}/includes/testclasses") + r"#start=(\d+),0", uri)
    assert match is not None, uri
    line = int(match.group(1))
    source = quality.source(f"{VAT}/includes/testclasses", "active")
    assert source is not None
    assert (
        "cl_abap_unit_assert=>assert_equals( act = zcl_demo_vat=>c_rate_percent"
        in (source.split("\n")[line - 1])
    )
    assert entry.get(f"{ADTCORE}type") == "CLAS/OCN/testclasses"
    assert entry.get(f"{ADTCORE}name") == "ZCL_DEMO_VAT"
    assert entry.get(f"{ADTCORE}description") == (
        f"Include: <ZCL_DEMO_VAT==================CCAU> Line: <{line}> (RATE_IS_NINETEEN)"
    )
    assert f"Line: &lt;{line}&gt;" in response.text  # escaped like A4H 382
    assert _methods(response.content)["ADDS_THE_RATE"].find("alerts") is None


async def test_risk_levels_and_durations_choose_the_classes(qa_client: httpx.AsyncClient) -> None:
    harmless_short = await _run(qa_client, run_configuration(QA_PACKAGE))
    assert _classes(harmless_short.content) == ["LTCL_VAT", "LTCL_LEGACY", "LTCL_DOUBLE"]
    everything = await _run(
        qa_client, run_configuration(QA_PACKAGE, risk=ALL, durations=ALL_DURATIONS)
    )
    assert _classes(everything.content) == [
        "LTCL_VAT",
        "LTCL_VAT_RATES",
        "LTCL_LEGACY",
        "LTCL_LEGACY_SYSTEM",
        "LTCL_DOUBLE",
    ]
    only_critical_long = await _run(
        qa_client,
        run_configuration(
            QA_PACKAGE,
            risk={"harmless": False, "dangerous": False, "critical": True},
            durations={"short": False, "medium": False, "long": True},
        ),
    )
    assert _classes(only_critical_long.content) == ["LTCL_LEGACY_SYSTEM"]
    assert 'riskLevel="critical"' in only_critical_long.text
    assert 'durationCategory="long"' in only_critical_long.text
    none_allowed = await _run(
        qa_client,
        run_configuration(LEGACY, risk={"harmless": False, "dangerous": True, "critical": False}),
    )
    assert none_allowed.text == NO_TESTS


async def test_nothing_to_test_is_the_run_level_alert(adt_client: httpx.AsyncClient) -> None:
    response = await _run(adt_client, run_configuration(f"{ADT}/oo/interfaces/zif_demo_greeting"))
    assert response.status_code == 200
    assert response.text == NO_TESTS  # A4H 361, byte for byte


async def test_program_tests_carry_program_types_and_positions(
    qa_client: httpx.AsyncClient,
) -> None:
    response = await _run(qa_client, run_configuration(LEGACY))
    root = etree.fromstring(response.content)
    [program] = root.findall("program")
    assert program.get(f"{ADTCORE}type") == "PROG/P"
    [test_class] = program.iter("testClass")
    assert test_class.get(f"{ADTCORE}type") == "PROG/PP"
    assert test_class.get("navigationUri") == (
        f"{LEGACY}/source/main#type=PROG%2FPL;name=LTCL_LEGACY"
    )
    [method] = test_class.iter("testMethod")
    assert method.get(f"{ADTCORE}type") == "PROG/OLI"
    assert (method.get("navigationUri") or "").startswith(
        f"{LEGACY}/source/main#type=PROG%2FPLM;name=LTCL_LEGACY%20"
    )


async def test_function_group_tests_live_in_its_includes(qa_client: httpx.AsyncClient) -> None:
    for uri in (QA_GROUP, f"{QA_GROUP}/fmodules/z_demo_qa_double"):
        response = await _run(qa_client, run_configuration(uri))
        [program] = etree.fromstring(response.content).findall("program")
        assert (program.get(f"{ADTCORE}type"), program.get(f"{ADTCORE}name")) == (
            "FUGR/F",
            "ZDEMO_QA_FG",
        )
        assert list(_methods(response.content)) == ["DOUBLES", "FACTOR_IS_TWO"]
        assert f"{QA_GROUP}/includes/lzdemo_qa_fgt99/source/main#type=PROG%2FPL" in response.text


def _failing_seed(tmp_path: Path) -> Path:
    program = (
        "REPORT zunit_prog.\n\nCLASS ltc DEFINITION FOR TESTING RISK LEVEL HARMLESS.\n"
        "  PRIVATE SECTION.\n    METHODS breaks FOR TESTING.\nENDCLASS.\n\n"
        "CLASS ltc IMPLEMENTATION.\n  METHOD breaks.\n"
        "    cl_abap_unit_assert=>fail( msg = 'not yet' ).\n  ENDMETHOD.\nENDCLASS.\n"
    )
    group_xml = (
        "<abapGit><asx:abap xmlns:asx='http://www.sap.com/abapxml'><asx:values><AREAT>g</AREAT>"
        "<FUNCTIONS/></asx:values></asx:abap></abapGit>"
    )
    tests = (
        "CLASS ltc_g DEFINITION FOR TESTING RISK LEVEL HARMLESS.\n  PRIVATE SECTION.\n"
        "    METHODS truth FOR TESTING.\nENDCLASS.\nCLASS ltc_g IMPLEMENTATION.\n"
        "  METHOD truth.\n    cl_abap_unit_assert=>assert_true( abap_false ).\n  ENDMETHOD.\n"
        "ENDCLASS.\n"
    )
    return write_abapgit(
        tmp_path,
        {
            "zunit_prog.prog.abap": program,
            "zunit_fg.fugr.xml": group_xml,
            "zunit_fg.fugr.saplzunit_fg.abap": "FUNCTION-POOL zunit_fg.\nINCLUDE lzunit_fgt99.\n",
            "zunit_fg.fugr.lzunit_fgt99.abap": tests,
        },
    )


async def test_failures_in_programs_and_function_groups(tmp_path: Path) -> None:
    emulator = Emulator(seed_dirs=[_failing_seed(tmp_path)])
    transport = httpx.ASGITransport(app=emulator.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://e", auth=("DEVELOPER", "developer")
    ) as client:
        prog = f"{ADT}/programs/programs/zunit_prog"
        group = f"{ADT}/functions/groups/zunit_fg"
        response = await _run(client, run_configuration(prog, group))
    root = etree.fromstring(response.content)
    entries = {e.get(f"{ADTCORE}name"): e for e in root.iter("stackEntry")}
    assert entries["ZUNIT_PROG"].get(f"{ADTCORE}uri") == f"{prog}/source/main#start=10,0"
    assert entries["ZUNIT_PROG"].get(f"{ADTCORE}type") == "PROG/P"
    assert entries["ZUNIT_PROG"].get(f"{ADTCORE}description") == (
        "Include: <ZUNIT_PROG> Line: <10> (BREAKS)"
    )
    include = f"{group}/includes/lzunit_fgt99/source/main"
    assert entries["LZUNIT_FGT99"].get(f"{ADTCORE}uri") == f"{include}#start=7,0"
    titles = [a.findtext("title") for a in root.iter("alert")]
    assert titles == [
        "Critical Assertion Error: 'not yet'",
        "Critical Assertion Error: 'Truth: ASSERT_TRUE'",
    ]
    details = [d.get("text") for d in root.iter("detail")]
    assert "Test 'LTC->BREAKS' in Main Program 'ZUNIT_PROG'." in details
    assert "True expected" in details
    assert "Test 'LTC_G->TRUTH' in Main Program 'SAPLZUNIT_FG'." in details


async def test_runs_read_the_active_version(
    quality: Emulator, qa_client: httpx.AsyncClient
) -> None:
    include = f"{VAT}/includes/testclasses"
    source = quality.source(include, "active")
    assert source is not None
    fixed = source.replace("exp = 16", "exp = 19")
    token = await fetch_token(qa_client, stateful=True)
    handle = await lock(qa_client, token, VAT)
    assert (await put_source(qa_client, token, include, handle, fixed)).status_code == 200
    await unlock(qa_client, token, VAT, handle)
    saved = await _run(qa_client, run_configuration(VAT))
    assert _methods(saved.content)["RATE_IS_NINETEEN"].find("alerts") is not None
    assert (await activate(qa_client, token, VAT)).status_code == 200
    activated = await _run(qa_client, run_configuration(VAT))
    assert "<alerts>" not in activated.text


async def test_fragments_narrow_the_run_to_classes_and_methods(
    qa_client: httpx.AsyncClient,
) -> None:
    one_method = await _run(
        qa_client, run_configuration(f"{VAT}#testclass=LTCL_VAT;testmethod=ADDS_THE_RATE")
    )
    assert list(_methods(one_method.content)) == ["ADDS_THE_RATE"]
    navigation = (
        f"{VAT}/includes/testclasses#type=CLAS%2FOLD;name=LTCL_VAT{'%20' * 22}RATE_IS_NINETEEN"
    )
    evaluation = await _run(qa_client, run_configuration(navigation), path="testruns/evaluation")
    assert evaluation.status_code == 200
    assert list(_methods(evaluation.content)) == ["RATE_IS_NINETEEN"]
    one_class = await _run(
        qa_client,
        run_configuration(f"{VAT}#testclass=LTCL_VAT_RATES", risk=ALL, durations=ALL_DURATIONS),
    )
    assert _classes(one_class.content) == ["LTCL_VAT_RATES"]


async def test_abap_adt_api_evaluation_content_type_is_accepted(
    qa_client: httpx.AsyncClient,
) -> None:
    token = await fetch_token(qa_client)
    response = await qa_client.post(
        f"{ADT}/abapunit/testruns/evaluation",
        content=run_configuration(f"{VAT}#testclass=LTCL_VAT;testmethod=RATE_IS_NINETEEN"),
        headers={
            "x-csrf-token": token,
            "Content-Type": "application/*l",
            "Accept": "application/*",
        },
    )
    assert response.status_code == 200
    assert list(_methods(response.content)) == ["RATE_IS_NINETEEN"]


async def test_refusals(adt_client: httpx.AsyncClient) -> None:
    missing = await _run(adt_client, run_configuration(f"{ADT}/oo/classes/zcl_nowhere"))
    assert missing.status_code == 404
    info = exc_info(missing)
    assert (info["type"], info["T100KEY-ID"], info["T100KEY-NO"]) == (
        "ExceptionResourceNotFound",
        "SADT_RESOURCE",
        "002",
    )
    assert info["message"] == "Resource CLASS ZCL_NOWHERE does not exist."
    no_package = await _run(adt_client, run_configuration(f"{ADT}/packages/znowhere"))
    assert no_package.status_code == 404
    assert exc_info(no_package)["T100KEY-ID"] == "SWB_TOOL"
    wrong_method = await adt_client.get(f"{ADT}/abapunit/testruns")
    assert wrong_method.status_code == 405
    assert wrong_method.text.startswith(EXC_PREFIX)
    not_xml = await _run(adt_client, "this is not XML")
    assert not_xml.status_code == 400
    token = await fetch_token(adt_client)
    refused = await adt_client.post(
        f"{ADT}/abapunit/testruns",
        content=run_configuration(COUNTER),
        headers={"x-csrf-token": token, "Content-Type": "application/*", "Accept": "text/plain"},
    )
    assert refused.status_code == 406


API_RUN = """<?xml version="1.0" encoding="UTF-8"?>
<aunit:run xmlns:aunit="http://www.sap.com/adt/api/aunit" title="Nightly" context="Emulator test">
  <aunit:options>
    <aunit:scope ownTests="true" foreignTests="false" addForeignTestsAsPreview="true"/>
    <aunit:riskLevel harmless="true" dangerous="true" critical="true"/>
    <aunit:duration short="true" medium="true" long="true"/>
  </aunit:options>
  <osl:objectSet xmlns:osl="http://www.sap.com/api/osl"
      xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="osl:flatObjectSet">
    <osl:object name="ZCL_DEMO_VAT" type="CLAS"/>
  </osl:objectSet>
</aunit:run>"""


async def test_the_asynchronous_api(qa_client: httpx.AsyncClient) -> None:
    token = await fetch_token(qa_client)
    started = await qa_client.post(
        f"{ADT}/abapunit/runs",
        content=API_RUN,
        headers={
            "x-csrf-token": token,
            "Content-Type": "application/vnd.sap.adt.api.abapunit.run.v2+xml",
        },
    )
    assert started.status_code == 201
    assert started.content == b""
    location = started.headers["location"]
    assert re.fullmatch(rf"{ADT}/abapunit/runs/[0-9A-F]{{32}}", location)
    run_id = location.rsplit("/", 1)[1]
    status = await qa_client.get(
        f"{location}?withLongPolling=true",
        headers={"Accept": "application/vnd.sap.adt.api.abapunit.run-status.v1+xml"},
    )
    assert status.status_code == 200
    assert status.headers["content-type"] == (
        "application/vnd.sap.adt.api.abapunit.run-status.v1+xml; charset=utf-8"
    )
    root = etree.fromstring(status.content)
    api = "{http://www.sap.com/adt/api/aunit}"
    assert (root.get("title"), root.get("context")) == ("Nightly", "Emulator test")
    progress = root.find(f"{api}progress")
    assert progress is not None and progress.get("status") == "FINISHED"
    links = root.findall("{http://www.w3.org/2005/Atom}link")
    assert {link.get("href") for link in links} == {f"{ADT}/abapunit/results/{run_id}"}
    result = await qa_client.get(
        f"{ADT}/abapunit/results/{run_id}",
        headers={"Accept": "application/vnd.sap.adt.api.abapunit.run-result.v1+xml"},
    )
    assert result.headers["content-type"] == (
        "application/vnd.sap.adt.api.abapunit.run-result.v1+xml; charset=utf-8"
    )
    assert result.text.startswith(
        f'<?xml version="1.0" encoding="utf-8"?><aunit:runResult xmlns:aunit="{AUNIT}">'
    )
    assert "navigationUri" not in result.text
    assert re.search(r"#start=(\d+),0;end=\1,0", result.text)
    assert _classes(result.content) == ["LTCL_VAT", "LTCL_VAT_RATES"]
    junit = await qa_client.get(
        f"{ADT}/abapunit/results/{run_id}",
        headers={"Accept": "application/vnd.sap.adt.api.junit.run-result.v1+xml"},
    )
    assert junit.status_code == 406
    unknown = await qa_client.get(f"{ADT}/abapunit/runs/{'0' * 32}")
    assert unknown.status_code == 404


async def test_the_asynchronous_api_takes_a_package(qa_client: httpx.AsyncClient) -> None:
    body = API_RUN.replace(
        'xsi:type="osl:flatObjectSet">\n    <osl:object name="ZCL_DEMO_VAT" type="CLAS"/>',
        'xsi:type="osl:multiPropertySet">\n    <osl:property key="package" value="$ZDEMO_QA"/>',
    )
    token = await fetch_token(qa_client)
    started = await qa_client.post(
        f"{ADT}/abapunit/runs", content=body, headers={"x-csrf-token": token}
    )
    result = await qa_client.get(started.headers["location"].replace("/runs/", "/results/"))
    programs = [p.get(f"{ADTCORE}name") for p in etree.fromstring(result.content).iter("program")]
    assert programs == ["ZCL_DEMO_VAT", "ZDEMO_QA_LEGACY", "ZDEMO_QA_FG"]


async def test_the_asynchronous_api_takes_one_test_class(qa_client: httpx.AsyncClient) -> None:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><aunit:run title="t" context="c" '
        'xmlns:aunit="http://www.sap.com/adt/api/aunit"><aunit:options>'
        '<aunit:riskLevel harmless="true" dangerous="true" critical="true"/>'
        '<aunit:duration short="true" medium="true" long="true"/></aunit:options>'
        '<aunit:tests><aunit:test containerClass="ZCL_DEMO_VAT" class="LTCL_VAT_RATES"/>'
        "</aunit:tests></aunit:run>"
    )
    token = await fetch_token(qa_client)
    started = await qa_client.post(
        f"{ADT}/abapunit/runs", content=body, headers={"x-csrf-token": token}
    )
    assert started.status_code == 201
    result = await qa_client.get(started.headers["location"].replace("/runs/", "/results/"))
    assert _classes(result.content) == ["LTCL_VAT_RATES"]
    refused = await qa_client.post(
        f"{ADT}/abapunit/runs", content=run_configuration(VAT), headers={"x-csrf-token": token}
    )
    assert refused.status_code == 400


# --- the evaluation itself ---------------------------------------------------------------

EVALUATED = """CLASS ltc DEFINITION FOR TESTING.
  PRIVATE SECTION.
    CONSTANTS: c_name TYPE c LENGTH 10 VALUE 'Ada', c_count TYPE i VALUE 3.
    METHODS: guarded FOR TESTING, chained FOR TESTING RAISING cx_static_check,
      texts FOR TESTING, numbers_and_text FOR TESTING, unknown FOR TESTING.
    METHODS call_method FOR TESTING.
    METHODS second_only FOR TESTING.
    METHODS helper.
ENDCLASS.

CLASS ltc IMPLEMENTATION.
  METHOD guarded.
    IF lines( mt_x ) > 0.
      cl_abap_unit_assert=>fail( ).
    ENDIF.
  ENDMETHOD.
  METHOD chained.
    cl_abap_unit_assert=>assert_equals( act = me->c_count exp = 3 ).
    cl_abap_unit_assert=>assert_differs( act = ltc=>c_count exp = 3 ).
    cl_abap_unit_assert=>fail( ).
  ENDMETHOD.
  METHOD texts.
    cl_abap_unit_assert=>assert_equals( act = c_name exp = `Ada` ).
    cl_abap_unit_assert=>assert_equals( act = 'Ada  ' exp = 'Ada' ).
    cl_abap_unit_assert=>assert_equals( act = `Ada ` exp = `Ada` ).
  ENDMETHOD.
  METHOD numbers_and_text.
    cl_abap_unit_assert=>assert_equals( act = '42' exp = 42 ).
    cl_abap_unit_assert=>assert_equals( act = 'forty-two' exp = 42 ).
    cl_abap_unit_assert=>assert_initial( act = '' ).
    cl_abap_unit_assert=>assert_not_initial( act = 0 ).
  ENDMETHOD.
  METHOD unknown.
    cl_abap_unit_assert=>assert_equals( act = lo_cut->value( ) exp = 99 ).
    cl_abap_unit_assert=>assert_true( xsdbool( 1 = 2 ) ).
  ENDMETHOD.
  METHOD call_method.
    CALL METHOD cl_abap_unit_assert=>assert_false
      EXPORTING act = abap_true level = if_aunit_constants=>tolerable.
  ENDMETHOD.
  METHOD second_only.
    cl_abap_unit_assert=>assert_true( act = abap_true ).
    cl_abap_unit_assert=>fail( msg = 'first' detail = 'why' ).
    cl_abap_unit_assert=>fail( msg = 'second' ).
  ENDMETHOD.
  METHOD helper.
    cl_abap_unit_assert=>fail( ).
  ENDMETHOD.
ENDCLASS.
"""


def _line_of(snippet: str) -> int:
    [number] = [n for n, line in enumerate(EVALUATED.split("\n"), 1) if snippet in line]
    return number


def test_what_the_evaluation_decides() -> None:
    [test_class] = read_test_classes(EVALUATED, object_constants([EVALUATED]))
    assert (test_class.risk_level, test_class.duration) == ("critical", "short")  # ABAP defaults
    outcomes = {m.name: m.failure for m in test_class.methods}
    assert list(outcomes) == [
        "GUARDED",
        "CHAINED",
        "TEXTS",
        "NUMBERS_AND_TEXT",
        "UNKNOWN",
        "CALL_METHOD",
        "SECOND_ONLY",
    ]
    assert outcomes["GUARDED"] is None  # inside IF: may not run
    chained = outcomes["CHAINED"]
    assert chained is not None and chained.line == _line_of("assert_differs(")  # the first
    assert chained.title == "Critical Assertion Error: 'Chained: ASSERT_DIFFERS'"
    texts = outcomes["TEXTS"]
    assert texts is not None and texts.line == _line_of("act = `Ada `")  # strings keep blanks
    assert texts.details[0].children[0].text == "Expected [Ada] Actual [Ada ]"
    numbers = outcomes["NUMBERS_AND_TEXT"]
    assert numbers is not None and numbers.line == _line_of("assert_not_initial(")  # '42' = 42
    assert numbers.details[0].text == "Non-initial value expected"
    assert outcomes["UNKNOWN"] is None
    tolerable = outcomes["CALL_METHOD"]
    assert tolerable is not None
    assert (tolerable.severity, tolerable.title) == (
        "tolerable",
        "Tolerable Assertion Error: 'Call_Method: ASSERT_FALSE'",
    )
    assert tolerable.details[0].text == "False expected"
    second = outcomes["SECOND_ONLY"]
    assert second is not None and second.title == "Critical Assertion Error: 'first'"
    assert [d.text for d in second.details] == ["why"]


# --- against the A4H captures (skipped when a capture is not in ../shared) -----------------

PROBE_TESTS = """CLASS ltcl_probe DEFINITION FINAL FOR TESTING
  DURATION SHORT
  RISK LEVEL HARMLESS.

  PRIVATE SECTION.
    METHODS test_fails FOR TESTING.
    METHODS test_passes FOR TESTING.
ENDCLASS.


CLASS ltcl_probe IMPLEMENTATION.

  METHOD test_passes.
  ENDMETHOD.

  METHOD test_fails.
    cl_abap_unit_assert=>assert_equals( act = 42 exp = 43
      msg = 'deliberate failure to capture the failure envelope' ).
  ENDMETHOD.

ENDCLASS.
"""


def _capture(captures: Path, name: str) -> bytes:
    path = captures / "a4h" / name
    if not path.is_file():
        pytest.skip(f"capture {name} is not in {captures}")
    return path.read_bytes()


@pytest.mark.captures
async def test_a_failure_is_the_a4h_382_document(adt_captures: Path, tmp_path: Path) -> None:
    expected = _capture(adt_captures, "382-ut-testrun.xml")
    seed = write_abapgit(
        tmp_path,
        {
            "zcl_zmcp_ut_probe.clas.abap": "CLASS zcl_zmcp_ut_probe DEFINITION PUBLIC.\nENDCLASS."
            "\nCLASS zcl_zmcp_ut_probe IMPLEMENTATION.\nENDCLASS.\n",
            "zcl_zmcp_ut_probe.clas.testclasses.abap": PROBE_TESTS,
        },
    )
    emulator = Emulator(seed_dirs=[seed])
    transport = httpx.ASGITransport(app=emulator.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://e", auth=("DEVELOPER", "developer")
    ) as client:
        body = run_configuration(
            f"{ADT}/oo/classes/zcl_zmcp_ut_probe", risk=ALL, durations=ALL_DURATIONS
        )
        response = await _run(client, body)
    # A4H measured 0.05 s for the failing method; the emulator reports 0 s everywhere
    assert response.content.replace(b'executionTime="0"', b"") == expected.replace(
        b'executionTime="0.05"', b""
    ).replace(b'executionTime="0"', b"")


@pytest.mark.captures
async def test_an_all_pass_run_has_the_a4h_852_structure(
    adt_captures: Path, adt_client: httpx.AsyncClient
) -> None:
    from .xmlcompare import structure_diff

    expected = _capture(adt_captures, "852-i75-ut-testrun-allpass.xml")
    response = await _run(adt_client, run_configuration(COUNTER))
    diffs = structure_diff(
        expected,
        response.content,
        ignore_values=["uri", "name", "navigationUri", "type"],
    )
    assert diffs == []


CONTROL_FLOW = """CLASS ltcl_flow DEFINITION FOR TESTING RISK LEVEL HARMLESS DURATION SHORT FINAL.
  PRIVATE SECTION.
    METHODS expects_an_exception FOR TESTING RAISING cx_static_check.
    METHODS returns_in_if FOR TESTING.
    METHODS exits_a_loop_only FOR TESTING.
    METHODS checks_first FOR TESTING.
    METHODS returns_first FOR TESTING.
    METHODS raises_an_event FOR TESTING.
ENDCLASS.

CLASS ltcl_flow IMPLEMENTATION.
  METHOD expects_an_exception.
    TRY.
        zcl_abapgit_factory=>get_sap_namespace( )->split_by_name( '/TEST12345/BLA' ).
      CATCH zcx_abapgit_exception.
        RETURN.
    ENDTRY.
    cl_abap_unit_assert=>fail( 'No Exception raised' ).
  ENDMETHOD.
  METHOD returns_in_if.
    IF sy-subrc = 0.
      RETURN.
    ENDIF.
    cl_abap_unit_assert=>fail( 'maybe' ).
  ENDMETHOD.
  METHOD exits_a_loop_only.
    DO 3 TIMES.
      EXIT.
    ENDDO.
    cl_abap_unit_assert=>fail( 'surely' ).
  ENDMETHOD.
  METHOD checks_first.
    CHECK sy-subrc = 0.
    cl_abap_unit_assert=>fail( 'maybe' ).
  ENDMETHOD.
  METHOD returns_first.
    RETURN.
    cl_abap_unit_assert=>fail( 'never' ).
  ENDMETHOD.
  METHOD raises_an_event.
    RAISE EVENT something_happened.
    cl_abap_unit_assert=>fail( 'surely' ).
  ENDMETHOD.
ENDCLASS.
"""


def test_control_flow_decides_which_assertions_surely_run() -> None:
    """abapGit's ZCL_ABAPGIT_SAP_NAMESPACE tests expect an exception: the ``fail( )`` after
    ``TRY … CATCH … RETURN. ENDTRY.`` runs only when none came, which cannot be known."""
    [test_class] = read_test_classes(CONTROL_FLOW)
    outcomes = {m.name: m.failure for m in test_class.methods}
    assert outcomes["EXPECTS_AN_EXCEPTION"] is None  # could not decide: passes
    assert outcomes["RETURNS_IN_IF"] is None  # could not decide
    assert outcomes["CHECKS_FIRST"] is None  # could not decide
    assert outcomes["RETURNS_FIRST"] is None  # never runs
    surely = outcomes["EXITS_A_LOOP_ONLY"]
    assert surely is not None and surely.title == "Critical Assertion Error: 'surely'"
    event = outcomes["RAISES_AN_EVENT"]
    assert event is not None and event.title == "Critical Assertion Error: 'surely'"
