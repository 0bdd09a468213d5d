"""Code intelligence on the emulator: completion, insertion, element info, navigation,
where-used and snippets, answered from an index of the seeded sources (raw HTTP, shaped
like abap-adt-api's and Eclipse's requests)."""

from __future__ import annotations

import base64
import functools
import re
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from adt.emulator import Emulator
from adt.emulator.documents import intelligence as docs

from .helpers import (
    ADT,
    FMODULE,
    GREETER,
    INCLUDE,
    INTERFACE,
    REPORT,
    exc_info,
    fetch_token,
    lock,
    put_source,
    unlock,
    write_abapgit,
)
from .xmlcompare import namespace_declarations, structure_diff

REPORT_MAIN = f"{REPORT}/source/main"
GREETER_MAIN = f"{GREETER}/source/main"
GREETER_IMPL = f"{GREETER}/includes/implementations"
GREETER_TESTS = f"{GREETER}/includes/testclasses"
INTERFACE_MAIN = f"{INTERFACE}/source/main"
NS_RIS = "{http://www.sap.com/adt/ris/usageReferences}"
ASX = "{http://www.sap.com/abapxml}"
AS = "{http://www.sap.com/adt/abapsource}"
CORE = "{http://www.sap.com/adt/core}"
USAGE_REQUEST = (
    '<?xml version="1.0" encoding="ASCII"?>\n<usagereferences:usageReferenceRequest '
    'xmlns:usagereferences="http://www.sap.com/adt/ris/usageReferences">\n'
    "  <usagereferences:affectedObjects/>\n</usagereferences:usageReferenceRequest>"
)


class Ide:
    """Posts like an editor: the source text, the position in the ``uri`` fragment."""

    def __init__(self, client: httpx.AsyncClient, token: str) -> None:
        self.client = client
        self.headers = {"x-csrf-token": token}
        self.texts: dict[str, str] = {}

    async def text(self, source: str) -> str:
        if source not in self.texts:
            self.texts[source] = (await self.client.get(source)).text
        return self.texts[source]

    async def post(
        self,
        path: str,
        source: str,
        fragment: str,
        *,
        text: str | None = None,
        params: dict[str, str] | None = None,
        accept: str = "application/*",
    ) -> httpx.Response:
        body = text if text is not None else await self.text(source)
        return await self.client.post(
            f"{ADT}/{path}",
            params={"uri": f"{source}#{fragment}", **(params or {})},
            content=body.encode("utf-8"),
            headers={**self.headers, "Content-Type": "text/plain", "Accept": accept},
        )

    async def navigate(self, source: str, line: int, column: int, **kw: object) -> httpx.Response:
        params = {"filter": "implementation" if kw.pop("implementation", False) else "definition"}
        return await self.post(
            "navigation/target",
            source,
            f"start={line},{column}",
            params=params,
            **kw,  # type: ignore[arg-type]
        )

    async def target(self, source: str, line: int, column: int, **kw: object) -> str:
        response = await self.navigate(source, line, column, **kw)
        assert response.status_code == 200, response.text
        root = etree.fromstring(response.content)
        assert root.tag == f"{CORE}objectReference"
        return root.get(f"{CORE}uri") or ""

    async def info(
        self, source: str, line: int, column: int, text: str | None = None
    ) -> httpx.Response:
        return await self.post(
            "abapsource/codecompletion/elementinfo", source, f"start={line},{column}", text=text
        )

    async def complete(
        self, source: str, line: int, column: int, text: str | None = None, **kw: str
    ) -> httpx.Response:
        params = {"signalCompleteness": "true"}
        return await self.post(
            "abapsource/codecompletion/proposal",
            source,
            f"start={line},{column}",
            text=text,
            params=params,
            accept=kw.get("accept", "*/*"),
        )

    async def usages(self, uri: str, body: str = USAGE_REQUEST) -> httpx.Response:
        return await self.client.post(
            f"{ADT}/repository/informationsystem/usageReferences",
            params={"uri": uri},
            content=body.encode(),
            headers={**self.headers, "Content-Type": "application/*", "Accept": "application/*"},
        )

    async def snippets(self, identifiers: list[str]) -> httpx.Response:
        items = "".join(
            f'<usagereferences:objectIdentifier optional="false">{i}'
            "</usagereferences:objectIdentifier>"
            for i in identifiers
        )
        body = (
            '<?xml version="1.0" encoding="UTF-8"?><usagereferences:usageSnippetRequest '
            'xmlns:usagereferences="http://www.sap.com/adt/ris/usageReferences">'
            f"<usagereferences:objectIdentifiers>{items}</usagereferences:objectIdentifiers>"
            "<usagereferences:affectedObjects/></usagereferences:usageSnippetRequest>"
        )
        return await self.client.post(
            f"{ADT}/repository/informationsystem/usageSnippets",
            content=body.encode(),
            headers={**self.headers, "Content-Type": "application/*", "Accept": "application/*"},
        )


@pytest.fixture
async def ide(adt_client: httpx.AsyncClient) -> Ide:
    return Ide(adt_client, await fetch_token(adt_client))


def _proposals(response: httpx.Response) -> list[dict[str, str]]:
    root = etree.fromstring(response.content)
    assert root.tag == f"{ASX}abap" and root.get("version") == "1.0"
    return [{c.tag: c.text or "" for c in record} for record in root.iter("SCC_COMPLETION")]


# completion ---------------------------------------------------------------------------------


