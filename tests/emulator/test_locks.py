"""LOCK / UNLOCK and the lock table (§4)."""

from __future__ import annotations

import re

import httpx
import pytest

from adt.emulator import Emulator, EmulatorError

from .helpers import (
    GREETER,
    LOCK_ACCEPT_RESULT,
    LOCK_ACCEPT_SAPCLI,
    REPORT,
    STATEFUL,
    TR_REPORT,
    exc_info,
    fetch_token,
    lock,
    parse,
    put_source,
    unlock,
)

ABAP_ADT_API_ACCEPT = (
    "application/*,application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.lock.result"
)


@pytest.mark.parametrize(
    ("accept", "dataname", "fields"),
    [
        (LOCK_ACCEPT_SAPCLI, "Result2", 11),
        (LOCK_ACCEPT_RESULT, "Result", 8),
        (ABAP_ADT_API_ACCEPT, "Result", 8),
    ],
)
async def test_lock_document_follows_accept(
    adt_client: httpx.AsyncClient, accept: str, dataname: str, fields: int
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    response = await adt_client.post(
        f"{GREETER}?_action=LOCK&accessMode=MODIFY",
        headers={"x-csrf-token": token, "Accept": accept, **STATEFUL},
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == (
        f"application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.lock.{dataname}"
    )
    data = parse(response.content).find(".//DATA")
    assert data is not None
    assert len(data) == fields
    assert re.fullmatch(r"[0-9A-F]{40}", data.findtext("LOCK_HANDLE") or "")
    assert data.findtext("IS_LOCAL") == "X"
    assert data.findtext("CORRNR") == ""
    assert data.findtext("MODIFICATION_SUPPORT") == "NoModification"


async def test_relock_after_unlock_reuses_the_handle(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    first = await lock(adt_client, token, REPORT)
    assert (await unlock(adt_client, token, REPORT, first)).status_code == 200
    assert emulator.locks() == []
    second = await lock(adt_client, token, REPORT)
    assert first == second
    [info] = emulator.locks()
    assert (info.object_uri, info.user, info.handle) == (REPORT, "DEVELOPER", first)
    assert info.context_id == emulator.contexts()[0]["id"]


async def test_second_lock_in_the_same_session_is_refused(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client, stateful=True)
    await lock(adt_client, token, REPORT)
    again = await adt_client.post(
        f"{REPORT}?_action=LOCK&accessMode=MODIFY", headers={"x-csrf-token": token, **STATEFUL}
    )
    assert again.status_code == 403
    assert exc_info(again)["T100KEY-V1"] == "DEVELOPER"


async def test_lock_held_by_another_user_names_the_holder(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    emulator.lock_as("COLLEAGUE", GREETER)
    token = await fetch_token(adt_client, stateful=True)
    response = await adt_client.post(
        f"{GREETER}?_action=LOCK&accessMode=MODIFY", headers={"x-csrf-token": token, **STATEFUL}
    )
    assert response.status_code == 403
    info = exc_info(response)
    assert info["type"] == "ExceptionResourceNoAccess"
    assert info["message"] == "User COLLEAGUE is currently editing ZCL_DEMO_GREETER"
    assert (info["T100KEY-ID"], info["T100KEY-NO"]) == ("EU", "510")
    assert (info["T100KEY-V1"], info["T100KEY-V2"]) == ("COLLEAGUE", "ZCL_DEMO_GREETER")
    assert "EU510" in info["LONGTEXT"]
    emulator.unlock_as("COLLEAGUE", GREETER)
    assert await lock(adt_client, token, GREETER)


async def test_unlock_always_answers_200_empty(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client, stateful=True)
    for uri in (REPORT, GREETER, "/sap/bc/adt/oo/classes/zcl_nope"):
        response = await unlock(adt_client, token, uri, "BOGUS")
        assert (response.status_code, response.content) == (200, b"")


async def test_stateless_lock_is_released_at_once(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client)
    response = await adt_client.post(
        f"{REPORT}?_action=LOCK&accessMode=MODIFY", headers={"x-csrf-token": token}
    )
    assert response.status_code == 200
    assert emulator.locks() == []


async def test_transportable_object_lock_names_a_request(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client, stateful=True)
    response = await adt_client.post(
        f"{TR_REPORT}?_action=LOCK&accessMode=MODIFY",
        headers={"x-csrf-token": token, "Accept": LOCK_ACCEPT_RESULT, **STATEFUL},
    )
    data = parse(response.content).find(".//DATA")
    assert data is not None
    assert re.fullmatch(r"A4HK9\d{5}", data.findtext("CORRNR") or "")
    assert data.findtext("CORRUSER") == "DEVELOPER"
    assert data.findtext("IS_LOCAL") == ""


async def test_delete_consumes_the_lock(emulator: Emulator, adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, REPORT)
    response = await adt_client.delete(
        f"{REPORT}?lockHandle={handle}", headers={"x-csrf-token": token, **STATEFUL}
    )
    assert (response.status_code, response.content) == (200, b"")
    assert "content-type" not in response.headers
    assert emulator.locks() == []
    assert (await adt_client.get(REPORT)).status_code == 404


async def test_python_api_for_other_actors(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    handle = emulator.lock_as("COLLEAGUE", REPORT)
    assert re.fullmatch(r"[0-9A-F]{40}", handle)
    with pytest.raises(EmulatorError):
        emulator.lock_as("DEVELOPER", REPORT)
    with pytest.raises(EmulatorError):
        emulator.write_as("DEVELOPER", f"{REPORT}/source/main", "REPORT x.")
    emulator.write_as("COLLEAGUE", f"{REPORT}/source/main", "REPORT zdemo_report.\nWRITE 1.\n")
    emulator.unlock_as("COLLEAGUE", REPORT)
    metadata = await adt_client.get(REPORT)
    assert 'adtcore:changedBy="COLLEAGUE"' in metadata.text
    assert 'adtcore:version="inactive"' in metadata.text
    assert emulator.source(f"{REPORT}/source/main") == "REPORT zdemo_report.\nWRITE 1."
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, REPORT)
    ok = await put_source(adt_client, token, f"{REPORT}/source/main", handle, "REPORT y.")
    assert ok.status_code == 200
