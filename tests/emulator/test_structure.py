"""How code is organised, on the emulator (raw HTTP shaped like abap-adt-api's requests):
object structure, type hierarchy, occurrence markers, main programs, node path and the
catalogues (object types, type structure, check reporters)."""

from __future__ import annotations

import re
from urllib.parse import quote

import httpx
import pytest
from lxml import etree

from adt.emulator import Emulator

from .helpers import (
    ADT,
    FMODULE,
    GREETER,
    GROUP,
    INCLUDE,
    INTERFACE,
    REPORT,
    fetch_token,
    lock,
    put_source,
    unlock,
)

ABAPSOURCE = "{http://www.sap.com/adt/abapsource}"
ADTCORE = "{http://www.sap.com/adt/core}"
ATOM = "{http://www.w3.org/2005/Atom}"
SOURCE_REL = "http://www.sap.com/adt/relations/source/"
COUNTER = f"{ADT}/oo/classes/zcl_demo_counter"
_SPAN = re.compile(r"^\./(source/main|includes/\w+)#start=(\d+),(\d+);end=(\d+),(\d+)$")


async def _post(
    client: httpx.AsyncClient, path: str, params: dict[str, str], body: str = ""
) -> httpx.Response:
    token = await fetch_token(client)
    return await client.post(
        path,
        params=params,
        headers={"x-csrf-token": token, "Content-Type": "text/plain", "Accept": "application/*"},
        content=body.encode(),
    )


def _links(element: etree._Element) -> dict[str, str]:
    return {
        (link.get("rel") or "").removeprefix(SOURCE_REL): link.get("href") or ""
        for link in element.findall(f"{ATOM}link")
    }


async def _span_text(client: httpx.AsyncClient, obj: str, href: str) -> str:
    """The text a ``./source/main#start=…;end=…`` link covers (one line)."""
    match = _SPAN.match(href)
    assert match is not None, href
    part, line, column, end_line, end_column = match.groups()
    assert line == end_line
    text = (await client.get(f"{obj}/{part}")).text.splitlines()[int(line) - 1]
    return text[int(column) : int(end_column)]