async def test_proposals_after_a_selector_in_unsaved_text(ide: Ide) -> None:
    text = (await ide.text(REPORT_MAIN)).replace("  ENDDO.", "  ENDDO.\r\n  lo_greeter->gr")
    response = await ide.complete(REPORT_MAIN, 18, 16, text=text)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/vnd.sap.as+xml; charset=utf-8"
    assert response.text.startswith(
        '<?xml version="1.0" encoding="utf-8"?><asx:abap version="1.0" '
        'xmlns:asx="http://www.sap.com/abapxml"><asx:values><DATA><SCC_COMPLETION><KIND>'
    )
    records = _proposals(response)
    assert [r["IDENTIFIER"] for r in records] == ["GREET", "GREET_ALL"]
    assert list(records[0]) == list(docs.COMPLETION_FIELDS)
    assert records[0]["PREFIXLENGTH"] == "2" and records[0]["KIND"] == "3"
    assert records[0]["INSERT_EVENT"] == "1"


async def test_proposals_of_local_names_and_keywords(ide: Ide) -> None:
    text = (await ide.text(REPORT_MAIN)).replace(
        "  DATA lv_sum TYPE i.", "  DATA lv_sum TYPE i.\r\n  DATA lv_summary TYPE i.\r\n  lv_s"
    )
    records = _proposals(await ide.complete(REPORT_MAIN, 14, 6, text=text))
    assert [r["IDENTIFIER"] for r in records] == ["LV_SUM", "LV_SUMMARY"]
    keywords = _proposals(
        await ide.complete(REPORT_MAIN, 14, 5, text=text.replace("  lv_s\r\n", "  LOO\r\n"))
    )
    assert [(r["IDENTIFIER"], r["KIND"]) for r in keywords] == [("LOOP", "52")]


async def test_proposals_inside_a_class_include_see_the_method_parameters(ide: Ide) -> None:
    text = (await ide.text(GREETER_IMPL)).replace("      RETURN.", "      iv_t")
    records = _proposals(await ide.complete(GREETER_IMPL, 8, 10, text=text))
    assert [r["IDENTIFIER"] for r in records] == ["IV_TEXT"]
    assert records[0]["KIND"] == "1"


async def test_no_proposals_is_an_empty_data_and_a_cut_list_ends_with_at_end(ide: Ide) -> None:
    empty = await ide.complete(REPORT_MAIN, 2, 4, text="REPORT zdemo_report.\r\nzzzq")
    assert empty.status_code == 200
    assert "<asx:values><DATA/></asx:values>" in empty.text
    many = (
        "REPORT zdemo_report.\r\n"
        + "".join(f"DATA lv_{i:03d} TYPE i.\r\n" for i in range(60))
        + "lv_"
    )
    records = _proposals(await ide.complete(REPORT_MAIN, 62, 3, text=many))
    assert len(records) == 51 and records[-1]["IDENTIFIER"] == "@end"
    assert all(v == "0" for k, v in records[-1].items() if k != "IDENTIFIER")


async def test_proposal_refuses_application_xml_and_needs_a_position(ide: Ide) -> None:
    refused = await ide.complete(REPORT_MAIN, 16, 20, accept="application/xml")
    assert refused.status_code == 406
    assert exc_info(refused)["type"] == "ExceptionResourceNotAcceptable"
    missing = await ide.client.post(
        f"{ADT}/abapsource/codecompletion/proposal",
        params={"uri": REPORT_MAIN},
        content=b"REPORT z.",
        headers=ide.headers,
    )
    assert missing.status_code == 400
    got = await ide.client.get(f"{ADT}/abapsource/codecompletion/proposal")
    assert got.status_code == 405


