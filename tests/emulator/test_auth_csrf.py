"""Basic auth and CSRF (protocol doc §1.3, §1.6, §1.8, §9)."""

from __future__ import annotations

import base64
import re

import httpx

from adt.emulator import Emulator

from .helpers import ADT, GREETER, LOCK_ACCEPT_SAPCLI, STATEFUL, fetch_token, lock

TOKEN_RE = re.compile(r"^[A-Za-z0-9_-]{22}==$")


def _client(emulator: Emulator, auth: tuple[str, str] | None = None) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=emulator.app), base_url="http://emulator", auth=auth
    )


async def test_missing_credentials_get_401_html_with_realm_and_usercontext(
    emulator: Emulator,
) -> None:
    async with _client(emulator) as client:
        response = await client.get(f"{ADT}/discovery")
    assert response.status_code == 401
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert (
        response.headers["www-authenticate"]
        == 'Basic realm="SAP NetWeaver Application Server [A4H/001]"'
    )
    assert "sap-usercontext=sap-client=001; path=/" in response.headers.get_list("set-cookie")
    assert "<html" in response.text


async def test_wrong_password_gets_401_and_is_never_logged(emulator: Emulator) -> None:
    async with _client(emulator, ("DEVELOPER", "s3cret-wrong")) as client:
        response = await client.get(f"{ADT}/core/discovery")
    assert response.status_code == 401
    assert "s3cret-wrong" not in repr(emulator.request_log)
    assert emulator.request_log[-1].user is None


async def test_fetch_on_get_and_head_answers_a_token(adt_client: httpx.AsyncClient) -> None:
    for method, path, value in [
        ("GET", f"{ADT}/core/discovery", "Fetch"),
        ("HEAD", f"{ADT}/core/discovery", "fetch"),
        ("GET", f"{ADT}/compatibility/graph?sap-client=001&sap-language=EN", "fetch"),
        ("GET", f"{ADT}/discovery", "FETCH"),
    ]:
        response = await adt_client.request(method, path, headers={"x-csrf-token": value})
        assert response.status_code == 200, (method, path)
        assert TOKEN_RE.match(response.headers["x-csrf-token"]), response.headers
    cookies = response.headers.get_list("set-cookie")
    assert any(c.startswith("SAP_SESSIONID_A4H_001=") for c in cookies)


async def test_token_is_stable_within_a_session(adt_client: httpx.AsyncClient) -> None:
    assert await fetch_token(adt_client) == await fetch_token(adt_client)


async def test_post_without_token_is_refused_and_nothing_applied(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    await fetch_token(adt_client)
    response = await adt_client.post(
        f"{GREETER}?_action=LOCK&accessMode=MODIFY",
        headers={"Accept": LOCK_ACCEPT_SAPCLI, **STATEFUL},
    )
    assert response.status_code == 403
    assert response.headers["x-csrf-token"] == "Required"
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert response.content == b"CSRF token validation failed"
    assert emulator.locks() == []


async def test_fetch_on_a_post_is_not_a_fetch(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    response = await adt_client.post(
        f"{GREETER}?_action=LOCK&accessMode=MODIFY",
        headers={"x-csrf-token": "fetch", "Accept": LOCK_ACCEPT_SAPCLI, **STATEFUL},
    )
    assert response.status_code == 403
    assert response.headers["x-csrf-token"] == "Required"
    assert emulator.locks() == []


async def test_put_and_delete_need_a_token(adt_client: httpx.AsyncClient) -> None:
    await fetch_token(adt_client)
    put = await adt_client.put(f"{GREETER}/source/main?lockHandle=X", content=b"x")
    delete = await adt_client.delete(f"{GREETER}?lockHandle=X")
    assert (put.status_code, delete.status_code) == (403, 403)
    assert put.headers["x-csrf-token"] == delete.headers["x-csrf-token"] == "Required"


async def test_token_is_tied_to_its_security_session(emulator: Emulator) -> None:
    async with (
        _client(emulator, ("DEVELOPER", "developer")) as first,
        _client(emulator, ("DEVELOPER", "developer")) as second,
    ):
        token = await fetch_token(first)
        await second.get(f"{ADT}/core/discovery")  # a session of its own, no token
        response = await second.post(
            f"{GREETER}?_action=LOCK&accessMode=MODIFY",
            headers={"x-csrf-token": token, **STATEFUL},
        )
    assert response.status_code == 403
    assert response.headers["x-csrf-token"] == "Required"


async def test_expired_tokens_are_refused_then_refetched_without_losing_locks(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    await lock(adt_client, token, GREETER)
    emulator.expire_csrf_tokens()
    refused = await adt_client.post(
        f"{GREETER}?_action=UNLOCK&lockHandle=X", headers={"x-csrf-token": token, **STATEFUL}
    )
    assert refused.status_code == 403
    fresh = await fetch_token(adt_client, stateful=True)
    assert fresh != token
    assert [lk.object_uri for lk in emulator.locks()] == [GREETER]


async def test_session_cookie_authenticates_without_authorization(emulator: Emulator) -> None:
    async with _client(emulator, ("DEVELOPER", "developer")) as client:
        await client.get(f"{ADT}/core/discovery")
        client.auth = None  # type: ignore[assignment]
        response = await client.get(GREETER, headers={"Accept": "*/*"})
    assert response.status_code == 200


async def test_user_name_is_case_insensitive_password_is_not(emulator: Emulator) -> None:
    ok = base64.b64encode(b"developer:developer").decode()
    bad = base64.b64encode(b"DEVELOPER:DEVELOPER").decode()
    async with _client(emulator) as client:
        good = await client.get(f"{ADT}/discovery", headers={"Authorization": f"Basic {ok}"})
        wrong = await client.get(f"{ADT}/discovery", headers={"Authorization": f"Basic {bad}"})
    assert (good.status_code, wrong.status_code) == (200, 401)
