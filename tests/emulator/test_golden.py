"""Golden tests: replay captured A4H/trial sequences against the emulator.

The emulator is seeded from a temporary abapGit folder with objects equivalent to
the captured ones (``ZMCP_DBG_DEMO`` with the body of ``092``, ``ZMCP_NL_PROBE``,
``ZMCP_DBG_RUN``, …).  Responses are compared on status, content type, key headers
and body structure; values are compared where they are not session-specific.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from adt.emulator import Emulator

from .helpers import ADT, LOCK_ACCEPT_RESULT, activation_body, handle_of, write_abapgit
from .xmlcompare import namespace_declarations, structure_diff

pytestmark = pytest.mark.captures

DEMO = f"{ADT}/programs/programs/zmcp_dbg_demo"
NL_PROBE = f"{ADT}/programs/programs/zmcp_nl_probe"
TIMES = ["changedAt", "createdAt", "etag"]


def _meta(captures: Path, number: str) -> dict[str, Any]:
    [path] = (captures / "a4h").glob(f"{number}-*.meta.json")
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _body(captures: Path, number: str) -> bytes:
    [path] = [p for p in (captures / "a4h").glob(f"{number}-*") if not p.name.endswith(".json")]
    return path.read_bytes()


def _prog_xml(title: str) -> str:
    return (
        '<?xml version="1.0" encoding="utf-8"?><abapGit><asx:abap '
        'xmlns:asx="http://www.sap.com/abapxml"><asx:values><PROGDIR><SUBC>1</SUBC></PROGDIR>'
        f"<TPOOL><item><ID>R</ID><ENTRY>{title}</ENTRY></item></TPOOL></asx:values></asx:abap>"
        "</abapGit>"
    )


def _seed(folder: Path, captures: Path) -> Path:
    original = _body(captures, "092").decode("utf-8")
    return write_abapgit(
        folder,
        {
            "zmcp_dbg_demo.prog.abap": original,
            "zmcp_dbg_demo.prog.xml": _prog_xml("MCP debugger fixture: report under debug"),
            "zmcp_nl_probe.prog.abap": "REPORT zmcp_nl_probe.\n",
            "zmcp_nl_probe.prog.xml": _prog_xml("Newline probe"),
            "zmcp_dbg_run.clas.abap": "CLASS zmcp_dbg_run DEFINITION PUBLIC FINAL CREATE PUBLIC.\n"
            "  PUBLIC SECTION.\nENDCLASS.\n\nCLASS zmcp_dbg_run IMPLEMENTATION.\nENDCLASS.\n",
            "zmcp_dbg_run.clas.locals_def.abap": "* definitions\n",
            "zmcp_dbg_run.clas.locals_imp.abap": "* implementations\n",
            "zmcp_dbg_run.clas.macros.abap": "* macros\n",
            "zmcp_dbg_run.clas.xml": "<abapGit><VSEOCLASS><DESCRIPT>MCP debugger spike: classrun "
            "launcher</DESCRIPT></VSEOCLASS></abapGit>",
            "zmcp_bld_ansch01.clas.abap": "CLASS zmcp_bld_ansch01 DEFINITION PUBLIC.\nENDCLASS.\n"
            "CLASS zmcp_bld_ansch01 IMPLEMENTATION.\nENDCLASS.\n",
        },
    )


@pytest.fixture
def golden(tmp_path: Path, adt_captures: Path) -> Emulator:
    return Emulator(
        seed_dirs=[_seed(tmp_path, adt_captures)],
        users={"DEVELOPER": "developer", "SAPUSER01": "sapuser01"},
    )


@pytest.fixture
async def client(golden: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=golden.app),
        base_url="http://a4h",
        auth=("DEVELOPER", "developer"),
    ) as c:
        yield c


async def _replay(client: httpx.AsyncClient, meta: dict[str, Any], token: str) -> httpx.Response:
    """Send a captured request: same method, path, body and (unredacted) headers."""
    url = meta["requestUrl"].split("50000", 1)[1]
    headers = {
        k: v
        for k, v in meta["requestHeaders"].items()
        if k not in ("Authorization", "Cookie") and not str(v).startswith("<redacted")
    }
    if "X-CSRF-Token" in headers:
        headers["X-CSRF-Token"] = token
    body = meta.get("requestBody")
    return await client.request(
        meta["requestMethod"], url, headers=headers, content=body.encode("utf-8") if body else None
    )


def _check_headers(response: httpx.Response, meta: dict[str, Any]) -> None:
    expected = meta["responseHeaders"]
    assert response.status_code == meta["responseStatus"], response.text
    assert response.headers.get("content-type") == expected.get("content-type")
    for key in ("etag", "last-modified"):
        assert (key in response.headers) == (key in expected), key
    if meta.get("zeroByteBody"):
        assert response.content == b""
        assert response.headers["content-length"] == "0"


async def _fetch(client: httpx.AsyncClient, captures: Path, number: str) -> str:
    meta = _meta(captures, number)
    response = await client.get(
        f"{ADT}/core/discovery",
        headers={k: v for k, v in meta["requestHeaders"].items() if k != "Authorization"},
    )
    assert response.status_code == 200
    token = response.headers["x-csrf-token"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}==", token)
    assert len(token) == len(meta["responseHeaders"]["x-csrf-token"])
    return token


async def test_edit_cycle_091_to_109_and_211_to_231(
    golden: Emulator, client: httpx.AsyncClient, adt_captures: Path
) -> None:
    cap = adt_captures
    token = await _fetch(client, cap, "091")

    read = await _replay(client, _meta(cap, "092"), token)
    _check_headers(read, _meta(cap, "092"))
    assert read.content == _body(cap, "092")
    metadata = await client.get(DEMO, headers={"Accept": "application/*"})
    assert f'etag="{read.headers["etag"]}"' in metadata.text

    locked = await _replay(client, _meta(cap, "093"), token)
    _check_headers(locked, _meta(cap, "093"))
    assert not structure_diff(_body(cap, "093"), locked.content, ignore_text=["LOCK_HANDLE"])
    first_handle = handle_of(locked.text)

    def with_handle(meta: dict[str, Any], handle: str) -> dict[str, Any]:
        meta = dict(meta)
        meta["requestUrl"] = re.sub(r"lockHandle=\w+", f"lockHandle={handle}", meta["requestUrl"])
        return meta

    put = await _replay(client, with_handle(_meta(cap, "094"), first_handle), token)
    _check_headers(put, _meta(cap, "094"))
    refused = await _replay(client, _meta(cap, "095"), token)
    _check_headers(refused, _meta(cap, "095"))
    assert refused.content == _body(cap, "095")
    unlocked = await _replay(client, with_handle(_meta(cap, "096"), first_handle), token)
    _check_headers(unlocked, _meta(cap, "096"))

    relocked = await _replay(client, _meta(cap, "106"), token)
    assert handle_of(relocked.text) == first_handle  # A4H re-issues the same handle
    restore = await _replay(client, with_handle(_meta(cap, "107"), first_handle), token)
    _check_headers(restore, _meta(cap, "107"))
    refused = await _replay(client, _meta(cap, "108"), token)
    assert refused.content == _body(cap, "108")
    _check_headers(
        await _replay(client, with_handle(_meta(cap, "109"), first_handle), token),
        _meta(cap, "109"),
    )

    token = await _fetch(client, cap, "211")
    read = await _replay(client, _meta(cap, "212"), token)
    _check_headers(read, _meta(cap, "212"))
    assert read.content == _body(cap, "212")
    assert read.headers["etag"].endswith("0001")  # still the inactive restore, as on A4H
    handle = handle_of((await _replay(client, _meta(cap, "213"), token)).text)
    put = await _replay(client, with_handle(_meta(cap, "214"), handle), token)
    _check_headers(put, _meta(cap, "214"))
    _check_headers(
        await _replay(client, with_handle(_meta(cap, "215"), handle), token), _meta(cap, "215")
    )
    activated = await _replay(client, _meta(cap, "216"), token)
    _check_headers(activated, _meta(cap, "216"))
    verify = await _replay(client, _meta(cap, "217"), token)
    _check_headers(verify, _meta(cap, "217"))
    assert verify.content == _body(cap, "217")
    assert verify.headers["etag"].endswith("0011")

    assert handle_of((await _replay(client, _meta(cap, "228"), token)).text) == handle
    _check_headers(
        await _replay(client, with_handle(_meta(cap, "229"), handle), token), _meta(cap, "229")
    )
    _check_headers(
        await _replay(client, with_handle(_meta(cap, "230"), handle), token), _meta(cap, "230")
    )
    _check_headers(await _replay(client, _meta(cap, "231"), token), _meta(cap, "231"))
    assert golden.source(f"{DEMO}/source/main", "active") == _body(cap, "092").decode().replace(
        "\r\n", "\n"
    )
    assert golden.locks() == []


async def test_csrf_failure_on_post_071_and_not_found_072(
    client: httpx.AsyncClient, adt_captures: Path
) -> None:
    cap = adt_captures
    await client.get(f"{ADT}/core/discovery", headers={"X-CSRF-Token": "Fetch"})
    created = await _replay(client, _meta(cap, "071"), "fetch")
    _check_headers(created, _meta(cap, "071"))
    assert created.headers["x-csrf-token"] == "Required"
    assert created.content == _body(cap, "071")
    verify = await _replay(client, _meta(cap, "072"), "")
    _check_headers(verify, _meta(cap, "072"))
    assert verify.content == _body(cap, "072")


async def test_newline_canonicalisation_305_to_311(
    client: httpx.AsyncClient, adt_captures: Path
) -> None:
    cap = adt_captures
    token = await _fetch(client, cap, "091")
    stateful = {"X-sap-adt-sessiontype": "stateful", "X-CSRF-Token": token}
    locked = await client.post(
        f"{NL_PROBE}?_action=LOCK&accessMode=MODIFY",
        headers={**stateful, "Accept": LOCK_ACCEPT_RESULT},
    )
    handle = handle_of(locked.text)
    etags = []
    for newlines, number in zip(range(4), ("305", "307", "309", "311"), strict=True):
        text = "REPORT zmcp_nl_probe.\nWRITE 'x'." + "\n" * newlines
        put = await client.put(
            f"{NL_PROBE}/source/main?lockHandle={handle}",
            content=text.encode(),
            headers={**stateful, "Content-Type": "text/plain; charset=utf-8"},
        )
        assert put.status_code == 200
        read = await _replay(client, _meta(cap, number), token)
        _check_headers(read, _meta(cap, number))
        assert read.content == _body(cap, "311")
        assert read.headers["content-length"] == "33"
        etags.append(read.headers["etag"])
    assert len(set(etags)) == 4


def _trl(captures: Path, case: str) -> tuple[dict[str, Any], bytes]:
    meta = json.loads((captures / "trl" / f"{case}.json").read_text(encoding="utf-8"))
    body_path = captures / "trl" / f"{case}.body.xml"
    return meta, body_path.read_bytes() if body_path.exists() else b""


async def test_lock_conflict_trial(golden: Emulator, adt_captures: Path) -> None:
    meta, body = _trl(adt_captures, "refusal-lock-held-by-other--01-lock")
    golden.lock_as("SAPUSER01", f"{ADT}/oo/classes/zmcp_bld_ansch01")
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=golden.app),
        base_url="http://t",
        auth=("DEVELOPER", "developer"),
    ) as client:
        token = (
            await client.get(f"{ADT}/core/discovery", headers={"x-csrf-token": "fetch"})
        ).headers["x-csrf-token"]
        response = await client.post(
            meta["request"]["url"],
            headers={
                **meta["request"]["headers"],
                "x-csrf-token": token,
                "X-sap-adt-sessiontype": "stateful",
            },
        )
    assert response.status_code == meta["response"]["status"]
    assert response.headers["content-type"] == meta["response"]["headers"]["content-type"]
    assert response.content == body


async def test_write_not_locked_and_not_found_trial(adt_captures: Path, tmp_path: Path) -> None:
    emulator = Emulator(seed_dirs=[_seed(tmp_path, adt_captures)], users={"SAPUSER01": "pw"})
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=emulator.app),
        base_url="http://t",
        auth=("SAPUSER01", "pw"),
    ) as client:
        token = (
            await client.get(f"{ADT}/core/discovery", headers={"x-csrf-token": "fetch"})
        ).headers["x-csrf-token"]
        for case in (
            "refusal-write-not-locked--01-update-source",
            "refusal-object-not-found--01-read-source",
        ):
            meta, body = _trl(adt_captures, case)
            request = meta["request"]
            response = await client.request(
                request["method"],
                request["url"],
                content=(request["body"] or "").encode(),
                headers={
                    **request["headers"],
                    "x-csrf-token": token,
                    "X-sap-adt-sessiontype": "stateful",
                },
            )
            assert response.status_code == meta["response"]["status"], case
            assert response.headers["content-type"] == "application/xml"
            assert not structure_diff(body, response.content), case
            if case.startswith("refusal-object"):
                assert response.content == body


@pytest.mark.parametrize(
    ("number", "uri", "optional"),
    [
        ("073", DEMO, []),
        ("074", f"{ADT}/oo/classes/zmcp_dbg_run", []),
    ],
)
async def test_metadata_matches_the_capture(
    client: httpx.AsyncClient, adt_captures: Path, number: str, uri: str, optional: list[str]
) -> None:
    meta = _meta(adt_captures, number)
    response = await client.get(uri, headers={"Accept": meta["requestHeaders"]["Accept"]})
    _check_headers(response, meta)
    expected = _body(adt_captures, number)
    assert not structure_diff(
        expected, response.content, ignore_values=TIMES, optional_attributes=optional
    )
    assert namespace_declarations(response.text) == namespace_declarations(expected.decode())

    # the root start tag is byte-identical once the timestamps are blanked
    def root_tag(text: str) -> str:
        tag = text.split(">", 2)[1]
        return re.sub(r'(changedAt|createdAt)="[^"]*"', r'\1=""', tag)

    assert root_tag(response.text) == root_tag(expected.decode())


@pytest.mark.parametrize(
    ("number", "uri"),
    [
        ("075", f"{ADT}/oo/interfaces/zif_demo_greeting"),
        ("832", f"{ADT}/functions/groups/zdemo_fg"),
        ("833", f"{ADT}/functions/groups/zdemo_fg/fmodules/z_demo_add"),
        ("830", f"{ADT}/programs/includes/zdemo_include"),
    ],
)
async def test_other_metadata_shapes(
    adt_client: httpx.AsyncClient, adt_captures: Path, number: str, uri: str
) -> None:
    meta = _meta(adt_captures, number)
    response = await adt_client.get(uri, headers={"Accept": meta["requestHeaders"]["Accept"]})
    _check_headers(response, meta)
    diffs = structure_diff(
        _body(adt_captures, number),
        response.content,
        ignore_values=[
            *TIMES,
            "name",
            "description",
            "responsible",
            "masterSystem",
            "changedBy",
            "createdBy",
            "masterLanguage",
            "language",
            "uri",
            "href",
            "packageName",
            "fixPointArithmetic",
            "activeUnicodeCheck",
            "title",
        ],
        ignore_text=[],
        optional_attributes=["sourceObjectStatus"],
    )
    assert not diffs


async def test_empty_quick_search_826(adt_client: httpx.AsyncClient, adt_captures: Path) -> None:
    meta = _meta(adt_captures, "826")
    response = await _replay(adt_client, meta, "")
    _check_headers(response, meta)
    assert response.content == _body(adt_captures, "826")


async def test_quick_search_hit_shape_846(
    adt_client: httpx.AsyncClient, adt_captures: Path
) -> None:
    response = await adt_client.get(
        f"{ADT}/repository/informationsystem/search?operation=quickSearch&query=Z_DEMO_ADD&maxResults=25",
        headers={"Accept": "application/*"},
    )
    assert not structure_diff(
        _body(adt_captures, "846"),
        response.content,
        ignore_values=["uri", "name", "packageName", "description"],
    )


async def test_nodestructure_root_shape(adt_client: httpx.AsyncClient, adt_captures: Path) -> None:
    meta, body = _trl(adt_captures, "read-package-contents-structure--01-nodestructure")
    token = (
        await adt_client.get(f"{ADT}/core/discovery", headers={"x-csrf-token": "fetch"})
    ).headers["x-csrf-token"]
    response = await adt_client.post(
        f"{ADT}/repository/nodestructure?parent_type=DEVC%2FK&parent_name=%24ZDEMO"
        "&parent_tech_name=%24ZDEMO&withShortDescriptions=true",
        content=meta["request"]["body"].encode(),
        headers={**meta["request"]["headers"], "x-csrf-token": token},
    )
    assert response.headers["content-type"] == meta["response"]["headers"]["content-type"]
    from lxml import etree

    ours = etree.fromstring(response.content)
    theirs = etree.fromstring(body)
    assert [e.tag for e in ours.iter()][:8] == [e.tag for e in theirs.iter()][:8]
    assert {c.tag for c in ours.find(".//SEU_ADT_OBJECT_TYPE_INFO")} == {  # type: ignore[union-attr]
        c.tag
        for c in theirs.find(".//SEU_ADT_OBJECT_TYPE_INFO")  # type: ignore[union-attr]
    }


def test_activation_body_helper_matches_capture(adt_captures: Path) -> None:
    assert activation_body(DEMO) == _meta(adt_captures, "216")["requestBody"]
