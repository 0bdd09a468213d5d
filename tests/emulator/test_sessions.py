"""Security sessions, stateful contexts and their cookies (§1.4, §1.5, §1.7, §9)."""

from __future__ import annotations

import asyncio

import httpx

from adt.emulator import Emulator

from .helpers import ADT, GREETER, REPORT, STATEFUL, fetch_token, lock, put_source

DELETION = "sap-contextid=0; expires=Thu, 01-Jan-1970 00:00:01 GMT; path="


def _client(
    emulator: Emulator, user: str = "DEVELOPER", pw: str = "developer"
) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=emulator.app),
        base_url="http://emulator",
        auth=(user, pw),
    )


def _deletions(response: httpx.Response) -> list[str]:
    return [c for c in response.headers.get_list("set-cookie") if c.startswith(DELETION)]


async def test_stateful_request_opens_a_context(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    response = await adt_client.get(
        f"{ADT}/core/discovery", headers={"x-csrf-token": "fetch", **STATEFUL}
    )
    cookies = response.headers.get_list("set-cookie")
    context_cookies = [c for c in cookies if c.startswith("sap-contextid=SID")]
    assert {c.rsplit("path=", 1)[1] for c in context_cookies} == {
        "/sap/",
        "/sap/bc/",
        "/sap/bc/adt/",
    }
    assert len(emulator.contexts()) == 1
    again = await adt_client.get(f"{ADT}/core/discovery", headers=STATEFUL)
    assert not [c for c in again.headers.get_list("set-cookie") if c.startswith("sap-contextid")]
    assert len(emulator.contexts()) == 1


async def test_stateless_hop_ends_the_context_and_its_locks(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, REPORT)
    hop = await adt_client.get(
        f"{ADT}/repository/informationsystem/search?operation=quickSearch&query=Z*&maxResults=5"
    )
    assert hop.status_code == 200
    assert len(_deletions(hop)) == 3
    assert emulator.locks() == []
    assert emulator.contexts() == []
    put = await put_source(adt_client, token, f"{REPORT}/source/main", handle, "REPORT x.")
    assert put.status_code == 423


async def test_empty_or_other_session_type_is_not_stateful(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    await lock(adt_client, token, REPORT)
    await adt_client.get(
        f"{ADT}/core/discovery", headers={"X-sap-adt-sessiontype": "stateful_enqueue"}
    )
    assert emulator.locks() == []


async def test_dead_context_answers_session_timed_out(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    await lock(adt_client, token, REPORT)
    emulator.expire_contexts()
    assert emulator.locks() == []
    response = await adt_client.get(REPORT, headers=STATEFUL)
    assert response.status_code == 400
    assert response.headers["x-sap-icm-err-id"] == "ICMENOSESSION"
    assert response.headers["sap-err-id"] == "ICMENOSESSION"
    assert "Session timed out" in response.text
    assert len(_deletions(response)) == 3
    # the client took the deletion cookies: the next request works again
    retry = await adt_client.get(REPORT, headers=STATEFUL)
    assert retry.status_code == 200


async def test_a_stale_context_cookie_kills_even_plain_reads(emulator: Emulator) -> None:
    async with _client(emulator) as client:
        await client.get(f"{ADT}/core/discovery", headers=STATEFUL)
        context_id = emulator.contexts()[0]["id"]
        emulator.expire_contexts()
        client.cookies.clear()
        await client.get(f"{ADT}/core/discovery")
        response = await client.get(REPORT, headers={"Cookie": f"sap-contextid={context_id}"})
    assert response.status_code == 400


async def test_idle_timeout_is_configurable() -> None:
    emulator = Emulator(idle_timeout=0.2)
    async with _client(emulator) as client:
        token = await fetch_token(client, stateful=True)
        await lock(client, token, REPORT)
        assert len(emulator.locks()) == 1 and len(emulator.contexts()) == 1
        await asyncio.sleep(0.3)
        assert emulator.locks() == [] and emulator.contexts() == [], "gone without a request"
        response = await client.get(REPORT, headers=STATEFUL)
    assert response.status_code == 400


async def test_sap_client_only_at_login_then_from_cookie(emulator: Emulator) -> None:
    async with _client(emulator) as client:
        login = await client.get(
            f"{ADT}/compatibility/graph?sap-client=001&sap-language=EN",
            headers={"x-csrf-token": "fetch", "Accept": "*/*"},
        )
        assert "sap-usercontext=sap-language=EN&sap-client=001; path=/" in login.headers.get_list(
            "set-cookie"
        )
        later = await client.get(GREETER, headers={"Accept": "*/*"})
    assert later.status_code == 200


async def test_the_client_comes_from_the_usercontext_cookie_when_not_in_the_url() -> None:
    emulator = Emulator(client="100")
    for cookie, status in (("sap-client=999", 401), ("sap-language=EN&sap-client=100", 200)):
        async with _client(emulator) as client:
            client.cookies.set("sap-usercontext", cookie)
            response = await client.get(GREETER, headers={"Accept": "*/*"})
        assert response.status_code == status, cookie
    async with _client(emulator) as client:  # neither URL nor cookie: the default client
        assert (await client.get(GREETER, headers={"Accept": "*/*"})).status_code == 200


async def test_the_client_may_come_in_a_header() -> None:
    emulator = Emulator(client="100")
    async with _client(emulator) as client:
        wrong = await client.get(GREETER, headers={"Accept": "*/*", "sap-client": "999"})
        right = await client.get(GREETER, headers={"Accept": "*/*", "sap-client": "100"})
    assert (wrong.status_code, right.status_code) == (401, 200)


async def test_sap_client_on_every_request_like_sapcli(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(f"{GREETER}?sap-client=001", headers={"Accept": "*/*"})
    assert response.status_code == 200


async def test_unknown_client_cannot_log_on(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(f"{ADT}/core/discovery?sap-client=999")
    assert response.status_code == 401


async def test_several_users_have_separate_sessions_and_locks() -> None:
    emulator = Emulator(users={"DEVELOPER": "developer", "COLLEAGUE": "colleague"})
    async with _client(emulator) as dev, _client(emulator, "COLLEAGUE", "colleague") as col:
        dev_token = await fetch_token(dev, stateful=True)
        col_token = await fetch_token(col, stateful=True)
        await lock(dev, dev_token, REPORT)
        refused = await col.post(
            f"{REPORT}?_action=LOCK&accessMode=MODIFY",
            headers={"x-csrf-token": col_token, **STATEFUL},
        )
    assert refused.status_code == 403
    assert {s["user"] for s in emulator.sessions()} == {"DEVELOPER", "COLLEAGUE"}


async def test_logoff_ends_session_and_locks(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    await lock(adt_client, token, REPORT)
    response = await adt_client.get("/sap/public/bc/icf/logoff")
    assert response.status_code == 200
    assert emulator.locks() == []
    assert emulator.sessions() == []


async def test_cookies_come_with_error_responses(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(f"{ADT}/oo/classes/zcl_nope", headers=STATEFUL)
    assert response.status_code == 404
    cookies = response.headers.get_list("set-cookie")
    assert any(c.startswith("SAP_SESSIONID_A4H_001=") for c in cookies)
    assert any(c.startswith("sap-contextid=SID") for c in cookies)


def _echoing_cookies(client: httpx.AsyncClient, context_value: str) -> dict[str, str]:
    """The Cookie header of a client that keeps a deletion cookie's value (abap-adt-api)."""
    jar = client.cookies.jar
    session = "; ".join(f"{c.name}={c.value}" for c in jar if c.name != "sap-contextid")
    return {"Cookie": f"{session}; sap-contextid={context_value}"}


async def test_the_echoed_deletion_value_zero_means_no_context(emulator: Emulator) -> None:
    async with _client(emulator) as client:
        token = await fetch_token(client, stateful=True)
        await lock(client, token, REPORT)
        hop = await client.get(f"{ADT}/compatibility/graph")  # abap-adt-api's dropSession()
        assert len(_deletions(hop)) == 3
        for headers in ({}, STATEFUL):
            response = await client.get(
                f"{REPORT}/source/main", headers={**_echoing_cookies(client, "0"), **headers}
            )
            assert response.status_code == 200, response.text
            assert "x-sap-icm-err-id" not in response.headers
        search = await client.get(
            f"{ADT}/repository/informationsystem/search?operation=quickSearch&query=Z*",
            headers=_echoing_cookies(client, "0"),
        )
    assert search.status_code == 200
    assert len(emulator.contexts()) == 1, "the stateful request with 0 opened a new context"


async def test_a_real_dead_id_is_still_refused_after_the_zero_fix(emulator: Emulator) -> None:
    async with _client(emulator) as client:
        await client.get(f"{ADT}/core/discovery", headers=STATEFUL)
        dead = emulator.contexts()[0]["id"]
        await client.get(f"{ADT}/core/discovery")  # ends it
        response = await client.get(REPORT, headers=_echoing_cookies(client, dead))
    assert response.status_code == 400
    assert response.headers["x-sap-icm-err-id"] == "ICMENOSESSION"