async def test_insertion_gives_the_call_pattern_or_the_name(ide: Ide) -> None:
    text = await ide.text(REPORT_MAIN)
    response = await ide.post(
        "abapsource/codecompletion/insertion",
        REPORT_MAIN,
        "start=16,30",
        text=text,
        params={"patternKey": "GREET"},
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert response.text == (
        "greet(\r\n  EXPORTING\r\n*   iv_name =\r\n  RECEIVING\r\n    rv_text =\r\n  )."
    )
    plain = await ide.post(
        "abapsource/codecompletion/insertion",
        REPORT_MAIN,
        "start=26,22",
        params={"patternKey": "LV_SUM"},
    )
    assert plain.text == "lv_sum"


# element info -------------------------------------------------------------------------------


def _info(response: httpx.Response) -> etree._Element:
    assert response.status_code == 200, response.text
    assert (
        response.headers["content-type"] == "application/vnd.sap.adt.elementinfo+xml; charset=utf-8"
    )
    root = etree.fromstring(response.content)
    assert root.tag == f"{AS}elementInfo"
    assert root[0].tag == f"{AS}properties"
    return root


def _entries(element: etree._Element) -> list[tuple[str, str]]:
    return [(e.get(f"{AS}key") or "", e.text or "") for e in element.iter(f"{AS}entry")]


async def test_element_info_of_a_method_called_through_an_alias(ide: Ide) -> None:
    root = _info(await ide.info(REPORT_MAIN, 16, 27))
    assert (root.get(f"{CORE}type"), root.get(f"{CORE}name")) == ("CLAS/OM", "GREET")
    assert _entries(root.find(f"{AS}properties")) == [
        ("level", "instance"),
        ("visibility", "public"),
    ]
    doc = root.find(f"{AS}documentation")
    assert doc is not None and doc.get(f"{AS}rel") == "abapdoc"
    assert doc.text == "Greets one person, or everybody when no name is given"
    params = root.findall(f"{AS}elementInfo")
    assert [(p.get(f"{CORE}type"), p.get(f"{CORE}name")) for p in params] == [
        ("INTF/IOP", "IV_NAME"),
        ("INTF/IOP", "RV_TEXT"),
    ]
    assert _entries(params[0]) == [
        ("paramType", "importing"),
        ("optional", "true"),
        ("byValue", "false"),
        ("preferred", "false"),
        ("abapType", "TYPE STRING"),
    ]


async def test_element_info_of_attribute_local_variable_and_function_module(ide: Ide) -> None:
    attribute = _info(await ide.info(GREETER_MAIN, 29, 8))
    assert attribute.get(f"{CORE}type") == "CLAS/OA"
    assert _entries(attribute) == [
        ("visibility", "private"),
        ("level", "instance"),
        ("abapType", "TYPE STRING"),
    ]
    local = _info(await ide.info(GREETER_MAIN, 46, 14))
    assert (local.get(f"{CORE}type"), local.get(f"{CORE}name")) == ("CLAS/OOV", "LV_LINE")
    assert _entries(local)[0] == ("visibility", "local")
    module = _info(await ide.info(REPORT_MAIN, 19, 20))
    assert (module.get(f"{CORE}type"), module.get(f"{CORE}name")) == ("FUGR/FF", "Z_DEMO_ADD")
    assert _entries(module.find(f"{AS}properties")) == []
    assert [p.get(f"{CORE}name") for p in module.findall(f"{AS}elementInfo")] == [
        "IV_A",
        "IV_B",
        "EV_SUM",
    ]
    cls = _info(await ide.info(REPORT_MAIN, 13, 30))
    shorttext = cls.find(f"{AS}documentation")
    assert shorttext is not None and shorttext.get(f"{AS}rel") == "shorttext"
    assert shorttext.text == "Greets people (demo class with all includes)"


async def test_element_info_on_a_keyword_and_on_a_blank_line(ide: Ide) -> None:
    keyword = await ide.info(GREETER_MAIN, 31, 5)
    assert keyword.status_code == 200
    assert keyword.text == (
        '<?xml version="1.0" encoding="utf-8"?><abapsource:elementInfo '
        'xmlns:abapsource="http://www.sap.com/adt/abapsource" '
        'xmlns:adtcore="http://www.sap.com/adt/core"><abapsource:properties/>'
        "</abapsource:elementInfo>"
    )
    blank = await ide.info(GREETER_MAIN, 32, 0)
    assert blank.status_code == 200 and blank.content == b""
    assert "content-type" not in blank.headers


# navigation ---------------------------------------------------------------------------------


async def test_navigation_across_objects(ide: Ide) -> None:
    answer = await ide.navigate(REPORT_MAIN, 13, 25)
    assert answer.headers["content-type"] == "application/xml; charset=utf-8"
    assert answer.text == (
        '<?xml version="1.0" encoding="utf-8"?><adtcore:objectReference '
        f'adtcore:uri="{GREETER_MAIN}#start=1,6" xmlns:adtcore="http://www.sap.com/adt/core"/>'
    )
    assert await ide.target(REPORT_MAIN, 16, 27) == f"{GREETER_MAIN}#start=9,12"
    assert await ide.target(REPORT_MAIN, 19, 20) == f"{FMODULE}/source/main#start=1,9"
    assert await ide.target(REPORT_MAIN, 21, 7) == f"{FMODULE}/source/main#start=5,13"
    assert await ide.target(REPORT_MAIN, 27, 14) == f"{INCLUDE}/source/main#start=6,5"
    assert await ide.target(REPORT_MAIN, 29, 12) == f"{INCLUDE}/source/main#start=1,0"
    assert await ide.target(GREETER_MAIN, 7, 20) == f"{INTERFACE_MAIN}#start=1,10"


async def test_navigation_within_a_unit_and_between_class_includes(ide: Ide) -> None:
    assert await ide.target(REPORT_MAIN, 26, 36) == f"{REPORT_MAIN}#start=12,7"
    assert await ide.target(GREETER_MAIN, 39, 55) == f"{GREETER}/includes/definitions#start=7,12"
    implementation = await ide.target(GREETER_MAIN, 39, 55, implementation=True)
    assert implementation == f"{GREETER_IMPL}#start=6,9"
    assert await ide.target(GREETER_TESTS, 8, 30) == f"{GREETER_MAIN}#start=1,6"
    assert await ide.target(GREETER_MAIN, 47, 8) == f"{GREETER}/includes/macros#start=4,7"
    assert await ide.target(REPORT_MAIN, 16, 27, implementation=True) == (
        f"{GREETER_MAIN}#start=34,27"
    )


async def test_navigation_answers_from_the_posted_text(ide: Ide) -> None:
    text = (await ide.text(REPORT_MAIN)).replace(
        "  DATA lv_sum TYPE i.", "  DATA lv_extra TYPE i.\r\n  DATA lv_sum TYPE i."
    )
    text = text.replace("  ENDDO.", "  ENDDO.\r\n  lv_extra = 1.")
    assert await ide.target(REPORT_MAIN, 19, 4, text=text) == f"{REPORT_MAIN}#start=12,7"


async def test_navigation_follows_changes_of_other_objects(ide: Ide, emulator: Emulator) -> None:
    text = (await ide.text(REPORT_MAIN)).replace("  ENDDO.", "  ENDDO.\r\n  lo_greeter->hello( ).")
    assert (await ide.navigate(REPORT_MAIN, 18, 16, text=text)).status_code == 400
    greeter = (await ide.text(GREETER_MAIN)).replace(
        "    METHODS greet_all", "    METHODS hello.\r\n    METHODS greet_all"
    )
    emulator.write_as("COLLEAGUE", GREETER_MAIN, greeter)
    assert await ide.target(REPORT_MAIN, 18, 16, text=text) == f"{GREETER_MAIN}#start=14,12"


async def test_navigation_in_an_include_with_a_double_encoded_context(ide: Ide) -> None:
    uri = f"{INCLUDE}/source/main?context={quote(REPORT, safe='')}"
    assert await ide.target(uri, 7, 6) == f"{INCLUDE}/source/main#start=6,24"


async def test_navigation_failures(ide: Ide) -> None:
    declared = await ide.navigate(GREETER_MAIN, 20, 12)
    assert declared.status_code == 400
    info = exc_info(declared)
    assert info["type"] == "NavigationFailure"
    assert (info["T100KEY-ID"], info["T100KEY-NO"]) == ("ED", "263")
    assert info["message"] == "Definition location found; where-used list may be possible"
    keyword = await ide.navigate(GREETER_MAIN, 31, 4)
    assert keyword.status_code == 400 and exc_info(keyword)["type"] == "NavigationFailure"
    unknown = await ide.navigate(f"{ADT}/oo/classes/zcl_nowhere/source/main", 1, 1)
    assert unknown.status_code == 404


@pytest.fixture
def two_implementers(tmp_path: Path) -> Emulator:
    files = {
        "zif_calc.intf.abap": "INTERFACE zif_calc PUBLIC.\n  METHODS add.\nENDINTERFACE.\n",
        "zcl_calc_a.clas.abap": _implementer("zcl_calc_a"),
        "zcl_calc_b.clas.abap": _implementer("zcl_calc_b"),
    }
    return Emulator(seed_dirs=[write_abapgit(tmp_path, files)])


def _implementer(name: str) -> str:
    return (
        f"CLASS {name} DEFINITION PUBLIC.\n  PUBLIC SECTION.\n    INTERFACES zif_calc.\n"
        f"ENDCLASS.\nCLASS {name} IMPLEMENTATION.\n"
        "  METHOD zif_calc~add.\n  ENDMETHOD.\nENDCLASS.\n"
    )


async def test_implementation_of_an_interface_method_with_two_implementers(
    two_implementers: Emulator,
) -> None:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=two_implementers.app),
        base_url="http://e",
        auth=("DEVELOPER", "developer"),
    ) as client:
        ide = Ide(client, await fetch_token(client))
        source = f"{ADT}/oo/interfaces/zif_calc/source/main"
        response = await ide.navigate(source, 2, 10, implementation=True)
        assert response.status_code == 422
        info = exc_info(response)
        assert info["type"] == "ExceptionMultipleNavigationTargets"
        assert (info["T100KEY-ID"], info["T100KEY-NO"]) == ("SEDI_ADT", "002")
        single = await ide.target(f"{ADT}/oo/classes/zcl_calc_a/source/main", 3, 16)
        assert single == f"{source}#start=1,10"


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        (f"{REPORT_MAIN}#type=PROG/PE;name=START-OF-SELECTION", "11,0"),
        (f"{REPORT_MAIN}#type=PROG/PD;name=LV_SUM", "12,7"),
        (f"{GREETER_MAIN}#type=CLAS%2FOM;name=ZIF_DEMO_GREETING%7eGREET", "34,9"),
        (f"{GREETER_MAIN}#type=CLAS/OSI;name=ZCL_DEMO_GREETER", "19,2"),
        (f"{GREETER_MAIN}#type=CLAS/OA;name=MV_SALUTATION", "20,9"),
        (f"{INCLUDE}/source/main#type=PROG/PU;name=WRITE_FOOTER", "6,5"),
        (
            f"{ADT}/functions/groups/zdemo_fg/includes/lzdemo_fgtop/source/main#type=FUGR/PD;name=GV_CALLS",
            "4,5",
        ),
    ],
)
async def test_fragment_mappings(ide: Ide, uri: str, expected: str) -> None:
    response = await ide.client.get(f"{ADT}/urifragmentmappings", params={"uri": uri})
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert response.text == f"{uri.split('#')[0]}#start={expected}"


