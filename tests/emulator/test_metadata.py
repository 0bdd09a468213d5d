"""Object metadata documents and content negotiation (§2)."""

from __future__ import annotations

from email.utils import parsedate_to_datetime
from pathlib import Path

import httpx
import pytest

from adt.emulator import Emulator

from .helpers import (
    ADT,
    FMODULE,
    GREETER,
    GROUP,
    INCLUDE,
    INTERFACE,
    REPORT,
    exc_info,
    fetch_token,
    lock,
    parse,
    put_source,
    unlock,
    write_abapgit,
)

ATOM = "{http://www.w3.org/2005/Atom}link"
ADTCORE = "{http://www.sap.com/adt/core}"
CLASS_NS = "{http://www.sap.com/adt/oo/classes}"
SOURCE_REL = "http://www.sap.com/adt/relations/source"


def _iso_of(last_modified: str) -> str:
    return parsedate_to_datetime(last_modified).strftime("%Y-%m-%dT%H:%M:%SZ")


@pytest.mark.parametrize(
    ("uri", "root", "content_type"),
    [
        (GREETER, "{http://www.sap.com/adt/oo/classes}abapClass", "oo.classes.v3"),
        (INTERFACE, "{http://www.sap.com/adt/oo/interfaces}abapInterface", "oo.interfaces.v2"),
        (REPORT, "{http://www.sap.com/adt/programs/programs}abapProgram", "programs.programs.v2"),
        (INCLUDE, "{http://www.sap.com/adt/programs/includes}abapInclude", "programs.includes.v2"),
        (
            GROUP,
            "{http://www.sap.com/adt/functions/groups}abapFunctionGroup",
            "functions.groups.v2",
        ),
        (
            FMODULE,
            "{http://www.sap.com/adt/functions/fmodules}abapFunctionModule",
            "functions.fmodules.v2",
        ),
        (
            f"{GROUP}/includes/lzdemo_fgtop",
            "{http://www.sap.com/adt/functions/fincludes}abapFunctionGroupInclude",
            "functions.fincludes.v2",
        ),
    ],
)
async def test_metadata_of_every_type(
    adt_client: httpx.AsyncClient, uri: str, root: str, content_type: str
) -> None:
    response = await adt_client.get(uri, headers={"Accept": "*/*"})
    assert response.status_code == 200, response.text
    assert (
        response.headers["content-type"]
        == f"application/vnd.sap.adt.{content_type}+xml; charset=utf-8"
    )
    assert response.text.startswith('<?xml version="1.0" encoding="utf-8"?>')
    assert "\n" not in response.text
    doc = parse(response.content)
    assert doc.tag == root
    assert doc.get(f"{ADTCORE}name") == uri.rsplit("/", 1)[1].upper()
    assert doc.get(f"{ADTCORE}changedAt") == _iso_of(response.headers["last-modified"])
    # the source link etag is what a later source GET answers
    source_links = [
        link
        for link in doc.iter(ATOM)
        if link.get("rel") == SOURCE_REL and link.get("type") == "text/plain"
    ]
    assert source_links
    href = source_links[-1].get("href")
    source = await adt_client.get(f"{uri}/{href}")
    assert source.headers["etag"] == source_links[-1].get("etag")
    # SAP declares xmlns:atom on every atom:link, never on the root
    assert 'xmlns:atom="http://www.w3.org/2005/Atom"/>' in response.text
    assert "xmlns:atom" not in response.text.split(">", 2)[1]


async def test_class_includes_like_the_capture(adt_client: httpx.AsyncClient) -> None:
    doc = parse((await adt_client.get(GREETER)).content)
    includes = doc.findall(f"{CLASS_NS}include")
    assert [i.get(f"{CLASS_NS}includeType") for i in includes] == [
        "definitions",
        "implementations",
        "macros",
        "testclasses",
        "main",
    ]
    for include in includes:
        kind = include.get(f"{CLASS_NS}includeType")
        expected = "source/main" if kind == "main" else f"includes/{kind}"
        assert include.get("{http://www.sap.com/adt/abapsource}sourceUri") == expected
        assert include.get(f"{ADTCORE}type") == "CLAS/I"
        assert include.get(f"{ADTCORE}name") == ""
        links = include.findall(ATOM)
        assert links[0].get("href") == f"includes/{kind}/versions"
        assert [link.get("type") for link in links[1:3]] == ["text/plain", "text/html"]


async def test_only_existing_includes_are_listed(adt_client: httpx.AsyncClient) -> None:
    doc = parse((await adt_client.get(f"{ADT}/oo/classes/zcl_demo_counter")).content)
    kinds = [i.get(f"{CLASS_NS}includeType") for i in doc.findall(f"{CLASS_NS}include")]
    assert kinds == ["testclasses", "main"]


