"""``client.completion`` on the emulator: typed proposals and insertion texts."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from support.emulated import make_client

from adt import AdtClient
from adt.areas.completion import ProposalKind, parse_proposals
from adt.emulator import Emulator
from adt.errors import NotFoundError

REPORT_MAIN = "/sap/bc/adt/programs/programs/zdemo_report/source/main"
GREETER_TESTS = "/sap/bc/adt/oo/classes/zcl_demo_greeter/includes/testclasses"


@pytest.fixture
async def client(emulator: Emulator) -> AsyncIterator[AdtClient]:
    async with make_client(emulator) as adt:
        yield adt


async def test_proposals_for_components_of_a_reference(client: AdtClient) -> None:
    text = (await client.read_source(REPORT_MAIN)).text.replace(
        "  ENDDO.", "  ENDDO.\n  lo_greeter->"
    )
    proposals = await client.completion.proposals(REPORT_MAIN, text, 18, 14)
    assert proposals.complete
    assert proposals.identifiers == ("CONSTRUCTOR", "GREET", "GREET_ALL", "ZIF_DEMO_GREETING~")
    greet = proposals.items[1]
    assert (greet.kind, greet.description, greet.prefix_length) == (
        ProposalKind.METHOD,
        "method or routine",
        0,
    )
    assert greet.wants_insertion


async def test_proposals_of_names_classes_and_keywords(client: AdtClient) -> None:
    text = (await client.read_source(GREETER_TESTS)).text.replace(
        "    mo_cut = NEW #( ).", "    DATA lo_other TYPE REF TO zcl_demo_g\n    mo_cut = NEW #( )."
    )
    proposals = await client.completion.proposals(GREETER_TESTS, text, 20, 40)
    assert [(p.identifier, p.kind) for p in proposals] == [("ZCL_DEMO_GREETER", ProposalKind.CLASS)]
    assert proposals.items[0].location == 2  # the class pool's own class: a program name
    members = await client.completion.proposals(GREETER_TESTS, text, 21, 6)
    assert [(p.identifier, p.kind) for p in members][:1] == [("MO_CUT", ProposalKind.DATA)]
    assert len(await client.completion.proposals(GREETER_TESTS, text, 21, 0)) > 0


async def test_a_cut_list_is_not_complete(client: AdtClient) -> None:
    text = (
        "REPORT zdemo_report.\n" + "".join(f"DATA lv_{i:03d} TYPE i.\n" for i in range(70)) + "lv_"
    )
    proposals = await client.completion.proposals(REPORT_MAIN, text, 72, 3)
    assert len(proposals) == 50 and not proposals.complete


async def test_insertion_of_a_method_call_and_of_a_name(client: AdtClient) -> None:
    text = (await client.read_source(REPORT_MAIN)).text
    pattern = await client.completion.insertion(REPORT_MAIN, text, 16, 30, "GREET")
    assert pattern == "greet(\n  EXPORTING\n*   iv_name =\n  RECEIVING\n    rv_text =\n  )."
    assert await client.completion.insertion(REPORT_MAIN, text, 26, 22, "LV_SUM") == "lv_sum"


async def test_completion_needs_a_valid_position(client: AdtClient) -> None:
    with pytest.raises(ValueError, match="1-based"):
        await client.completion.proposals(REPORT_MAIN, "", 0, 0)
    with pytest.raises(NotFoundError):
        await client.completion.proposals(
            "/sap/bc/adt/oo/classes/zcl_demo_greeter/includes/nothing", "", 1, 0
        )


def test_parser_handles_at_end_empty_and_zero_byte_answers() -> None:
    record = (
        "<SCC_COMPLETION><KIND>52</KIND><IDENTIFIER>DATA</IDENTIFIER><PREFIXLENGTH>2</PREFIXLENGTH>"
        "<LOCATION>0</LOCATION></SCC_COMPLETION>"
        "<SCC_COMPLETION><KIND>0</KIND><IDENTIFIER>@end</IDENTIFIER></SCC_COMPLETION>"
    )
    body = (
        '<?xml version="1.0" encoding="utf-8"?><asx:abap version="1.0" '
        f'xmlns:asx="http://www.sap.com/abapxml"><asx:values><DATA>{record}</DATA></asx:values>'
        "</asx:abap>"
    ).encode()
    parsed = parse_proposals(body)
    assert parsed.identifiers == ("DATA",) and not parsed.complete
    assert parsed.items[0].kind is ProposalKind.KEYWORD and parsed.items[0].prefix_length == 2
    assert parse_proposals(b"") == parse_proposals(
        b'<asx:abap xmlns:asx="http://www.sap.com/abapxml"><asx:values><DATA/></asx:values></asx:abap>'
    )