async def test_fragment_mapping_of_an_unknown_name_is_a_404(ide: Ide) -> None:
    response = await ide.client.get(
        f"{ADT}/urifragmentmappings", params={"uri": f"{REPORT_MAIN}#type=PROG/PD;name=NOPE"}
    )
    assert response.status_code == 404
    assert not re.search(r"#start=\d+,\d+", response.text)


# where-used ---------------------------------------------------------------------------------


def _rows(response: httpx.Response) -> list[etree._Element]:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == docs.USAGE_RESULT
    root = etree.fromstring(response.content)
    assert root.tag == f"{NS_RIS}usageReferenceResult"
    return root.findall(f"{NS_RIS}referencedObjects/{NS_RIS}referencedObject")


async def test_where_used_of_a_class(ide: Ide) -> None:
    response = await ide.usages(GREETER)
    rows = _rows(response)
    assert response.text.startswith(
        '<?xml version="1.0" encoding="utf-8"?><usageReferences:usageReferenceResult '
        'numberOfResults="2" resultDescription="[A4H] Where-Used List: ZCL_DEMO_GREETER (Class)" '
        'referencedObjectIdentifier="" '
        'xmlns:usageReferences="http://www.sap.com/adt/ris/usageReferences">'
        "<usageReferences:scope><usageReferences:objectIdentifier "
        'displayName="ZCL_DEMO_GREETER (Class)" globalType="CLAS/OC"/>'
    )
    uris = [r.get("uri") for r in rows]
    assert uris == sorted(uris)
    assert uris == [
        GREETER,
        f"{GREETER}/includes/testclasses",
        f"{ADT}/packages/%24tmp",
        f"{ADT}/packages/%24zdemo",
        REPORT,
    ]
    report = rows[-1]
    assert report.get("canHaveChildren") == "true"
    assert report.get("usageInformation") == "gradeDirect,includeProductive"
    assert report.findtext("objectIdentifier") == (
        "ABAPFullName;ZDEMO_REPORT;ZDEMO_REPORT;\\TY:ZCL_DEMO_GREETER"
    )
    tests = rows[1]
    assert tests.get("usageInformation") == "gradeElement,includeTest"
    assert tests.find(f"{NS_RIS}adtObject").get(f"{CORE}name") == "Local Test Classes"
    assert rows[0].get("canHaveChildren") == "false" and rows[0].get("usageInformation") is None
    top = rows[2]
    assert top.get("parentUri") is None and top.get("canHaveChildren") == "true"