async def test_per_include_changed_at(emulator: Emulator, adt_client: httpx.AsyncClient) -> None:
    before = parse((await adt_client.get(GREETER)).content)
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, GREETER)
    put = await put_source(
        adt_client, token, f"{GREETER}/includes/implementations", handle, "* new\n"
    )
    assert put.status_code == 200
    await unlock(adt_client, token, GREETER, handle)
    response = await adt_client.get(GREETER)
    after = parse(response.content)

    def stamps(doc: object) -> dict[str, tuple[str | None, str | None]]:
        result = {}
        for inc in doc.findall(f"{CLASS_NS}include"):  # type: ignore[attr-defined]
            result[inc.get(f"{CLASS_NS}includeType")] = (
                inc.get(f"{ADTCORE}changedAt"),
                inc.findall(ATOM)[1].get("etag"),
            )
        return result

    old, new = stamps(before), stamps(after)
    assert new["definitions"] == old["definitions"]
    assert new["implementations"] != old["implementations"]
    assert new["implementations"][1] == put.headers["etag"]
    assert after.get(f"{ADTCORE}changedAt") == new["implementations"][0]
    assert after.get(f"{ADTCORE}changedAt") == _iso_of(response.headers["last-modified"])
    assert after.get(f"{ADTCORE}version") == "inactive"
    active = parse((await adt_client.get(f"{GREETER}?version=active")).content)
    assert active.get(f"{ADTCORE}version") == "active"


@pytest.mark.parametrize(
    "accept",
    [
        "*/*",
        "application/*",
        None,
        "application/vnd.sap.adt.oo.classes.v4+xml, application/vnd.sap.adt.oo.classes.v3+xml",
    ],
)
async def test_accepted_media_types(adt_client: httpx.AsyncClient, accept: str | None) -> None:
    headers = {"Accept": accept} if accept else {}
    if accept is None:
        adt_client.headers.pop("accept", None)
    response = await adt_client.get(GREETER, headers=headers)
    assert response.status_code == 200


@pytest.mark.parametrize(
    "accept",
    [
        "application/vnd.sap.adt.oo.classes.v4+xml; charset=utf-8",
        "application/json",
        "text/plain",
    ],
)
async def test_unservable_accept_gets_406(adt_client: httpx.AsyncClient, accept: str) -> None:
    response = await adt_client.get(GREETER, headers={"Accept": accept})
    assert response.status_code == 406
    info = exc_info(response)
    assert info["type"] == "ExceptionResourceNotAcceptable"
    assert info["T100KEY-NO"] == "037"
    assert "Accepted content types: application/vnd.sap.adt.oo.classes.v3+xml" in info["message"]


async def test_not_found_documents(adt_client: httpx.AsyncClient) -> None:
    cls = await adt_client.get(f"{ADT}/oo/classes/zcl_nope")
    prog = await adt_client.get(f"{ADT}/programs/programs/zmcp_csrf_probe")
    assert cls.status_code == prog.status_code == 404
    info = exc_info(cls)
    assert info["message"] == "Resource CLASS ZCL_NOPE does not exist."
    assert (info["T100KEY-ID"], info["T100KEY-NO"], info["T100KEY-V2"]) == (
        "SADT_RESOURCE",
        "002",
        "ZCL_NOPE",
    )
    assert exc_info(prog)["message"] == "ZMCP_CSRF_PROBE does not exist"


async def test_include_names_its_main_program(adt_client: httpx.AsyncClient) -> None:
    doc = parse((await adt_client.get(INCLUDE)).content)
    ref = doc.find("{http://www.sap.com/adt/programs/includes}contextRef")
    assert ref is not None
    assert ref.get(f"{ADTCORE}uri") == REPORT


async def test_function_module_names_its_group(adt_client: httpx.AsyncClient) -> None:
    doc = parse((await adt_client.get(FMODULE)).content)
    container = doc.find(f"{ADTCORE}containerRef")
    assert container is not None
    assert container.get(f"{ADTCORE}uri") == GROUP
    assert doc.get(f"{ADTCORE}description") == "Add two integers"


async def test_namespaced_names_are_percent_encoded(tmp_path: Path) -> None:
    write_abapgit(
        tmp_path,
        {
            "#abc#cl_x.clas.abap": "CLASS /abc/cl_x DEFINITION PUBLIC.\nENDCLASS.\n"
            "CLASS /abc/cl_x IMPLEMENTATION.\nENDCLASS.\n",
        },
    )
    emulator = Emulator(seed_dirs=[tmp_path])
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=emulator.app),
        base_url="http://emulator",
        auth=("DEVELOPER", "developer"),
    ) as client:
        upper = await client.get(f"{ADT}/oo/classes/%2FABC%2FCL_X")
        lower = await client.get(f"{ADT}/oo/classes/%2fabc%2fcl_x/source/main")
    assert upper.status_code == 200
    assert lower.status_code == 200
    assert f"{ADT}/oo/classes/%2fabc%2fcl_x/" in upper.text
    assert emulator.objects() == [f"{ADT}/oo/classes/%2fabc%2fcl_x"]


async def test_package_metadata_and_unknown_package(adt_client: httpx.AsyncClient) -> None:
    ok = await adt_client.get(f"{ADT}/packages/%24zdemo")
    assert ok.status_code == 200
    assert ok.headers["content-type"] == "application/vnd.sap.adt.packages.v2+xml; charset=utf-8"
    assert parse(ok.content).get(f"{ADTCORE}name") == "$ZDEMO"
    missing = await adt_client.get(f"{ADT}/packages/zmcp_bld_nopkg9x")
    assert missing.status_code == 404
    info = exc_info(missing)
    assert (info["T100KEY-ID"], info["T100KEY-NO"]) == ("SWB_TOOL", "025")
