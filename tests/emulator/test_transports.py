"""The transport organizer in the emulator, held against the A4H captures in ``a4h/cts``.

The golden emulator is seeded with the captured situation: ``ZMCP_DBG_DEMO`` in ``$TMP``,
the transportable package ``Z_FLIGHT_ADDITIONAL`` and SAP's ``SABAPDEMOS``. Request
numbers, dates and lock handles differ from the captures and are compared by shape;
everything else by value, and byte for byte where nothing session-specific is in the body.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import httpx
import pytest
from support.captures import Capture, capture

from adt.emulator import Emulator

from .helpers import ADT, STATEFUL, TR_REPORT, exc_info, fetch_token, lock, parse, write_abapgit
from .xmlcompare import structure_diff

pytestmark = pytest.mark.captures

CTS = "a4h/cts/"
NUMBERS = ["number", "parent", "name", "uri", "href", "dummy_uri", "triggeringUri"]
TIMES = ["lastchanged_timestamp", "changedAt", "createdAt", "releasetimestamp"]
PROGRAM = f"{ADT}/programs/programs"


def _devc(text: str) -> str:
    return (
        "<abapGit><asx:abap xmlns:asx='http://www.sap.com/abapxml'><asx:values><DEVC>"
        f"<CTEXT>{text}</CTEXT></DEVC></asx:values></asx:abap></abapGit>"
    )


@pytest.fixture
def make_golden(tmp_path: Path, adt_captures: Path) -> Callable[..., Emulator]:
    folder = write_abapgit(
        tmp_path,
        {
            "zmcp_dbg_demo.prog.abap": "REPORT zmcp_dbg_demo.\n",
            "z_flight_additional/package.devc.xml": _devc(
                "Additional objects for Flight Ref Scenario"
            ),
            "sabapdemos/package.devc.xml": _devc(
                "Demos for ABAP Documentation (Not for Production Use)"
            ),
        },
    )

    def make(**options: bool) -> Emulator:
        users = {"DEVELOPER": "developer", "USER1": "user1"}
        return Emulator(seed_dirs=[folder], users=users, **options)

    return make


@pytest.fixture
def golden(make_golden: Callable[..., Emulator]) -> Emulator:
    return make_golden()


@pytest.fixture
async def client(golden: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    async with _client(golden) as c:
        yield c


def _client(emulator: Emulator) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=emulator.app),
        base_url="http://a4h",
        auth=("DEVELOPER", "developer"),
    )


async def _replay(
    client: httpx.AsyncClient, recorded: Capture, token: str, query: dict[str, str] | None = None
) -> httpx.Response:
    """The captured request (method, path, query, body, content headers)."""
    headers = {
        k: v
        for k, v in recorded.request_headers.items()
        if k in ("accept", "content-type", "x-sap-adt-sessiontype")
    }
    params = {
        k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in recorded.query.items()
    }
    params.update(query or {})
    body = recorded.request_body
    return await client.request(
        recorded.method,
        recorded.path,
        params=params,
        content=body.encode() if body else None,
        headers={**headers, "x-csrf-token": token},
    )


def _same_headers(response: httpx.Response, recorded: Capture) -> None:
    assert response.status_code == recorded.status, response.text
    assert response.headers.get("content-type") == recorded.response_headers.get("content-type")


def _renumber(body: bytes, pairs: dict[str, str]) -> bytes:
    for old, new in pairs.items():
        body = body.replace(old.encode(), new.encode())
    return body


def _program(name: str, package: str, text: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?><program:abapProgram '
        'xmlns:program="http://www.sap.com/adt/programs/programs" '
        f'xmlns:adtcore="http://www.sap.com/adt/core" adtcore:description="{text}" '
        f'adtcore:name="{name}" adtcore:type="PROG/P" adtcore:language="EN" '
        'adtcore:masterLanguage="EN" adtcore:responsible="DEVELOPER">'
        f'<adtcore:packageRef adtcore:name="{package}"/></program:abapProgram>'
    )


async def _create_program(
    client: httpx.AsyncClient, token: str, name: str, corr_nr: str | None, text: str = "probe"
) -> httpx.Response:
    return await client.post(
        PROGRAM,
        params={"corrNr": corr_nr} if corr_nr else None,
        content=_program(name, "Z_FLIGHT_ADDITIONAL", text).encode(),
        headers={"x-csrf-token": token, "Content-Type": "application/*", **STATEFUL},
    )


async def _activate(client: httpx.AsyncClient, token: str, name: str) -> None:
    body = (
        '<?xml version="1.0" encoding="UTF-8"?><adtcore:objectReferences '
        'xmlns:adtcore="http://www.sap.com/adt/core"><adtcore:objectReference '
        f'adtcore:uri="{PROGRAM}/{name.lower()}" adtcore:name="{name}"/></adtcore:objectReferences>'
    )
    response = await client.post(
        f"{ADT}/activation?method=activate&preauditRequested=true",
        content=body,
        headers={"x-csrf-token": token, "Content-Type": "application/xml", **STATEFUL},
    )
    assert response.status_code == 200, response.text


async def _release(client: httpx.AsyncClient, token: str, number: str) -> httpx.Response:
    return await client.post(
        f"{ADT}/cts/transportrequests/{number}/newreleasejobs",
        headers={"x-csrf-token": token, "Accept": "application/*"},
    )


def _task_of(emulator: Emulator, number: str) -> str:
    [request] = [r for r in emulator.transport_requests() if r.number == number]
    return request.tasks[0].number


async def _released_request(
    golden: Emulator, client: httpx.AsyncClient, token: str, text: str, program: str
) -> str:
    number = golden.create_transport_request(text)
    assert (await _create_program(client, token, program, number, text)).status_code == 200
    await _activate(client, token, program)
    assert b'status="released"' in (await _release(client, token, _task_of(golden, number))).content
    assert b'status="released"' in (await _release(client, token, number)).content
    return number


# --- transport checks ---------------------------------------------------------------


@pytest.mark.parametrize("name", ["transport-info-tmp", "transport-info-error-messages"])
async def test_transport_checks_without_requests_are_byte_identical(
    client: httpx.AsyncClient, name: str
) -> None:
    recorded = capture(CTS + name)
    token = await fetch_token(client)
    response = await _replay(client, recorded, token)
    _same_headers(response, recorded)
    assert response.content == recorded.body


async def test_transport_check_lists_the_modifiable_requests(
    golden: Emulator, client: httpx.AsyncClient
) -> None:
    token = await fetch_token(client)
    golden.create_transport_request("BOPF", owner="USER1")
    recorded = capture(CTS + "transport-info-transportable")
    response = await _replay(client, recorded, token)
    _same_headers(response, recorded)
    assert recorded.body is not None
    assert not structure_diff(
        recorded.body, response.content, ignore_text=["TRKORR", "AS4DATE", "AS4TIME"]
    )
    golden.create_transport_request("Generated Request for Change Recording")
    recorded = capture(CTS + "transport-info-transportable-new-object")
    response = await _replay(client, recorded, token)
    assert recorded.body is not None
    assert not structure_diff(
        recorded.body, response.content, ignore_text=["TRKORR", "AS4DATE", "AS4TIME"]
    )


async def test_transport_check_names_the_request_holding_the_object(
    golden: Emulator, client: httpx.AsyncClient
) -> None:
    token = await fetch_token(client, stateful=True)
    create = capture(CTS + "create-transport-response")
    number = (await _replay(client, create, token)).text.rsplit("/", 1)[1]
    text = "abap-mcp D1 contract ZMCP_D1_A01"
    assert (await _create_program(client, token, "ZMCP_D1_A01", number, text)).status_code == 200
    [request] = golden.transport_requests()
    golden_text = request.text
    assert golden_text == "abap-mcp CTS recon throwaway B"  # the text the capture sent
    recorded = capture(CTS + "transport-info-after-create-with-corrnr")
    response = await _replay(client, recorded, token)
    assert recorded.body is not None
    expected = recorded.body.replace(text.encode(), golden_text.encode())
    assert not structure_diff(
        expected, response.content, ignore_text=["TRKORR", "AS4DATE", "AS4TIME"]
    )


async def test_generated_request_when_the_option_is_on(
    make_golden: Callable[..., Emulator],
) -> None:
    golden = make_golden(generate_requests=True)
    async with _client(golden) as client:
        token = await fetch_token(client, stateful=True)
        assert (await _create_program(client, token, "ZMCP_CTS_PROBE", None)).status_code == 200
        [request] = golden.transport_requests()
        assert request.text == "Generated Request for Change Recording"
        assert [o.name for o in request.objects] == ["ZMCP_CTS_PROBE"]
        recorded = capture(CTS + "transport-info-object-already-in-request")
        response = await _replay(client, recorded, token)
        assert recorded.body is not None
        assert not structure_diff(
            recorded.body, response.content, ignore_text=["TRKORR", "AS4DATE", "AS4TIME"]
        )
        locked = await _replay(client, capture(CTS + "lock-transportable-object"), token)
        expected = capture(CTS + "lock-transportable-object").body
        assert expected is not None
        assert not structure_diff(expected, locked.content, ignore_text=["LOCK_HANDLE", "CORRNR"])
        assert parse(locked.content).findtext(".//CORRNR") == request.number
        details = await client.get(
            f"{ADT}/cts/transportrequests/{request.number}",
            headers={"Accept": "application/vnd.sap.adt.transportorganizer.v1+xml"},
        )
        with_objects = capture(CTS + "transport-details-with-objects").body
        assert with_objects is not None
        assert not structure_diff(
            with_objects, details.content, ignore_values=NUMBERS + TIMES + ["obj_desc"]
        )


# --- create, lock and write with corrNr ---------------------------------------------


async def test_create_with_corrnr_records_and_locks_in_the_request(
    golden: Emulator, client: httpx.AsyncClient
) -> None:
    token = await fetch_token(client, stateful=True)
    number = golden.create_transport_request("abap-mcp D1 contract ZMCP_D1_A01")
    for name in ("create-object-with-corrnr-prog", "create-object-with-corrnr-clas"):
        recorded = capture(CTS + name)
        response = await _replay(client, recorded, token, {"corrNr": number})
        _same_headers(response, recorded)
        assert response.content == b"" and response.headers["content-length"] == "0"
    [request] = golden.transport_requests()
    assert [(o.type, o.name) for o in request.objects] == [
        ("PROG", "ZMCP_D1_A01"),
        ("CLAS", "ZMCP_D1_B01"),
    ]
    assert request.tasks[0].type == "Development/Correction"
    recorded = capture(CTS + "lock-object-created-with-corrnr")
    response = await _replay(client, recorded, token)
    _same_headers(response, recorded)
    assert recorded.body is not None
    assert not structure_diff(
        recorded.body, response.content, ignore_text=["LOCK_HANDLE", "CORRNR"]
    )
    assert parse(response.content).findtext(".//CORRNR") == number


async def test_create_refusals_are_the_a4h_answers(
    golden: Emulator, client: httpx.AsyncClient, adt_captures: Path
) -> None:
    token = await fetch_token(client, stateful=True)
    missing = capture(CTS + "create-object-error-corrnr-not-found")
    response = await _replay(client, missing, token)
    _same_headers(response, missing)
    assert response.content == missing.body
    task = _task_of(golden, golden.create_transport_request("Some request"))
    not_request = capture(CTS + "create-object-error-corrnr-not-a-change-request")
    response = await _replay(client, not_request, token, {"corrNr": task})
    _same_headers(response, not_request)
    assert not_request.body is not None
    assert response.content == _renumber(not_request.body, {"A4HK900122": task})
    absent = (adt_captures / "a4h/enhancement/183-corrnr-absent-400.xml").read_bytes()
    response = await _create_program(client, token, "ZMCP_NO_REQUEST", None)
    assert (response.status_code, response.content) == (400, absent)
    assert len(golden.objects()) == 1  # nothing was created


async def test_write_with_another_request_is_cts_wbo_api_020(
    golden: Emulator, client: httpx.AsyncClient
) -> None:
    recorded = capture(CTS + "write-error-object-already-locked-in-fabricated-request")
    token = await fetch_token(client, stateful=True)
    held = golden.create_transport_request("Generated Request for Change Recording")
    assert (await _create_program(client, token, "ZMCP_TR_LIVE1", held)).status_code == 200
    handle = await lock(client, token, f"{PROGRAM}/zmcp_tr_live1")
    response = await _replay(client, recorded, token, {"lockHandle": handle})
    _same_headers(response, recorded)
    assert recorded.body is not None
    assert response.content == _renumber(recorded.body, {"A4HK900131": held})
    same = await _replay(client, recorded, token, {"lockHandle": handle, "corrNr": held})
    assert same.status_code == 200
    without = await _replay(client, recorded, token, {"lockHandle": handle, "corrNr": ""})
    assert without.status_code == 200  # the request the object is locked in applies


# --- request details ----------------------------------------------------------------


async def test_details_of_new_request_with_object_and_unknown_number(
    golden: Emulator, client: httpx.AsyncClient
) -> None:
    token = await fetch_token(client, stateful=True)
    accept = {"Accept": "application/vnd.sap.adt.transportorganizer.v1+xml"}
    number = (await _replay(client, capture(CTS + "create-transport-response"), token)).text
    number = number.rsplit("/", 1)[1]
    empty = capture(CTS + "transport-details-empty-request")
    response = await client.get(f"{ADT}/cts/transportrequests/{number}", headers=accept)
    _same_headers(response, empty)
    assert re.fullmatch(r"\d{14}007", response.headers["etag"])
    assert empty.body is not None
    assert not structure_diff(empty.body, response.content, ignore_values=NUMBERS + TIMES)
    text = "abap-mcp D1 contract ZMCP_D1_A01"
    assert (await _create_program(client, token, "ZMCP_D1_A01", number, text)).status_code == 200
    after = capture(CTS + "transport-details-after-create-with-corrnr")
    response = await client.get(f"{ADT}/cts/transportrequests/{number}", headers=accept)
    assert after.body is not None
    assert not structure_diff(
        after.body, response.content, ignore_values=NUMBERS + TIMES + ["desc"]
    )
    unknown = capture(CTS + "transport-details-nonexistent-error")
    response = await _replay(client, unknown, token)
    _same_headers(response, unknown)
    assert response.content == unknown.body


async def test_details_of_a_released_task_and_request(
    golden: Emulator, client: httpx.AsyncClient
) -> None:
    token = await fetch_token(client, stateful=True)
    accept = {"Accept": "application/vnd.sap.adt.transportorganizer.v1+xml"}
    number = golden.create_transport_request("Generated Request for Change Recording")
    text = "abap-mcp live TR verification"
    assert (await _create_program(client, token, "ZMCP_TR_LIVE1", number, text)).status_code == 200
    await _activate(client, token, "ZMCP_TR_LIVE1")
    task = _task_of(golden, number)
    assert b'status="released"' in (await _release(client, token, task)).content
    response = await client.get(f"{ADT}/cts/transportrequests/{task}", headers=accept)
    expected = capture(CTS + "transport-details-task-resolves-to-parent").body
    assert expected is not None
    assert not structure_diff(expected, response.content, ignore_values=NUMBERS + TIMES)
    assert (await _release(client, token, number)).status_code == 200
    response = await client.get(f"{ADT}/cts/transportrequests/{number}", headers=accept)
    released = capture(CTS + "transport-details-released").body
    assert released is not None
    assert not structure_diff(
        released, response.content, ignore_values=NUMBERS + TIMES + ["desc", "obj_desc"]
    )


# --- delete and release -------------------------------------------------------------


async def test_delete_answers(golden: Emulator, client: httpx.AsyncClient) -> None:
    token = await fetch_token(client, stateful=True)
    headers = {"x-csrf-token": token, "Accept": "application/*"}
    empty = golden.create_transport_request("Throwaway")
    for name, number in (
        ("transport-delete-ok", empty),
        ("transport-delete-nonexistent-noop", "A4HK999999"),
    ):
        recorded = capture(CTS + name)
        response = await client.delete(f"{ADT}/cts/transportrequests/{number}", headers=headers)
        _same_headers(response, recorded)
        assert response.content == b""
    assert [r.number for r in golden.transport_requests()] == []
    held = golden.create_transport_request("Holds an object")
    assert (await _create_program(client, token, "ZMCP_CTS_PROBE", held)).status_code == 200
    locked = capture(CTS + "transport-delete-error-locked-objects")
    response = await client.delete(f"{ADT}/cts/transportrequests/{held}", headers=headers)
    _same_headers(response, locked)
    assert locked.body is not None
    assert response.content == _renumber(locked.body, {"A4HK900118": _task_of(golden, held)})
    released = await _released_request(golden, client, token, "Released", "ZMCP_CTS_REL")
    refused = capture(CTS + "transport-delete-error-already-released")
    response = await client.delete(f"{ADT}/cts/transportrequests/{released}", headers=headers)
    _same_headers(response, refused)
    assert refused.body is not None
    assert response.content == _renumber(refused.body, {"A4HK900121": released})


def _without_timestamp(body: bytes) -> bytes:
    return re.sub(rb'releasetimestamp="\d+ "', b'releasetimestamp="T "', body)


async def test_release_reports(golden: Emulator, client: httpx.AsyncClient) -> None:
    token = await fetch_token(client, stateful=True)
    number = golden.create_transport_request("Release probe")
    task = _task_of(golden, number)

    async def check(name: str, target: str, pairs: dict[str, str]) -> None:
        recorded = capture(CTS + name)
        response = await _release(client, token, target)
        _same_headers(response, recorded)
        assert recorded.body is not None
        expected = _without_timestamp(_renumber(recorded.body, pairs))
        assert _without_timestamp(response.content) == expected, name

    await check("transport-release-abort-unclassified-task", task, {"A4HK900124": task})
    assert (await _create_program(client, token, "ZMCP_CTS_REL", number)).status_code == 200
    await check("transport-release-abort-inactive-object", task, {"A4HK900122": task})
    await check(
        "transport-release-abort-task-not-released",
        number,
        {"A4HK900121": number, "A4HK900122": task},
    )
    await _activate(client, token, "ZMCP_CTS_REL")
    await check("transport-release-success", task, {"A4HK900122": task})
    await check("transport-release-abort-already-released", task, {"A4HK900122": task})
    [request] = golden.transport_requests()
    assert (request.status, request.tasks[0].status) == ("D", "R")


# --- the user's requests and small resources ----------------------------------------


async def test_user_requests_flat_and_by_target(
    golden: Emulator, client: httpx.AsyncClient
) -> None:
    token = await fetch_token(client, stateful=True)
    empty = capture(CTS + "user-transports-targets-true-empty")
    response = await _replay(client, empty, token)
    _same_headers(response, empty)
    assert empty.body is not None
    assert not structure_diff(empty.body, response.content, ignore_values=TIMES)
    await _released_request(golden, client, token, "abap-mcp CTS recon throwaway B", "ZMCP_CTS_REL")
    await _released_request(
        golden, client, token, "abap-mcp CTS recon throwaway E", "ZMCP_CTS_REL2"
    )
    flat = capture(CTS + "user-transports-targets-false")
    response = await _replay(client, flat, token)
    _same_headers(response, flat)
    assert flat.body is not None
    assert not structure_diff(
        flat.body, response.content, ignore_values=NUMBERS + TIMES, optional_attributes=["obj_desc"]
    )
    modifiable = golden.create_transport_request("Open work")
    tree = await client.get(
        f"{ADT}/cts/transportrequests", params={"user": "DEVELOPER", "targets": "true"}
    )
    root = parse(tree.content)
    tm = "{http://www.sap.com/cts/adt/tm}"
    [target] = root.findall(f"{tm}workbench/{tm}target")
    assert [r.get(f"{tm}number") for r in target.iterfind(f"{tm}modifiable/{tm}request")] == [
        modifiable
    ]
    assert len(target.findall(f"{tm}released/{tm}request")) == 2


async def test_reference_users_targets_configurations_owner_and_tasks(
    golden: Emulator, client: httpx.AsyncClient
) -> None:
    token = await fetch_token(client, stateful=True)
    number = golden.create_transport_request("Probe")
    assert (await _create_program(client, token, "ZMCP_CTS_PROBE", number)).status_code == 200
    for name in (
        "transport-reference",
        "transport-targets-valuehelp-empty",
        "transport-search-configurations-empty",
    ):
        recorded = capture(CTS + name)
        response = await _replay(client, recorded, token)
        _same_headers(response, recorded)
        assert response.content == recorded.body, name
    users = await _replay(client, capture(CTS + "system-users"), token)
    atom = "{http://www.w3.org/2005/Atom}"
    assert [e.findtext(f"{atom}id") for e in parse(users.content).iter(f"{atom}entry")] == [
        "DEVELOPER",
        "USER1",
    ]
    owner = capture(CTS + "transport-setowner")
    assert owner.body is not None and owner.request_body is not None
    response = await client.put(
        f"{ADT}/cts/transportrequests/{number}?targetuser=USER1",
        content=owner.request_body.replace("A4HK900127", number).encode(),
        headers={"x-csrf-token": token, "Accept": "application/*"},
    )
    assert response.content == _renumber(owner.body, {"A4HK900127": number})
    assert golden.transport_requests()[0].owner == "USER1"
    added = capture(CTS + "task-create-adduser")
    assert added.request_body is not None and added.body is not None
    response = await client.post(
        f"{ADT}/cts/transportrequests/{number}/tasks",
        content=added.request_body.replace("A4HK900127", number).encode(),
        headers={"x-csrf-token": token, "Content-Type": "text/plain", "Accept": "application/*"},
    )
    _same_headers(response, added)
    new_task = golden.transport_requests()[0].tasks[-1]
    assert new_task.owner == "USER1"
    assert response.headers["location"] == f"{ADT}/cts/transportrequests/{new_task.number}"
    assert not structure_diff(added.body, response.content, ignore_values=NUMBERS)


async def test_seeded_transportable_sample_is_locked_in_a_request(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    [request] = emulator.transport_requests()
    assert (request.number, request.status, request.type) == ("A4HK900101", "D", "K")
    assert [(o.pgmid, o.type, o.name) for o in request.objects] == [
        ("R3TR", "PROG", "ZDEMO_TR_REPORT")
    ]
    token = await fetch_token(adt_client, stateful=True)
    response = await adt_client.post(
        f"{TR_REPORT}?_action=LOCK&accessMode=MODIFY", headers={"x-csrf-token": token, **STATEFUL}
    )
    data = parse(response.content).find(".//DATA")
    assert data is not None
    assert (data.findtext("CORRNR"), data.findtext("CORRUSER")) == ("A4HK900101", "DEVELOPER")
    assert data.findtext("CORRTEXT") == "Generated Request for Change Recording"
    assert (
        exc_info(
            await adt_client.get(
                f"{ADT}/cts/transportrequests/A4HK999999",
                headers={"Accept": "application/vnd.sap.adt.transportorganizer.v1+xml"},
            )
        )["type"]
        == "ADT_TM_COMMON_EXCEPTION"
    )


async def test_search_configurations(golden: Emulator, client: httpx.AsyncClient) -> None:
    token = await fetch_token(client, stateful=True)
    created = capture(CTS + "transport-search-configuration-created")
    assert created.body is not None
    response = await _replay(client, created, token)
    _same_headers(response, created)
    uri = response.headers["location"]
    assert re.fullmatch(
        r"/sap/bc/adt/cts/transportrequests/searchconfiguration/configurations/[0-9A-F]{32}", uri
    )
    assert re.fullmatch(r"\d{14}", response.headers["etag"])
    assert not structure_diff(
        created.body, response.content, ignore_values=[*TIMES, "href", "etag"]
    )
    await _replay(client, created, token)
    listed = capture(CTS + "transport-search-configurations-list")
    response = await _replay(client, listed, token)
    _same_headers(response, listed)
    assert listed.body is not None
    assert not structure_diff(listed.body, response.content, ignore_values=[*TIMES, "href", "etag"])
    number = golden.create_transport_request("Modifiable one")
    await _released_request(golden, client, token, "Released one", "ZMCP_CTS_REL")
    update = (
        '<configuration:configuration xmlns:configuration="http://www.sap.com/adt/configuration">'
        '<configuration:properties><configuration:property key="Released">false'
        "</configuration:property></configuration:properties></configuration:configuration>"
    )
    put = await client.put(
        uri,
        content=update,
        headers={"x-csrf-token": token, "If-Match": "x", "Content-Type": created.content_type},
    )
    assert put.status_code == 200
    assert b'key="Released" isMandatory="true">false<' in put.content
    tree = await client.get(
        f"{ADT}/cts/transportrequests", params={"configUri": uri, "targets": "false"}
    )
    tm = "{http://www.sap.com/cts/adt/tm}"
    numbers = [r.get(f"{tm}number") for r in parse(tree.content).iter(f"{tm}request")]
    assert numbers == [number]
    unknown = await client.get(uri.rsplit("/", 1)[0] + "/" + "0" * 32)
    assert unknown.status_code == 404


# --- moving objects, and a release while an object is locked (no capture: assumptions) ----


def _organize(number: str, action: str, rows: str) -> bytes:
    """The body sapcli sends for ``removeobject`` (``addobject`` by analogy)."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?><tm:root xmlns:tm="http://www.sap.com/cts/adt/tm"'
        f' tm:number="{number}" tm:useraction="{action}"><tm:request>{rows}</tm:request>'
        "</tm:root>"
    ).encode()