async def test_where_used_of_an_interface_method_and_its_snippets(ide: Ide) -> None:
    response = await ide.usages(f"{INTERFACE_MAIN}#start=7,12")
    root = etree.fromstring(response.content)
    assert root.get("referencedObjectIdentifier") == "ABAPFullName;\\TY:ZIF_DEMO_GREETING\\ME:GREET"
    assert root.get("resultDescription") == (
        "[A4H] Where-Used List: ZIF_DEMO_GREETING - GREET (Interface Method)"
    )
    main = root.find(f"{NS_RIS}scope/{NS_RIS}programs/{NS_RIS}mainProgram")
    assert main is not None and main.get("include") == "ZIF_DEMO_GREETING=============IP"
    members = [r for r in _rows(response) if r.findtext("objectIdentifier")]
    assert [m.get("uri") for m in members] == [
        f"{GREETER_MAIN}#type=CLAS%2FOM;name=ZIF_DEMO_GREETING%7eGREET",
        f"{GREETER_MAIN}#type=CLAS%2FOSU;name=ZCL_DEMO_GREETER",
    ]
    identifiers = [m.findtext("objectIdentifier") or "" for m in members]
    assert identifiers[0] == (
        "ABAPFullName;ZCL_DEMO_GREETER==============CP;ZCL_DEMO_GREETER==============CM002;"
        "\\TY:ZIF_DEMO_GREETING\\ME:GREET"
    )
    snippets = await ide.snippets(identifiers)
    assert snippets.status_code == 200
    snippet_root = etree.fromstring(snippets.content)
    groups = snippet_root.findall(f"{NS_RIS}codeSnippetObjects/{NS_RIS}codeSnippetObject")
    assert [g.findtext("objectIdentifier") for g in groups] == identifiers
    first = groups[0].find(f"{NS_RIS}codeSnippets/{NS_RIS}codeSnippet")
    assert first is not None
    assert first.get("uri") == f"{GREETER_MAIN}#start=34,27;end=34,32"
    assert first.get("matches") == "27-32,accessUnknown,gradeDirect"
    assert first.findtext("content") == "  METHOD zif_demo_greeting~greet."


async def test_where_used_of_a_variable_reads_and_writes(ide: Ide) -> None:
    response = await ide.usages(f"{REPORT_MAIN}#start=12,7")
    [member] = [r for r in _rows(response) if r.findtext("objectIdentifier")]
    identifier = member.findtext("objectIdentifier") or ""
    assert identifier == "ABAPFullName;ZDEMO_REPORT;ZDEMO_REPORT;\\PR:ZDEMO_REPORT\\DA:LV_SUM"
    groups = etree.fromstring((await ide.snippets([identifier])).content)
    snippets = list(groups.iter(f"{NS_RIS}codeSnippet"))
    assert [(s.get("uri") or "").split("#")[1] for s in snippets] == [
        "start=12,7;end=12,13",  # the declaration, written in the same include
        "start=24,15;end=24,21",
        "start=26,33;end=26,39",
        "start=27,29;end=27,35",
    ]
    assert snippets[1].get("matches") == "15-21,accessRead,gradeElement"


async def test_where_used_sees_saved_inactive_sources(ide: Ide, emulator: Emulator) -> None:
    text = await ide.text(f"{INCLUDE}/source/main")
    text += "\r\nFORM other.\r\n  NEW zcl_demo_greeter( ).\r\nENDFORM."
    assert INCLUDE not in [r.get("uri") for r in _rows(await ide.usages(GREETER))]
    token = await fetch_token(ide.client, stateful=True)
    handle = await lock(ide.client, token, INCLUDE)
    assert (
        await put_source(ide.client, token, f"{INCLUDE}/source/main", handle, text)
    ).status_code == 200
    uris = [r.get("uri") for r in _rows(await ide.usages(GREETER))]
    assert INCLUDE in uris


