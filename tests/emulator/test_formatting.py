"""The emulator's pretty printer, its settings and quick fixes, requested the way
abap-adt-api and the A4H recorder do; answers compared with the recorded A4H ones (962, 963,
964, 801, 804, 805) where they exist."""

from __future__ import annotations

import hashlib
import re

import httpx
import pytest

from adt.emulator import Emulator

from .helpers import ADT, EXC_PREFIX, GREETER, REPORT, exc_info, fetch_token, parse

PP = f"{ADT}/abapsource/prettyprinter"
SETTINGS = f"{PP}/settings"
EVALUATION = f"{ADT}/quickfixes/evaluation"
PROPOSALS = f"{ADT}/quickfixes/proposals/providers/refactoring/quickfixes"
QF_HEADERS = {"Content-Type": "application/*", "Accept": "application/*"}
NS_QF = "{http://www.sap.com/adt/quickfixes}"
NS_CORE = "{http://www.sap.com/adt/core}"

# A4H 962: the settings document, byte for byte.
A4H_SETTINGS = (
    '<?xml version="1.0" encoding="utf-8"?><abapformatter:PrettyPrinterSettings '
    'abapformatter:indentation="true" abapformatter:style="keywordUpper" '
    'abapformatter:keepIdentifier="true" '
    'xmlns:abapformatter="http://www.sap.com/adt/prettyprintersettings"/>'
)
# A4H 963/964: request body and the SHA-256 of the 327-byte answer.
A4H_FORMAT_REQUEST = (
    "class zcl_i91_probe definition public final create public.\n  public section.\n"
    "    methods run importing iv_times type i default 1 returning value(rv_total) type i.\n"
    "endclass.\n\nclass zcl_i91_probe implementation.\n  method run.\n"
    "    data lv_x type i. lv_x = 1.\n      rv_total = lv_x * iv_times.\n  endmethod.\n"
    "endclass.\n"
)
A4H_FORMAT_SHA256 = "a1b3fc9775fc2ed5a397a3c5778588eaff730a57ce9b82a81a5d957a637493c9"
# A4H 801, 804 and 805: the probe program, positions and answers.
PROBE = f"{ADT}/programs/programs/zmcp_qf_probe1/source/main"
PROBE_CLASS = (
    "REPORT zmcp_qf_probe1.\r\n\r\nCLASS lcl DEFINITION.\r\n  PUBLIC SECTION.\r\n"
    "    METHODS run.\r\nENDCLASS.\r\n\r\nCLASS lcl IMPLEMENTATION.\r\nENDCLASS."
)
PROBE_ATC = (
    "REPORT zmcp_qf_probe1.\r\n\r\nDATA lv_text TYPE string.\r\nDATA lv_unused TYPE i.\r\n"
    "\r\nBREAK-POINT.\r\n\r\nMOVE 'abc' TO lv_text.\r\n\r\nTRANSLATE lv_text TO UPPER CASE."
    "\r\n\r\nWRITE / lv_text."
)
A4H_EMPTY_SHA256 = "ca6f27fe0204795e54176b2eea2721dd609cd37ba31ba25f69fd49bee61c0fc6"
A4H_804_FIRST_RESULT = (
    "<evaluationResult><adtcore:objectReference adtcore:uri="
    '"/sap/bc/adt/quickfixes/proposals/providers/refactoring/quickfixes/unimplemented_methods"'
    ' adtcore:type="add_unimplemented_method" adtcore:name="Add implementation for \'run\'"'
    ' adtcore:description="&lt;p&gt;Creates an empty method implementation for method '
    '&lt;b&gt;run&lt;/b&gt; in class &lt;b&gt;lcl&lt;/b&gt;.&lt;/p&gt;" '
    'xmlns:adtcore="http://www.sap.com/adt/core"/></evaluationResult>'
)
A4H_805_SHA256 = "353cdc2a20d4967a0a3b49fcb43d9f7c7817f4366628cd7b00bef20d792635b2"


