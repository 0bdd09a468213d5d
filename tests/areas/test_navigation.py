"""``client.navigation`` on the emulator (definition, element info, where-used, snippets)
and its parsers over the recorded where-used answer (both namespace prefixes)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.emulated import make_client

from adt import AdtClient
from adt.areas.navigation import (
    DefinitionTarget,
    ElementInfo,
    parse_definition,
    parse_element_info,
    position_uri,
)
from adt.areas.usages import parse_snippets, parse_usage_references
from adt.emulator import Emulator
from adt.errors import BadRequestError, InvalidObjectUrlError, NotFoundError, ServerFailure

ADT = "/sap/bc/adt"
GREETER = f"{ADT}/oo/classes/zcl_demo_greeter"
REPORT = f"{ADT}/programs/programs/zdemo_report"
INTERFACE = f"{ADT}/oo/interfaces/zif_demo_greeting"
TRIAL = "trl/read-where-used-list-structure--01-informationsystem-usagereferences.body.xml"


@pytest.fixture
async def client(emulator: Emulator) -> AsyncIterator[AdtClient]:
    async with make_client(emulator) as adt:
        yield adt


async def _text(client: AdtClient, source: str) -> str:
    return (await client.read_source(source)).text


async def test_definition_in_another_object_and_in_the_same_unit(client: AdtClient) -> None:
    source = f"{REPORT}/source/main"
    text = await _text(client, source)
    target = await client.navigation.definition(source, text, 13, 25, end_column=41)
    assert target == DefinitionTarget(
        uri=f"{GREETER}/source/main#start=1,6",
        source_url=f"{GREETER}/source/main",
        object_url=GREETER,
        line=1,
        column=6,
    )
    local = await client.navigation.definition(source, text, 26, 36)
    assert (local.source_url, local.line, local.column) == (source, 12, 7)
    implementation = await client.navigation.definition(source, text, 16, 27, implementation=True)
    assert (implementation.line, implementation.column) == (34, 27)


async def test_definition_of_unsaved_text_and_its_refusals(client: AdtClient) -> None:
    source = f"{GREETER}/includes/implementations"
    text = (await _text(client, source)).replace(
        "RETURN.", "DATA(lv_x) = iv_text.\n      lv_x = ``."
    )
    target = await client.navigation.definition(source, text, 9, 7)
    assert (target.source_url, target.line, target.column) == (source, 8, 11)
    with pytest.raises(BadRequestError) as declared:
        await client.navigation.definition(source, text, 8, 12)
    assert declared.value.t100 is not None and str(declared.value.t100) == "ED/263"
    with pytest.raises(NotFoundError):
        await client.navigation.definition(f"{ADT}/oo/classes/zcl_none/source/main", "", 1, 0)
    with pytest.raises(InvalidObjectUrlError):
        await client.navigation.definition("https://elsewhere/x", text, 1, 0)


async def test_element_info_is_typed(client: AdtClient) -> None:
    source = f"{REPORT}/source/main"
    text = await _text(client, source)
    info = await client.navigation.element_info(source, text, 16, 27)
    assert isinstance(info, ElementInfo)
    assert (info.type, info.name) == ("CLAS/OM", "GREET")
    assert info.properties == {"level": "instance", "visibility": "public"}
    assert info.description == "Greets one person, or everybody when no name is given"
    assert [(p.name, p.properties["paramType"]) for p in info.parameters] == [
        ("IV_NAME", "importing"),
        ("RV_TEXT", "returning"),
    ]
    assert await client.navigation.element_info(source, text, 17, 3) is None  # ENDDO
    assert await client.navigation.element_info(source, text, 7, 0) is None  # blank line


async def test_usages_of_an_object_grouped_by_object(client: AdtClient) -> None:
    result = await client.navigation.usages(GREETER)
    assert result.number_of_results == 2
    assert result.display_name == "ZCL_DEMO_GREETER (Class)"
    assert result.global_type == "CLAS/OC" and result.referenced_identifier == ""
    objects = {o.object.name: o for o in result.objects}
    assert sorted(objects) == ["ZCL_DEMO_GREETER", "ZDEMO_REPORT"]
    assert [m.name for m in objects["ZCL_DEMO_GREETER"].members] == ["Local Test Classes"]
    assert objects["ZCL_DEMO_GREETER"].members[0].is_test
    report = objects["ZDEMO_REPORT"]
    assert report.members == (report.object,)
    assert report.object.type == "PROG/P" and report.object.package_name == "$ZDEMO"
    assert [r.name for r in result.references if r.is_package] == ["$TMP", "$ZDEMO"]


async def test_usages_of_a_component_and_their_snippets(client: AdtClient) -> None:
    result = await client.navigation.usages(f"{INTERFACE}/source/main", 7, 10)
    assert result.referenced_identifier == "ABAPFullName;\\TY:ZIF_DEMO_GREETING\\ME:GREET"
    [greeter] = result.objects
    assert [(m.name, m.type) for m in greeter.members] == [
        ("ZIF_DEMO_GREETING~GREET", "CLAS/OM"),
        ("Public Section", "CLAS/OSU"),
    ]
    groups = await client.navigation.snippets(result)
    assert [g.object_identifier for g in groups] == list(result.identifiers)
    first = groups[0].snippets[0]
    assert (first.source_url, first.line, first.column, first.end_column) == (
        f"{GREETER}/source/main",
        34,
        27,
        32,
    )
    assert first.content == "  METHOD zif_demo_greeting~greet."
    assert [(m.start, m.end, m.access) for m in first.matches] == [(27, 32, "accessUnknown")]
    assert await client.navigation.snippets([]) == ()


def test_position_uri_validates_and_encodes_the_context() -> None:
    assert position_uri(f"{REPORT}/source/main", 3, 4, end_column=9) == (
        f"{REPORT}/source/main#start=3,4;end=3,9"
    )
    with_context = position_uri(
        f"{ADT}/programs/includes/zdemo_include/source/main", 1, 0, main_program=REPORT
    )
    assert with_context.endswith(
        "?context=%2Fsap%2Fbc%2Fadt%2Fprograms%2Fprograms%2Fzdemo_report#start=1,0"
    )
    with pytest.raises(ValueError, match="1-based"):
        position_uri(f"{REPORT}/source/main", 0, 0)


def test_parsers_accept_sap_shapes() -> None:
    target = parse_definition(
        b'<?xml version="1.0" encoding="utf-8"?><adtcore:objectReference '
        b'adtcore:uri="/sap/bc/adt/oo/interfaces/zif_i91_probe/source/main#start=6,12" '
        b'xmlns:adtcore="http://www.sap.com/adt/core"/>'
    )
    assert target is not None and (target.object_url, target.line, target.column) == (
        "/sap/bc/adt/oo/interfaces/zif_i91_probe",
        6,
        12,
    )
    no_fragment = parse_definition(
        b'<a:objectReference a:uri="/sap/bc/adt/ddic/tables/t000" xmlns:a="http://www.sap.com/adt/core"/>'
    )
    assert no_fragment is not None and (no_fragment.line, no_fragment.column) == (0, 0)
    nameless = parse_element_info(
        b'<abapsource:elementInfo xmlns:abapsource="http://www.sap.com/adt/abapsource" '
        b'xmlns:adtcore="http://www.sap.com/adt/core"><abapsource:properties/></abapsource:elementInfo>'
    )
    assert nameless is None and parse_element_info(b"") is None


@pytest.mark.captures
def test_where_used_parser_on_the_trial_capture(adt_captures: Path) -> None:
    body = (adt_captures / TRIAL).read_bytes()
    for variant in (
        body,
        body.replace(b"usagereferences:", b"usageReferences:").replace(
            b"xmlns:usagereferences", b"xmlns:usageReferences"
        ),
    ):
        result = parse_usage_references(variant)
        assert result.number_of_results == 1
        assert result.description == "[SYS] Where-Used List: ZBP_MCP_SHR_I_ROOT (Class)"
        assert (result.display_name, result.global_type) == (
            "ZBP_MCP_SHR_I_ROOT (Class)",
            "CLAS/OC",
        )
        assert len(result.references) == 4
        [bdef] = result.objects
        assert (bdef.object.name, bdef.object.type) == ("ZMCP_SHR_I_ROOT", "BDEF/BDO")
        assert bdef.object.usage_information == ("gradeDirect", "includeProductive")
        assert result.identifiers == (
            "ObjectType_BDEF/BDO;ZMCP_SHR_I_ROOT;\\TY:ZBP_MCP_SHR_I_ROOT",
        )
        packages = {r.name: r.parent_uri for r in result.references if r.is_package}
        assert packages == {
            "ZADT_BLD_PKG03": "/sap/bc/adt/packages/zlocal",
            "ZLOCAL": "",
            "ZMCP_SHR_PKG": "/sap/bc/adt/packages/zadt_bld_pkg03",
        }


def test_snippet_parser_with_relative_fragments_and_camel_prefix() -> None:
    body = (
        b'<?xml version="1.0" encoding="utf-8"?><usageReferences:usageSnippetResult '
        b'xmlns:usageReferences="http://www.sap.com/adt/ris/usageReferences">'
        b"<usageReferences:codeSnippetObjects><usageReferences:codeSnippetObject>"
        b"<objectIdentifier>ABAPFullName;X</objectIdentifier><usageReferences:codeSnippets>"
        b'<usageReferences:codeSnippet uri="/sap/bc/adt/oo/classes/zcl_x/source/main'
        b'#type=CLAS%2FOM;name=RUN;start=3"'
        b' matches="2-16,accessUnknown,gradeDirect;18-26,accessWrite,gradeComponent">'
        b"<content>  zcl_x=&gt;gv_val = 1.</content><description/></usageReferences:codeSnippet>"
        b"</usageReferences:codeSnippets></usageReferences:codeSnippetObject>"
        b"</usageReferences:codeSnippetObjects></usageReferences:usageSnippetResult>"
    )
    [group] = parse_snippets(body)
    [snippet] = group.snippets
    assert (snippet.line, snippet.column, snippet.end_column) == (3, 2, 16)
    assert [m.access for m in snippet.matches] == ["accessUnknown", "accessWrite"]
    assert snippet.content == "  zcl_x=>gv_val = 1."


async def test_several_implementations_are_a_422(tmp_path: Path) -> None:
    interface = "INTERFACE zif_calc PUBLIC.\n  METHODS add.\nENDINTERFACE.\n"

    def implementer(name: str) -> str:
        return (
            f"CLASS {name} DEFINITION PUBLIC.\n  PUBLIC SECTION.\n    INTERFACES zif_calc.\n"
            f"ENDCLASS.\nCLASS {name} IMPLEMENTATION.\n  METHOD zif_calc~add.\n  ENDMETHOD.\n"
            "ENDCLASS.\n"
        )

    (tmp_path / "zif_calc.intf.abap").write_text(interface)
    (tmp_path / "zcl_a.clas.abap").write_text(implementer("zcl_a"))
    (tmp_path / "zcl_b.clas.abap").write_text(implementer("zcl_b"))
    emulator = Emulator(seed_dirs=[tmp_path], users={"DEVELOPER": "developer"})
    async with make_client(emulator) as adt:
        source = f"{ADT}/oo/interfaces/zif_calc/source/main"
        with pytest.raises(ServerFailure) as several:
            await adt.navigation.definition(source, interface, 2, 10, implementation=True)
        assert several.value.status == 422 and str(several.value.t100) == "SEDI_ADT/002"