async def _salutation_lines(ide: Ide) -> list[tuple[str, str]]:
    """The snippets (``start=L,C``, matches) of the greeter's attribute ``mv_salutation``."""
    response = await ide.usages(f"{GREETER_MAIN}#start=20,9")
    identifiers = [r.findtext("objectIdentifier") or "" for r in _rows(response)]
    groups = etree.fromstring((await ide.snippets([i for i in identifiers if i])).content)
    return sorted(
        ((s.get("uri") or "").split("#")[1].split(";")[0], s.get("matches") or "")
        for s in groups.iter(f"{NS_RIS}codeSnippet")
    )


async def test_where_used_follows_a_write_that_adds_and_removes_a_usage(ide: Ide) -> None:
    """The greeter's program is indexed by the first where-used; a write that adds a usage
    to a method body that did not mention the name, and removes one from another, shows in
    the very next where-used and its snippets."""
    before = await _salutation_lines(ide)
    read = "accessRead,gradeElement"
    assert before == [
        ("start=29,4", "4-17,accessWrite,gradeElement"),
        ("start=37,19", f"19-32,{read}"),
        ("start=39,19", f"19-32,{read}"),
    ]
    text = (await ide.text(GREETER_MAIN)).replace("\r\n", "\n").split("\n")
    text[28] = "    mv_salutation_note = iv_salutation."  # line 29: the usage is gone
    text[44] = "    mv_salutation = to_upper( mv_salutation ). " + text[44].strip()  # line 45
    text[19] = "    DATA mv_salutation TYPE string. DATA mv_salutation_note TYPE string."
    token = await fetch_token(ide.client, stateful=True)
    handle = await lock(ide.client, token, GREETER)
    try:
        written = await put_source(ide.client, token, GREETER_MAIN, handle, "\n".join(text))
        assert written.status_code == 200
    finally:
        await unlock(ide.client, token, GREETER, handle)
    after = await _salutation_lines(ide)
    assert after == [
        ("start=37,19", f"19-32,{read}"),
        ("start=39,19", f"19-32,{read}"),
        ("start=45,4", f"4-17,accessWrite,gradeElement;30-43,{read}"),
    ]


async def test_where_used_with_definitions_lists_the_declaration(ide: Ide) -> None:
    body = USAGE_REQUEST.replace(
        "<usagereferences:affectedObjects/>",
        "<usagereferences:affectedObjects/><usagereferences:scope><usagereferences:grade "
        'definitions="true" elements="false" indirectReferences="false"/></usagereferences:scope>',
    )
    response = await ide.usages(f"{REPORT_MAIN}#start=12,7", body)
    root = etree.fromstring(response.content)
    assert root.find(f"{NS_RIS}scope/{NS_RIS}grade").get("definitions") == "true"
    [member] = [r for r in _rows(response) if r.findtext("objectIdentifier")]
    groups = etree.fromstring(
        (await ide.snippets([member.findtext("objectIdentifier") or ""])).content
    )
    lines = [(s.get("uri") or "").split("#")[1] for s in groups.iter(f"{NS_RIS}codeSnippet")]
    assert lines[0] == "start=12,7;end=12,13"
    interface = await ide.usages(f"{INTERFACE_MAIN}#start=7,12", body)
    uris = [r.get("uri") for r in _rows(interface)]
    assert INTERFACE in uris  # the declaring interface is listed only with definitions="true"
    assert INTERFACE not in [
        r.get("uri") for r in _rows(await ide.usages(f"{INTERFACE_MAIN}#start=7,12"))
    ]


async def test_where_used_refusals_and_the_prefix_switch(ide: Ide, emulator: Emulator) -> None:
    wrong = await ide.usages(GREETER, body="<x/>")
    assert wrong.status_code == 400
    info = exc_info(wrong)
    assert info["type"] == "ExceptionInvalidData"
    assert info["message"] == (
        "System expected the element "
        "'{http://www.sap.com/adt/ris/usageReferences}usageReferenceRequest'"
    )
    got = await ide.client.get(f"{ADT}/repository/informationsystem/usageReferences")
    assert got.status_code == 405
    emulator.state.where_used_prefix = docs.RIS_LOWER
    lower = await ide.usages(GREETER)
    assert namespace_declarations(lower.text)[0] == (
        'xmlns:usagereferences="http://www.sap.com/adt/ris/usageReferences"'
    )
    emulator.state.where_used_prefix = docs.RIS_CAMEL
    camel = await ide.usages(GREETER)
    assert not structure_diff(lower.content, camel.content)
    unknown = await ide.snippets(["ABAPFullName;ZNOWHERE;ZNOWHERE;\\TY:ZNOWHERE", "garbage"])
    assert unknown.text.count("<usageReferences:codeSnippets/>") == 2


# golden: the trial's where-used answer --------------------------------------------------------


def _trial_seed(root: Path) -> Path:
    def devc(text: str) -> str:
        return f"<abapGit><DEVC><CTEXT>{text}</CTEXT></DEVC></abapGit>"

    return write_abapgit(
        root / "zlocal",
        {
            "package.devc.xml": devc("Local"),
            "zadt_bld_pkg03/package.devc.xml": devc("Build"),
            "zadt_bld_pkg03/zmcp_shr_pkg/package.devc.xml": devc("Shared"),
            "zadt_bld_pkg03/zmcp_shr_pkg/zbp_mcp_shr_i_root.clas.abap": (
                "CLASS zbp_mcp_shr_i_root DEFINITION PUBLIC.\nENDCLASS.\n"
                "CLASS zbp_mcp_shr_i_root IMPLEMENTATION.\nENDCLASS.\n"
            ),
            "zadt_bld_pkg03/zmcp_shr_pkg/zmcp_shr_i_root.intf.abap": (
                "INTERFACE zmcp_shr_i_root PUBLIC.\n"
                "  METHODS handler RETURNING VALUE(ro) TYPE REF TO zbp_mcp_shr_i_root.\n"
                "ENDINTERFACE.\n"
            ),
        },
    )