def proposal_request(source: str, uri: str) -> str:
    """The body abap-adt-api's ``fixEdits`` sends (source entity-encoded)."""
    content = source.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    content = content.replace("'", "&apos;").replace('"', "&quot;")
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n  <quickfixes:proposalRequest '
        'xmlns:quickfixes="http://www.sap.com/adt/quickfixes"\n     '
        'xmlns:adtcore="http://www.sap.com/adt/core">\n    <input>\n      '
        f'<content>{content}</content>\n      <adtcore:objectReference adtcore:uri="{uri}"/>\n'
        "    </input>\n    <userContent></userContent>\n  </quickfixes:proposalRequest>"
    )


@pytest.fixture
async def token(adt_client: httpx.AsyncClient) -> str:
    return await fetch_token(adt_client)


async def evaluate(
    client: httpx.AsyncClient, token: str, source_uri: str, text: str, line: int, column: int
) -> httpx.Response:
    return await client.post(
        EVALUATION,
        params={"uri": f"{source_uri}#start={line},{column}"},
        content=text.encode("utf-8"),
        headers={"x-csrf-token": token, **QF_HEADERS},
    )


async def propose(
    client: httpx.AsyncClient, token: str, fix_id: str, text: str, uri: str
) -> httpx.Response:
    return await client.post(
        f"{PROPOSALS}/{fix_id}",
        content=proposal_request(text, uri).encode("utf-8"),
        headers={"x-csrf-token": token, **QF_HEADERS},
    )


def kinds(response: httpx.Response) -> list[str]:
    root = parse(response.content)
    return [ref.get(f"{NS_CORE}type") or "" for ref in root.iter(f"{NS_CORE}objectReference")]


def units(response: httpx.Response) -> list[tuple[str, str]]:
    root = parse(response.content)
    return [
        (
            unit.find(f"{NS_CORE}objectReference").get(f"{NS_CORE}uri") or "",  # type: ignore[union-attr]
            unit.findtext("content") or "",
        )
        for unit in root.iter("unit")
    ]


# --- settings -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "accept", ["*/*", "application/*", "application/vnd.sap.adt.ppsettings.v5+xml"]
)
async def test_settings_are_a4h_document_byte_for_byte(
    adt_client: httpx.AsyncClient, accept: str
) -> None:
    response = await adt_client.get(SETTINGS, headers={"Accept": accept})
    assert response.status_code == 200
    assert response.headers["content-type"] == (
        "application/vnd.sap.adt.ppsettings.v5+xml; charset=utf-8"
    )
    assert response.text == A4H_SETTINGS
    assert len(response.content) == 247


async def test_settings_refuse_an_accept_they_cannot_serve(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(SETTINGS, headers={"Accept": "text/plain"})
    assert response.status_code == 406
    assert exc_info(response)["T100KEY-NO"] == "037"


async def test_settings_are_written_per_user_in_the_shape_clients_send(
    emulator: Emulator, adt_client: httpx.AsyncClient, token: str
) -> None:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><prettyprintersettings:PrettyPrinterSettings\n'
        'xmlns:prettyprintersettings="http://www.sap.com/adt/prettyprintersettings"\n'
        'prettyprintersettings:indentation="false" prettyprintersettings:style="toLower"/>'
    )
    response = await adt_client.put(
        SETTINGS, content=body, headers={"x-csrf-token": token, "Content-Type": "application/*"}
    )
    assert response.status_code == 200
    assert response.content == b""
    mine = await adt_client.get(SETTINGS)
    assert 'abapformatter:indentation="false" abapformatter:style="toLower"' in mine.text
    assert 'abapformatter:keepIdentifier="true"' in mine.text  # not sent: kept
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=emulator.app),
        base_url="http://emulator",
        auth=("COLLEAGUE", "colleague"),
    ) as colleague:
        theirs = await colleague.get(SETTINGS)
    assert theirs.text == A4H_SETTINGS