# --- object structure ----------------------------------------------------------------------
async def test_class_structure_as_an_s4_system_answers(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(
        f"{GREETER}/objectstructure",
        params={"version": "active", "withShortDescriptions": "true"},
        headers={"Accept": "application/xml;q=0.8, application/vnd.sap.adt.objectstructure.v2+xml"},
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == (
        "application/vnd.sap.adt.objectstructure.v2+xml; charset=utf-8"
    )
    assert response.text.startswith(
        '<?xml version="1.0" encoding="utf-8"?><abapsource:objectStructureElement '
        'xmlns:abapsource="http://www.sap.com/adt/abapsource" xml:base="'
        f'{GREETER}/objectstructure?version=active&amp;withShortDescriptions=true" '
        'adtcore:name="ZCL_DEMO_GREETER" visibility="public" final="true" adtcore:type="CLAS/OC"'
    )
    root = etree.fromstring(response.content)
    assert _links(root) == {
        "definitionIdentifier": "./source/main#start=1,6;end=1,22",
        "implementationIdentifier": "./source/main#start=26,6;end=26,22",
        "definitionBlock": "./source/main#start=1,0;end=22,8",
        "implementationBlock": "./source/main#start=26,0;end=51,8",
    }
    children = root.findall(f"{ABAPSOURCE}objectStructureElement")
    kinds = [
        (c.get(f"{ADTCORE}type"), c.get(f"{ADTCORE}name"), c.get("visibility")) for c in children
    ]
    assert kinds == [
        ("CLAS/OM", "CONSTRUCTOR", "public"),
        ("CLAS/OM", "GREET_ALL", "public"),
        ("CLAS/OA", "MV_SALUTATION", "private"),
        ("CLAS/OA", "MO_FORMATTER", "private"),
        ("CLAS/OR", "ZIF_DEMO_GREETING", None),
        ("CLAS/OM", "ZIF_DEMO_GREETING~GREET", "public"),
    ]
    greet_all = _links(children[1])
    assert greet_all["implementationBlock"] == "./source/main#start=44,2;end=49,11"
    assert greet_all["definitionBlock"] == "./source/main#start=14,4;end=16,49"
    interface_method = children[5]
    assert interface_method.get("clif_name") == "ZCL_DEMO_GREETER"
    assert _links(interface_method)["implementationIdentifier"] == (
        "./source/main#start=34,9;end=34,32"
    )


async def test_every_identifier_link_covers_the_name(adt_client: httpx.AsyncClient) -> None:
    for obj in (GREETER, INTERFACE, COUNTER):
        root = etree.fromstring((await adt_client.get(f"{obj}/objectstructure")).content)
        for element in root.iter(f"{ABAPSOURCE}objectStructureElement"):
            name = element.get(f"{ADTCORE}name") or ""
            for rel, href in _links(element).items():
                if rel.endswith("Identifier"):
                    covered = (await _span_text(adt_client, obj, href)).upper()
                    # an interface method's definition is the INTERFACES name; the interface's
                    # implementation is its first method's full name (as S/4 answers)
                    assert covered in (name, name.split("~")[0]) or covered.startswith(
                        name + "~"
                    ), (obj, name, rel, covered)


async def test_interface_structure(adt_client: httpx.AsyncClient) -> None:
    root = etree.fromstring((await adt_client.get(f"{INTERFACE}/objectstructure")).content)
    assert (root.get(f"{ADTCORE}type"), root.get(f"{ADTCORE}name")) == (
        "INTF/OI",
        "ZIF_DEMO_GREETING",
    )
    assert "implementationIdentifier" not in _links(root)
    members = {
        e.get(f"{ADTCORE}name"): e for e in root.findall(f"{ABAPSOURCE}objectStructureElement")
    }
    assert members["GREET"].get(f"{ADTCORE}type") == "INTF/IO"
    assert members["GREET"].get("description") == (
        "Greets one person, or everybody when no name is given"
    )
    constant = members["C_DEFAULT_NAME"]
    assert (constant.get("constant"), constant.get("readOnly"), constant.get("level")) == (
        "true",
        "true",
        "static",
    )


async def test_structure_follows_the_version_asked_for(
    adt_client: httpx.AsyncClient, emulator: Emulator
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    text = (await adt_client.get(f"{COUNTER}/source/main")).text
    changed = text.replace("PUBLIC SECTION.", "PUBLIC SECTION.\n    METHODS brand_new.", 1)
    changed = re.sub(
        r"(CLASS zcl_demo_counter IMPLEMENTATION\.)",
        r"\1\n  METHOD brand_new.\n  ENDMETHOD.",
        changed,
        flags=re.IGNORECASE,
    )
    handle = await lock(adt_client, token, COUNTER)
    written = await put_source(adt_client, token, f"{COUNTER}/source/main", handle, changed)
    assert written.status_code == 200, written.text
    await unlock(adt_client, token, COUNTER, handle)
    assert emulator.locks() == []

    def names(body: bytes) -> set[str]:
        root = etree.fromstring(body)
        return {
            e.get(f"{ADTCORE}name") or "" for e in root.iter(f"{ABAPSOURCE}objectStructureElement")
        }

    active = await adt_client.get(f"{COUNTER}/objectstructure", params={"version": "active"})
    inactive = await adt_client.get(f"{COUNTER}/objectstructure", params={"version": "inactive"})
    assert "BRAND_NEW" not in names(active.content)
    assert "BRAND_NEW" in names(inactive.content)


async def test_structure_refusals(adt_client: httpx.AsyncClient) -> None:
    missing = await adt_client.get(f"{ADT}/oo/classes/zcl_nowhere/objectstructure")
    assert missing.status_code == 404
    assert "ZCL_NOWHERE" in missing.text
    wrong = await adt_client.get(f"{GREETER}/objectstructure", headers={"Accept": "text/html"})
    assert wrong.status_code == 406
    posted = await _post(adt_client, f"{GREETER}/objectstructure", {})
    assert posted.status_code == 405


# --- type hierarchy ------------------------------------------------------------------------
def _entries(body: bytes) -> list[dict[str, str]]:
    root = etree.fromstring(body)
    assert etree.QName(root).localname == "info"
    return [
        {etree.QName(k).localname: v for k, v in entry.attrib.items()}
        for entry in root.iter("entry")
    ]


async def test_super_types_of_a_class(adt_client: httpx.AsyncClient) -> None:
    text = (await adt_client.get(f"{GREETER}/source/main")).text
    response = await _post(
        adt_client,
        f"{ADT}/abapsource/typehierarchy",
        {"uri": f"{GREETER}/source/main#start=1,10", "type": "superTypes"},
        text,
    )
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(
        "application/vnd.sap.adt.typehierachy.result.v1+xml"
    )
    entries = _entries(response.content)
    assert [(e["type"], e["name"]) for e in entries] == [
        ("CLAS/OC", "ZCL_DEMO_GREETER"),
        ("INTF/OI", "ZIF_DEMO_GREETING"),
    ]
    assert entries[0]["uri"] == f"{GREETER}/source/main#start=1,6"
    assert entries[0]["parentUri"] == ""
    assert entries[1]["uri"] == f"{INTERFACE}/source/main#start=1,10"
    assert entries[1]["parentUri"] == GREETER
    assert 'origin typeName="ZCL_DEMO_GREETER"' in response.text


async def test_sub_types_of_an_interface_see_the_unsaved_text(
    adt_client: httpx.AsyncClient,
) -> None:
    text = (await adt_client.get(f"{INTERFACE}/source/main")).text
    response = await _post(
        adt_client,
        f"{ADT}/abapsource/typehierarchy",
        {"uri": f"{INTERFACE}/source/main#start=1,12", "type": "subTypes"},
        "\n\n" + text,  # two new lines: the cursor is now on a blank line inside nothing
    )
    entries = _entries(response.content)
    assert [e["name"] for e in entries] == ["ZIF_DEMO_GREETING", "ZCL_DEMO_GREETER"]
    assert entries[0]["uri"] == f"{INTERFACE}/source/main#start=3,10"
    assert entries[1]["parentUri"] == INTERFACE


# --- occurrence markers --------------------------------------------------------------------
async def test_occurrence_markers_of_a_test_method_by_its_navigation_uri(
    adt_client: httpx.AsyncClient,
) -> None:
    tests = f"{COUNTER}/includes/testclasses"
    text = (await adt_client.get(tests)).text
    name = quote("LTCL_COUNTER".ljust(30) + "COUNTS_UP", safe="")
    response = await _post(
        adt_client,
        f"{ADT}/abapsource/occurencemarkers",
        {"uri": f"{tests}#type=CLAS%2FOLD;name={name}"},
        text,
    )
    assert response.status_code == 200
    root = etree.fromstring(response.content)
    markers = [
        (m.get("kind"), m.get("keepsResult"), m[0].get(f"{ADTCORE}uri"))
        for m in root.iter("{*}occurrence")
    ]
    assert markers == [
        ("definition", "false", f"{tests}#start=6,12;end=6,21"),
        ("implementation", "false", f"{tests}#start=13,9;end=13,18"),
    ]


async def test_occurrence_markers_at_a_position_and_unknown_fragments(
    adt_client: httpx.AsyncClient,
) -> None:
    main = f"{GREETER}/source/main"
    text = (await adt_client.get(main)).text
    response = await _post(
        adt_client, f"{ADT}/abapsource/occurencemarkers", {"uri": f"{main}#start=29,6"}, text
    )
    kinds = [m.get("kind") for m in etree.fromstring(response.content).iter("{*}occurrence")]
    assert kinds == [
        "definition",
        "write",
        "read",
        "read",
    ]  # mv_salutation: declared, set, read twice
    unknown = await _post(
        adt_client,
        f"{ADT}/abapsource/occurencemarkers",
        {"uri": f"{main}#type=CLAS%2FOLD;name=NOPE"},
        text,
    )
    assert unknown.status_code == 404


# --- main programs and node paths ----------------------------------------------------------
async def test_main_programs_of_an_include(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(f"{INCLUDE}/mainprograms")
    assert response.status_code == 200
    refs = etree.fromstring(response.content).findall(f"{ADTCORE}objectReference")
    assert [
        (r.get(f"{ADTCORE}uri"), r.get(f"{ADTCORE}type"), r.get(f"{ADTCORE}name")) for r in refs
    ] == [(REPORT, "PROG/P", "ZDEMO_REPORT")]
    missing = await adt_client.get(f"{ADT}/programs/includes/znothing/mainprograms")
    assert missing.status_code == 404


def _steps(body: bytes) -> list[tuple[str, str, str]]:
    root = etree.fromstring(body)
    assert root.tag == "{http://www.sap.com/adt/projectexplorer}nodepath"
    return [
        (e.get(f"{ADTCORE}type") or "", e.get(f"{ADTCORE}name") or "", e.get(f"{ADTCORE}uri") or "")
        for e in root.iter("objectLinkReference")
    ]


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        (
            f"{GREETER}/includes/testclasses",
            [("DEVC/K", "$TMP"), ("DEVC/K", "$ZDEMO"), ("CLAS/OC", "ZCL_DEMO_GREETER")],
        ),
        (
            FMODULE,
            [
                ("DEVC/K", "$TMP"),
                ("DEVC/K", "$ZDEMO"),
                ("FUGR/F", "ZDEMO_FG"),
                ("FUGR/FF", "Z_DEMO_ADD"),
            ],
        ),
    ],
)
async def test_node_path(
    adt_client: httpx.AsyncClient, uri: str, expected: list[tuple[str, str]]
) -> None:
    response = await _post(adt_client, f"{ADT}/repository/nodepath", {"uri": uri})
    assert response.status_code == 200
    steps = _steps(response.content)
    assert [(t, n) for t, n, _ in steps] == expected
    assert steps[1][2] == f"{ADT}/packages/%24zdemo"
    assert steps[-1][2] in (GREETER, FMODULE)
    if steps[-1][2] == FMODULE:
        assert steps[-2][2] == GROUP


async def test_node_path_refusals(adt_client: httpx.AsyncClient) -> None:
    assert (await _post(adt_client, f"{ADT}/repository/nodepath", {})).status_code == 400
    missing = await _post(
        adt_client, f"{ADT}/repository/nodepath", {"uri": f"{ADT}/oo/classes/zcl_nowhere"}
    )
    assert missing.status_code == 404


# --- catalogues ----------------------------------------------------------------------------
async def test_object_types_name_the_modelled_types(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(
        f"{ADT}/repository/informationsystem/objecttypes",
        params={"maxItemCount": "999", "name": "*", "data": "usedByProvider"},
    )
    assert response.status_code == 200
    ns = "{http://www.sap.com/adt/nameditem}"
    items = {
        item.findtext(f"{ns}data"): item.findtext(f"{ns}name")
        for item in etree.fromstring(response.content).iter(f"{ns}namedItem")
    }
    assert items["type:PROG/P;usedBy:quick_search,virtual_folders"] == "PROG"
    assert {data.split(";")[0] for data in items if data} >= {
        "type:CLAS/OC",
        "type:INTF/OI",
        "type:FUGR/FF",
        "type:DEVC/K",
    }


async def test_type_structure_and_reporters(adt_client: httpx.AsyncClient) -> None:
    types = await _post(adt_client, f"{ADT}/repository/typestructure", {})
    assert types.status_code == 200
    rows = etree.fromstring(types.content).iter("SEU_ADT_OBJECT_TYPE_DESCRIPTOR")
    by_type = {row.findtext("OBJECT_TYPE"): row for row in rows}
    include = by_type["FUGR/I"]
    assert include.findtext("PARENT_OBJECT_TYPE") == "FUGR/F"
    assert [a.text for a in include.iter("SEU_ACTION")][:1] == ["CREATE"]
    assert by_type["FUGR/F"].findtext("OBJNAME_MAXLENGTH") == "26"
    reporters = await adt_client.get(f"{ADT}/checkruns/reporters")
    assert (
        reporters.headers["content-type"] == "application/vnd.sap.adt.reporters+xml; charset=utf-8"
    )
    chk = "{http://www.sap.com/adt/checkrun}"
    reporter = etree.fromstring(reporters.content).find(f"{chk}reporter")
    assert reporter is not None and reporter.get(f"{chk}name") == "abapCheckRun"
    assert [t.text for t in reporter.findall(f"{chk}supportedType")] == [
        "CLAS*",
        "INTF*",
        "PROG*",
        "FUGR*",
    ]