@pytest.mark.captures
async def test_where_used_matches_the_trial_capture(adt_captures: Path, tmp_path: Path) -> None:
    case = (
        adt_captures
        / "trl"
        / "read-where-used-list-structure--01-informationsystem-usagereferences"
    )
    expected = case.with_name(case.name + ".body.xml").read_bytes()
    emulator = Emulator(seed_dirs=[_trial_seed(tmp_path)], users={"SAPUSER01": "pw"}, sid="SYS")
    emulator.state.where_used_prefix = docs.RIS_LOWER
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=emulator.app),
        base_url="http://t",
        auth=("SAPUSER01", "pw"),
    ) as client:
        token = await fetch_token(client)
        response = await client.post(
            f"{ADT}/repository/informationsystem/usageReferences?uri=%2Fsap%2Fbc%2Fadt%2Foo%2Fclasses%2FZBP_MCP_SHR_I_ROOT",
            content=USAGE_REQUEST.encode(),
            headers={
                "x-csrf-token": token,
                "Content-Type": "application/vnd.sap.adt.repository.usagereferences.request.v1+xml",
                "Accept": "application/vnd.sap.adt.repository.usagereferences.result.v1+xml",
            },
        )
    assert response.status_code == 200
    assert response.headers["content-type"] == (
        "application/vnd.sap.adt.repository.usagereferences.result.v1+xml; charset=utf-8"
    )
    assert namespace_declarations(response.text) == namespace_declarations(expected.decode())
    diffs = structure_diff(
        expected,
        response.content,
        ignore_values=["uri", "name", "type", "responsible"],
        ignore_text=["objectIdentifier"],
    )
    assert diffs == []
    ours = etree.fromstring(response.content)
    theirs = etree.fromstring(expected)
    assert [r.get("parentUri") for r in ours.iter(f"{NS_RIS}referencedObject")][1:] == [
        r.get("parentUri") for r in theirs.iter(f"{NS_RIS}referencedObject")
    ][1:]


@pytest.mark.captures
def test_the_where_used_builder_reproduces_the_capture_byte_for_byte(adt_captures: Path) -> None:
    expected = (
        adt_captures
        / "trl"
        / "read-where-used-list-structure--01-informationsystem-usagereferences.body.xml"
    ).read_bytes()

    def package(name: str, parent: str | None, responsible: str) -> docs.UsageRow:
        uri = f"{ADT}/packages/{name.lower()}"
        parent_uri = f"{ADT}/packages/{parent.lower()}" if parent else None
        return docs.UsageRow(uri, parent_uri, True, name, uri, name, responsible, "DEVC/K")

    rows = [
        docs.UsageRow(
            f"{ADT}/bo/behaviordefinitions/zmcp_shr_i_root",
            f"{ADT}/packages/zmcp_shr_pkg",
            True,
            "ZMCP_SHR_I_ROOT",
            f"{ADT}/packages/zmcp_shr_pkg",
            "ZMCP_SHR_PKG",
            "SAPUSER01",
            "BDEF/BDO",
            "gradeDirect,includeProductive",
            "ObjectType_BDEF/BDO;ZMCP_SHR_I_ROOT;\\TY:ZBP_MCP_SHR_I_ROOT",
        ),
        package("ZADT_BLD_PKG03", "ZLOCAL", "SAPUSER01"),
        package("ZLOCAL", None, "_SAPSUPPORT"),
        package("ZMCP_SHR_PKG", "ZADT_BLD_PKG03", "SAPUSER01"),
    ]
    body = docs.usage_references_document(
        docs.RIS_LOWER,
        results=1,
        description="[SYS] Where-Used List: ZBP_MCP_SHR_I_ROOT (Class)",
        referenced="",
        scope=docs.UsageScope("ZBP_MCP_SHR_I_ROOT (Class)", "CLAS/OC"),
        rows=rows,
    )
    assert body.encode() == expected


def test_usage_identifier_format_is_decodable() -> None:
    assert re.fullmatch(r"ABAPFullName;[^;]+;[^;]+;\\.+", "ABAPFullName;A;B;\\TY:X")


# property: completion, navigation, element info and where-used agree ---------------------------

_WORD = re.compile(r"(?<![\w<])[A-Za-z_][A-Za-z0-9_]*")
_ANCHOR = re.compile(r"^\s*CLASS\s+\S+\s+IMPLEMENTATION\b", re.IGNORECASE)
_PARAMETER_TYPES = frozenset({"CLAS/OOP", "INTF/IOP", "FUGR/FFP", "PROG/PUP"})