@pytest.mark.parametrize(
    ("content_type", "body", "status"),
    [
        ("application/*", '<x:PrettyPrinterSettings xmlns:x="urn:other" x:style="toLower"/>', 400),
        (
            "application/*",
            '<p:PrettyPrinterSettings xmlns:p="http://www.sap.com/adt/prettyprintersettings" '
            'p:style="shout"/>',
            400,
        ),
        (
            "application/*",
            '<p:PrettyPrinterSettings xmlns:p="http://www.sap.com/adt/prettyprintersettings" '
            'p:indentation="yes"/>',
            400,
        ),
        ("application/*", "<not xml", 400),
        ("text/plain", "<p:PrettyPrinterSettings/>", 415),
    ],
)
async def test_settings_refuse_what_they_cannot_store(
    adt_client: httpx.AsyncClient, token: str, content_type: str, body: str, status: int
) -> None:
    response = await adt_client.put(
        SETTINGS, content=body, headers={"x-csrf-token": token, "Content-Type": content_type}
    )
    assert response.status_code == status
    assert response.text.startswith(EXC_PREFIX)
    assert (await adt_client.get(SETTINGS)).text == A4H_SETTINGS


async def test_settings_accept_the_media_types_discovery_lists(
    adt_client: httpx.AsyncClient, token: str
) -> None:
    body = (
        '<p:PrettyPrinterSettings xmlns:p="http://www.sap.com/adt/prettyprintersettings" '
        'p:style="keywordLower"/>'
    )
    response = await adt_client.put(
        SETTINGS,
        content=body,
        headers={
            "x-csrf-token": token,
            "Content-Type": "application/vnd.sap.adt.ppsettings.v4+xml; charset=utf-8",
        },
    )
    assert response.status_code == 200
    assert 'abapformatter:style="keywordLower"' in (await adt_client.get(SETTINGS)).text


