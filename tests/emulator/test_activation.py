"""Activation (§7.1) and check runs (§7.2)."""

from __future__ import annotations

import base64

import httpx
import pytest

from adt.emulator import Emulator

from .helpers import (
    ADT,
    GREETER,
    REPORT,
    activate,
    exc_info,
    fetch_token,
    lock,
    parse,
    put_source,
    unlock,
)

CHKL = "{http://www.sap.com/abapxml/checklist}"
CHKRUN = "{http://www.sap.com/adt/checkrun}"
BROKEN = "REPORT zdemo_report.\n\nIF 1 = 1.\n  WRITE 'x'.\n"


def _client(emulator: Emulator) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=emulator.app),
        base_url="http://emulator",
        auth=("DEVELOPER", "developer"),
    )


async def _write(client: httpx.AsyncClient, text: str, *, keep_lock: bool = False) -> str:
    token = await fetch_token(client, stateful=True)
    handle = await lock(client, token, REPORT)
    assert (
        await put_source(client, token, f"{REPORT}/source/main", handle, text)
    ).status_code == 200
    if not keep_lock:
        await unlock(client, token, REPORT, handle)
    return token


async def test_activation_refused_while_own_lock_is_held(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await _write(adt_client, "REPORT zdemo_report.\nWRITE 'new'.", keep_lock=True)
    response = await activate(adt_client, token, REPORT)
    assert response.status_code == 403
    info = exc_info(response)
    assert info["message"] == "User DEVELOPER is currently editing ZDEMO_REPORT"
    assert info["URI"] == REPORT
    assert (info["T100KEY-ID"], info["T100KEY-NO"]) == ("EU", "510")
    assert (
        emulator.source(f"{REPORT}/source/main", "active") != "REPORT zdemo_report.\nWRITE 'new'."
    )


async def test_activation_refused_while_another_user_holds_the_lock(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    emulator.write_as("COLLEAGUE", f"{REPORT}/source/main", "REPORT zdemo_report.")
    emulator.lock_as("COLLEAGUE", REPORT)
    token = await fetch_token(adt_client)
    response = await activate(adt_client, token, REPORT, stateful=False)
    assert response.status_code == 403
    assert exc_info(response)["T100KEY-V1"] == "COLLEAGUE"


async def test_successful_activation_a4h_style(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await _write(adt_client, "REPORT zdemo_report.\nWRITE 'new'.")
    before = await adt_client.get(f"{REPORT}/source/main")
    response = await activate(adt_client, token, REPORT)
    assert (response.status_code, response.content) == (200, b"")
    assert "content-type" not in response.headers
    assert (
        emulator.source(f"{REPORT}/source/main", "active") == "REPORT zdemo_report.\nWRITE 'new'."
    )
    after = await adt_client.get(f"{REPORT}/source/main")
    assert after.headers["last-modified"] == before.headers["last-modified"]
    assert after.headers["etag"] == before.headers["etag"][:14] + "0011"
    metadata = await adt_client.get(REPORT)
    assert 'adtcore:version="active"' in metadata.text


async def test_successful_activation_messages_style() -> None:
    emulator = Emulator(activation_style="messages")
    async with _client(emulator) as client:
        token = await _write(client, "REPORT zdemo_report.")
        response = await activate(client, token, REPORT)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/xml; charset=utf-8"
    props = parse(response.content).find(f"{CHKL}properties")
    assert props is not None
    assert props.get("activationExecuted") == "true"


async def test_nothing_to_activate(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client)
    response = await activate(adt_client, token, GREETER, stateful=False)
    root = parse(response.content)
    props = root.find(f"{CHKL}properties")
    assert props is not None
    assert props.get("activationExecuted") == "false"
    assert root.find("msg") is None


@pytest.mark.parametrize(("style", "has_properties"), [("empty", False), ("messages", True)])
async def test_syntax_errors_come_back_in_a_200(style: str, has_properties: bool) -> None:
    emulator = Emulator(activation_style=style)
    async with _client(emulator) as client:
        token = await _write(client, BROKEN)
        response = await activate(client, token, REPORT)
    assert response.status_code == 200
    root = parse(response.content)
    assert (root.find(f"{CHKL}properties") is not None) == has_properties
    [msg] = root.findall("msg")
    assert msg.get("type") == "E"
    assert msg.get("href") == f"{REPORT}/source/main#start=3,0"
    assert "ENDIF" in (msg.findtext("shortText/txt") or "")
    assert emulator.source(f"{REPORT}/source/main", "active") != BROKEN.rstrip("\n")


async def test_activation_needs_the_method_parameter(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client)
    response = await adt_client.post(
        f"{ADT}/activation", content=b"<x/>", headers={"x-csrf-token": token}
    )
    assert response.status_code == 400
    info = exc_info(response)
    assert info["type"] == "ExceptionParameterNotFound"
    assert info["message"] == "Parameter method could not be found."


def _checkrun_body(uri: str, version: str, artifact: tuple[str, str] | None = None) -> str:
    inner = ""
    if artifact is not None:
        content = base64.b64encode(artifact[1].encode()).decode()
        inner = (
            '<chkrun:artifacts><chkrun:artifact chkrun:contentType="text/plain; charset=utf-8" '
            f'chkrun:uri="{artifact[0]}"><chkrun:content>{content}</chkrun:content>'
            "</chkrun:artifact></chkrun:artifacts>"
        )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><chkrun:checkObjectList '
        'xmlns:chkrun="http://www.sap.com/adt/checkrun" xmlns:adtcore="http://www.sap.com/adt/core">'
        f'<chkrun:checkObject adtcore:uri="{uri}" chkrun:version="{version}">{inner}'
        "</chkrun:checkObject></chkrun:checkObjectList>"
    )


async def _checkrun(client: httpx.AsyncClient, body: str) -> httpx.Response:
    token = await fetch_token(client)
    return await client.post(
        f"{ADT}/checkruns?reporters=abapCheckRun",
        content=body,
        headers={
            "x-csrf-token": token,
            "Content-Type": "application/vnd.sap.adt.checkobjects+xml",
            "Accept": "application/vnd.sap.adt.checkmessages+xml",
        },
    )


async def test_check_run_clean(adt_client: httpx.AsyncClient) -> None:
    response = await _checkrun(adt_client, _checkrun_body(GREETER, "active"))
    assert response.status_code == 200
    assert response.headers["content-type"] == (
        "application/vnd.sap.adt.checkmessages+xml; charset=utf-8"
    )
    report = parse(response.content).find(f"{CHKRUN}checkReport")
    assert report is not None
    assert report.get(f"{CHKRUN}status") == "processed"
    assert report.get(f"{CHKRUN}statusText") == "Object ZCL_DEMO_GREETER has been checked"
    assert report.find(f"{CHKRUN}checkMessageList") is None


async def test_check_run_on_artifact_content(adt_client: httpx.AsyncClient) -> None:
    source = f"{GREETER}/source/main"
    text = (
        "CLASS zcl_demo_greeter DEFINITION PUBLIC.\nENDCLASS.\n\n"
        "CLASS zcl_demo_greeter IMPLEMENTATION.\n  METHOD greet.\nENDCLASS."
    )
    response = await _checkrun(adt_client, _checkrun_body(GREETER, "inactive", (source, text)))
    messages = parse(response.content).findall(f".//{CHKRUN}checkMessage")
    assert [m.get(f"{CHKRUN}type") for m in messages] == ["E"]
    assert messages[0].get(f"{CHKRUN}uri") == f"{source}#start=6,0;end=6,8"
    assert "METHOD" in (messages[0].get(f"{CHKRUN}shortText") or "")


async def test_check_run_uses_stored_inactive_version(adt_client: httpx.AsyncClient) -> None:
    await _write(adt_client, BROKEN)
    inactive = await _checkrun(adt_client, _checkrun_body(REPORT, "inactive"))
    active = await _checkrun(adt_client, _checkrun_body(REPORT, "active"))
    assert len(parse(inactive.content).findall(f".//{CHKRUN}checkMessage")) == 1
    assert parse(active.content).findall(f".//{CHKRUN}checkMessage") == []


async def test_check_run_for_a_missing_object(adt_client: httpx.AsyncClient) -> None:
    response = await _checkrun(
        adt_client, _checkrun_body(f"{ADT}/oo/classes/zmcp_bld_nope_cls99", "active")
    )
    report = parse(response.content).find(f"{CHKRUN}checkReport")
    assert report is not None
    assert report.get(f"{CHKRUN}status") == "notProcessed"
    assert report.get(f"{CHKRUN}statusText") == "Resource CLASS ZMCP_BLD_NOPE_CLS99 does not exist."