class SyncIde:
    """A synchronous editor on the seeded emulator (hypothesis drives it example by example)."""

    def __init__(self) -> None:
        from starlette.testclient import TestClient

        self.emulator = Emulator()
        auth = "Basic " + base64.b64encode(b"DEVELOPER:developer").decode()
        self.client = TestClient(self.emulator.app, headers={"Authorization": auth})
        token = self.client.get(f"{ADT}/core/discovery", headers={"x-csrf-token": "fetch"})
        self.client.headers["x-csrf-token"] = token.headers["x-csrf-token"]
        self.texts: dict[str, str] = {}
        for obj in self.emulator.state.objects.values():
            for part in obj.parts:
                text = self.emulator.source(obj.source_uri(part), "inactive")
                if text is not None:
                    self.texts[obj.source_uri(part)] = text
        self.words = {
            unit: [
                (number, match.start(), match.group())
                for number, line in enumerate(text.split("\n"), start=1)
                for match in _WORD.finditer(line)
            ]
            for unit, text in self.texts.items()
        }

    def post(self, path: str, unit: str, line: int, column: int, **params: str) -> httpx.Response:
        return self.client.post(
            f"{ADT}/{path}",
            params={"uri": f"{unit}#start={line},{column}", **params},
            content=self.texts[unit].encode(),
            headers={"Content-Type": "text/plain"},
        )

    def navigate(self, unit: str, line: int, column: int) -> tuple[int, str]:
        response = self.post("navigation/target", unit, line, column, filter="definition")
        if response.status_code != 200:
            return response.status_code, exc_info(response).get("T100KEY-NO", "")
        return 200, etree.fromstring(response.content).get(f"{CORE}uri") or ""

    def element(self, unit: str, line: int, column: int) -> tuple[str, str]:
        response = self.post("abapsource/codecompletion/elementinfo", unit, line, column)
        if not response.content:
            return "", ""
        root = etree.fromstring(response.content)
        return root.get(f"{CORE}type") or "", root.get(f"{CORE}name") or ""

    def usages(self, unit: str, line: int, column: int) -> set[tuple[str, int, int]]:
        response = self.client.post(
            f"{ADT}/repository/informationsystem/usageReferences",
            params={"uri": f"{unit}#start={line},{column}"},
            content=USAGE_REQUEST.encode(),
            headers={"Content-Type": "application/*"},
        )
        assert response.status_code == 200, response.text
        identifiers = [
            e.text or "" for e in etree.fromstring(response.content).iter("objectIdentifier")
        ]
        if not identifiers:
            return set()
        items = "".join(
            f'<r:objectIdentifier optional="false">{i}</r:objectIdentifier>' for i in identifiers
        )
        body = (
            '<r:usageSnippetRequest xmlns:r="http://www.sap.com/adt/ris/usageReferences">'
            f"<r:objectIdentifiers>{items}</r:objectIdentifiers></r:usageSnippetRequest>"
        )
        snippets = self.client.post(
            f"{ADT}/repository/informationsystem/usageSnippets", content=body.encode()
        )
        found: set[tuple[str, int, int]] = set()
        for snippet in etree.fromstring(snippets.content).iter(f"{NS_RIS}codeSnippet"):
            source, _, fragment = (snippet.get("uri") or "").partition("#")
            line_number = int(fragment.split("=")[1].split(",")[0])
            for match in (snippet.get("matches") or "").split(";"):
                found.add((source, line_number, int(match.split("-")[0])))
        return found

    def proposals(self, unit: str, line: int, column: int) -> list[str]:
        response = self.post(
            "abapsource/codecompletion/proposal", unit, line, column, signalCompleteness="true"
        )
        return [r["IDENTIFIER"] for r in _proposals(response)]


@functools.cache
def _sync_ide() -> SyncIde:
    return SyncIde()


def _target(uri: str) -> tuple[str, int, int]:
    source, _, fragment = uri.partition("#start=")
    line, column = fragment.split(",")
    return source, int(line), int(column)


def _completes(ide: SyncIde, unit: str, line: int, start: int, word: str, kind: str) -> bool:
    """Whether the index proposes ``word`` here: a plain name or a component after ``->`` or
    ``=>`` (not after ``~`` or a structure's ``-``, not a parameter before ``=``: completion
    does not propose formal parameters of calls)."""
    text = ide.texts[unit].split("\n")[line - 1]
    before, after = text[:start], text[start + len(word) :]
    if before.endswith(("~", "'")) or (before.endswith("-") and not before.endswith("->")):
        return False
    return not (kind in _PARAMETER_TYPES and re.match(r"\s*=(?!=)", after))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_completion_definition_and_usages_agree(data: st.DataObject) -> None:
    ide = _sync_ide()
    unit = data.draw(st.sampled_from(sorted(ide.words)), label="unit")
    line, start, word = data.draw(st.sampled_from(ide.words[unit]), label="word")
    column = start + data.draw(st.integers(0, len(word)), label="offset")
    status, answer = ide.navigate(unit, line, column)
    kind, name = ide.element(unit, line, column)
    if status == 400 and answer != "263":
        assert name == "", (unit, line, column, kind, name)  # nothing here for either
        return
    assert name == word.upper() or column == start + len(word), (unit, line, column, name)
    if status == 400:  # on the declaration: its usages navigate back to it
        declaration = (unit, line, start)
    else:
        assert status == 200, answer
        declaration = _target(answer)
        if kind == "PROG/I":
            return  # an include is declared by its existence, not by a name
        assert ide.element(*declaration)[1] == name
        usages = ide.usages(*declaration)
        if not _ANCHOR.match(ide.texts[unit].split("\n")[line - 1]) and name == word.upper():
            assert (unit, line, start) in usages, (unit, line, start, sorted(usages)[:5])
        if name == word.upper() and _completes(ide, unit, line, start, word, kind):
            assert name in ide.proposals(unit, line, start + len(word))
    for usage in sorted(ide.usages(*declaration))[:3]:
        if usage == declaration:
            continue
        back_status, back = ide.navigate(*usage)
        assert back_status == 200 and _target(back) == declaration, (usage, back)