async def test_settings_need_a_csrf_token_to_change(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.put(SETTINGS, content=b"<x/>")
    assert response.status_code == 403


# --- pretty printer -----------------------------------------------------------------------


async def format_text(client: httpx.AsyncClient, token: str, text: str) -> httpx.Response:
    return await client.post(
        PP,
        content=text.encode("utf-8"),
        headers={"x-csrf-token": token, "Content-Type": "text/plain", "Accept": "text/plain"},
    )


async def test_pretty_printer_answers_like_a4h(adt_client: httpx.AsyncClient, token: str) -> None:
    first = await format_text(adt_client, token, A4H_FORMAT_REQUEST)
    assert first.status_code == 200
    assert first.headers["content-type"] == "text/plain; charset=utf-8"
    assert hashlib.sha256(first.content).hexdigest() == A4H_FORMAT_SHA256
    again = await format_text(adt_client, token, first.text)
    assert again.content == first.content


async def test_pretty_printer_uses_the_callers_settings(
    adt_client: httpx.AsyncClient, token: str
) -> None:
    body = (
        '<p:PrettyPrinterSettings xmlns:p="http://www.sap.com/adt/prettyprintersettings" '
        'p:indentation="false" p:style="toLower" p:keepIdentifier="false"/>'
    )
    await adt_client.put(SETTINGS, content=body, headers={"x-csrf-token": token})
    response = await format_text(adt_client, token, "REPORT ZX.\n  WRITE LV_X. WRITE 'A'.")
    assert response.text == "report zx.\r\n  write lv_x.\r\n  write 'A'."


@pytest.mark.parametrize(
    ("method", "headers", "status"),
    [("GET", {}, 405), ("POST", {"Accept": "application/xml"}, 406), ("POST", None, 403)],
)
async def test_pretty_printer_refusals(
    adt_client: httpx.AsyncClient,
    token: str,
    method: str,
    headers: dict[str, str] | None,
    status: int,
) -> None:
    sent = {"x-csrf-token": token, **headers} if headers is not None else {}
    response = await adt_client.request(method, PP, content=b"write x.", headers=sent)
    assert response.status_code == status


# --- quick fixes: evaluation --------------------------------------------------------------


async def test_evaluation_offers_the_missing_implementation_like_a4h(
    adt_client: httpx.AsyncClient, token: str
) -> None:
    response = await evaluate(adt_client, token, PROBE, PROBE_CLASS, 3, 0)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/xml; charset=utf-8"
    assert response.text == (
        '<?xml version="1.0" encoding="utf-8"?><qf:evaluationResults '
        'xmlns:qf="http://www.sap.com/adt/quickfixes">'
        + A4H_804_FIRST_RESULT
        + "</qf:evaluationResults>"
    )


async def test_nothing_to_fix_is_the_empty_document_of_a4h(
    adt_client: httpx.AsyncClient, token: str
) -> None:
    response = await evaluate(adt_client, token, PROBE, PROBE_ATC, 6, 0)
    assert response.status_code == 200
    assert hashlib.sha256(response.content).hexdigest() == A4H_EMPTY_SHA256


async def test_an_undeclared_variable_of_the_sample_report_can_be_declared(
    emulator: Emulator, adt_client: httpx.AsyncClient, token: str
) -> None:
    source = f"{REPORT}/source/main"
    stored = emulator.source(source)
    text = stored.replace("DATA lv_sum TYPE i.", "DATA lv_sum TYPE i.\n  lv_undeclared = 1.")
    line = text.split("\n").index("  lv_undeclared = 1.") + 1
    found = await evaluate(adt_client, token, source, text, line, 4)
    assert kinds(found) == ["declare_local_variable"]
    root = parse(found.content)
    reference = root.find(f"evaluationResult/{NS_CORE}objectReference")
    assert reference is not None
    uri = reference.get(f"{NS_CORE}uri") or ""
    assert uri == f"{PROPOSALS}/declare_local_variable"
    edits = await adt_client.post(
        uri,
        content=proposal_request(text, f"{source}#start={line},4"),
        headers={"x-csrf-token": token, **QF_HEADERS},
    )
    assert units(edits) == [(f"{source}#start={line - 1},21", "\n  DATA lv_undeclared TYPE any.")]
    assert emulator.source(source) == stored  # neither hop changes the stored source


async def test_names_declared_in_related_sources_are_not_offered(
    emulator: Emulator, adt_client: httpx.AsyncClient, token: str
) -> None:
    source = f"{GREETER}/includes/implementations"
    text = emulator.source(source).replace(
        "    IF iv_text IS INITIAL.", "    lv_new = iv_text.\n    IF iv_text IS INITIAL."
    )
    line = text.split("\n").index("    lv_new = iv_text.") + 1
    assert kinds(await evaluate(adt_client, token, source, text, line, 5)) == [
        "declare_local_variable"
    ]  # the class definition is in the definitions include
    assert kinds(await evaluate(adt_client, token, source, text, line, 15)) == []
    main = f"{GREETER}/source/main"
    greeter = emulator.source(main)
    line = greeter.split("\n").index("    IF iv_name IS INITIAL.") + 1
    assert kinds(await evaluate(adt_client, token, main, greeter, line, 8)) == []  # interface
    group = f"{ADT}/functions/groups/zdemo_fg/fmodules/z_demo_add/source/main"
    fm = emulator.source(group).replace("  gv_calls = gv_calls + 1.", "  gv_calls = 1.")
    line = fm.split("\n").index("  gv_calls = 1.") + 1
    assert kinds(await evaluate(adt_client, token, group, fm, line, 3)) == []  # TOP include


async def test_the_declaration_goes_after_the_interface_of_a_function_module(
    emulator: Emulator, adt_client: httpx.AsyncClient, token: str
) -> None:
    source = f"{ADT}/functions/groups/zdemo_fg/fmodules/z_demo_add/source/main"
    text = emulator.source(source).replace("  ev_sum = iv_a + iv_b.", "  lv_new = iv_a.")
    line = text.split("\n").index("  lv_new = iv_a.") + 1
    response = await propose(
        adt_client, token, "declare_local_variable", text, f"{source}#start={line},3"
    )
    interface_end = max(i for i, t in enumerate(text.split("\n"), 1) if t.startswith('*"'))
    [(uri, content)] = units(response)
    assert uri.endswith(f"#start={interface_end},{len(text.split(chr(10))[interface_end - 1])}")
    assert content == "\n  DATA lv_new TYPE any."


async def test_evaluation_refusals(adt_client: httpx.AsyncClient, token: str) -> None:
    missing = await adt_client.post(
        EVALUATION, content=b"x", headers={"x-csrf-token": token, **QF_HEADERS}
    )
    assert missing.status_code == 400
    assert exc_info(missing)["T100KEY-NO"] == "017"
    no_position = await adt_client.post(
        EVALUATION,
        params={"uri": PROBE},
        content=b"x",
        headers={"x-csrf-token": token, **QF_HEADERS},
    )
    assert no_position.status_code == 400
    outside = await evaluate(adt_client, token, PROBE, PROBE_CLASS, 99, 0)
    assert outside.status_code == 200
    assert kinds(outside) == []


# --- quick fixes: proposals ---------------------------------------------------------------


async def test_the_inserted_implementation_is_a4h_answer_byte_for_byte(
    adt_client: httpx.AsyncClient, token: str
) -> None:
    response = await propose(
        adt_client, token, "unimplemented_methods", PROBE_CLASS, f"{PROBE}#start=3,0"
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/xml; charset=utf-8"
    assert hashlib.sha256(response.content).hexdigest() == A4H_805_SHA256


async def test_abap_adt_api_expectations_for_method_definitions_and_variables(
    adt_client: httpx.AsyncClient, token: str
) -> None:
    uri = f"{ADT}/oo/classes/zapiadt_testcase_class1/source/main"
    definition = (
        "CLASS zapiadt_testcase_class1 DEFINITION.ENDCLASS.\n"
        "CLASS zapiadt_testcase_class1 IMPLEMENTATION.\n  METHOD foo.\n  ENDMETHOD.\nENDCLASS."
    )
    assert kinds(await evaluate(adt_client, token, uri, definition, 3, 10))[0] == (
        "create_method_def"
    )
    [(target, content)] = units(
        await propose(adt_client, token, "create_method_def", definition, f"{uri}#start=3,10")
    )
    assert target == f"{uri}#start=1,41"
    assert re.search(r"methods\s+foo\.", content, re.IGNORECASE)
    variable = (
        "CLASS zapiadt_testcase_class1 DEFINITION PUBLIC CREATE PUBLIC.public section."
        "methods bar. .ENDCLASS.\n    CLASS zapiadt_testcase_class1 IMPLEMENTATION.\n"
        "      METHOD foo.\n         data: x type string.\n         bar = 2.\n"
        "      ENDMETHOD.\n    ENDCLASS."
    )
    assert kinds(await evaluate(adt_client, token, uri, variable, 5, 11))[0] == (
        "declare_local_variable"
    )
    [(target, content)] = units(
        await propose(adt_client, token, "declare_local_variable", variable, f"{uri}#start=5,11")
    )
    assert target.startswith(f"{uri}#start=4,9;end=")
    assert re.search(r"\n\s+bar type any\.", content, re.IGNORECASE)


async def test_a_fix_that_no_longer_applies_answers_empty_deltas(
    adt_client: httpx.AsyncClient, token: str
) -> None:
    response = await propose(
        adt_client, token, "unimplemented_methods", PROBE_ATC, f"{PROBE}#start=6,0"
    )
    assert response.status_code == 200
    root = parse(response.content)
    assert root.tag == f"{NS_QF}proposalResult"
    assert [child.tag for child in root] == ["deltas", "variableSourceStates"]
    assert len(root.find("deltas")) == 0  # type: ignore[arg-type]


async def test_proposal_refusals(adt_client: httpx.AsyncClient, token: str) -> None:
    unknown = await propose(adt_client, token, "qf_rename", PROBE_CLASS, f"{PROBE}#start=3,0")
    assert unknown.status_code == 404
    malformed = await adt_client.post(
        f"{PROPOSALS}/unimplemented_methods",
        content=b"<quickfixes:proposalRequest xmlns:quickfixes='http://www.sap.com/adt/quickfixes'/>",
        headers={"x-csrf-token": token, **QF_HEADERS},
    )
    assert malformed.status_code == 400
    wrong_method = await adt_client.get(f"{PROPOSALS}/unimplemented_methods")
    assert wrong_method.status_code == 405