async def test_remove_and_add_object_move_the_cts_lock_and_a_lock_stops_a_release(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    [seeded] = emulator.transport_requests()
    row = '<tm:abap_object tm:pgmid="R3TR" tm:type="PROG" tm:name="ZDEMO_TR_REPORT"/>'
    target = emulator.create_transport_request("Move target")
    headers = {"x-csrf-token": token, "Content-Type": "application/xml", **STATEFUL}
    base = f"{ADT}/cts/transportrequests"
    refused = await adt_client.put(
        f"{base}/{target}", headers=headers, content=_organize(target, "addobject", row)
    )
    assert refused.status_code == 500 and "CTS_WBO_API" in refused.text  # still in the seeded
    task = seeded.tasks[0].number
    removed = await adt_client.put(
        f"{base}/{task}", headers=headers, content=_organize(task, "removeobject", row)
    )
    assert removed.status_code == 200 and 'tm:useraction="removeobject"' in removed.text
    added = await adt_client.put(
        f"{base}/{target}", headers=headers, content=_organize(target, "addobject", row)
    )
    assert added.status_code == 200
    holders = [r.number for r in emulator.transport_requests() if r.objects]
    assert holders == [target]

    emulator.lock_as("COLLEAGUE", TR_REPORT)
    [moved_task] = next(r for r in emulator.transport_requests() if r.number == target).tasks
    release = await adt_client.post(
        f"{base}/{moved_task.number}/newreleasejobs", headers={"x-csrf-token": token}
    )
    assert 'chkrun:status="abortrelapifail"' in release.text and "COLLEAGUE" in release.text
    ignoring = await adt_client.post(
        f"{base}/{moved_task.number}/relwithignlock", headers={"x-csrf-token": token}
    )
    assert 'chkrun:status="released"' in ignoring.text
    emulator.unlock_as("COLLEAGUE", TR_REPORT)
