"""OAuth 2.0 for the SAP BTP ABAP environment, end to end against the emulator's
authorization server: the "browser" is an HTTP client that opens the authorization URL,
submits the login form and follows the redirect to the client's loopback listener."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest
from support.browser import OAuthBrowser as Browser
from support.emulated import GREETER, USERS, no_sleep

from adt import AdtClient, ConnectionProfile
from adt.auth.oauth import OAuthAuthenticator
from adt.emulator import Emulator, LogonPolicy
from adt.errors import AuthenticationError
from adt.logon import OAuthLogon, RefuseBrowserLogon, ServiceKey
from adt.secret import Secret
from adt.systems import load_settings

SOURCE = f"{GREETER}/source/main"
CLIENT_ID = "sb-abap-adt-test!t1"
CLIENT_SECRET = "client-secret-of-the-service-key"
LOGOFF = "/sap/public/bc/icf/logoff"


@pytest.fixture
def btp() -> Iterator[tuple[Emulator, str]]:
    """A system that accepts bearer tokens of its authorization server and no passwords."""
    emulator = Emulator(
        users=USERS,
        logon=LogonPolicy(basic=False, oauth_clients={CLIENT_ID: CLIENT_SECRET}),
    )
    with emulator.serve_in_thread() as url:
        yield emulator, url
    assert emulator.locks() == [], "no lock is left"


def _key(url: str, secret: str = CLIENT_SECRET) -> ServiceKey:
    return ServiceKey.from_json(
        {"url": url, "uaa": {"url": url, "clientid": CLIENT_ID, "clientsecret": secret}}, "test"
    )


def _client(
    url: str,
    browser: Callable[[str], object],
    *,
    clock: Callable[[], float] | None = None,
    secret: str = CLIENT_SECRET,
) -> AdtClient:
    profile = ConnectionProfile(
        base_url=url,
        user="DEVELOPER",
        password=Secret(""),
        retry_delays=(),
        logon=OAuthLogon(_key(url, secret), open_browser=browser, login_timeout=60),
    )
    options = {"clock": clock} if clock else {}
    authenticator = OAuthAuthenticator(profile, **options)  # type: ignore[arg-type]
    return AdtClient(profile, sleep=no_sleep, authenticator=authenticator)


def _adt(emulator: Emulator) -> list[tuple[str, int, str | None]]:
    return [(e.method, e.status, e.context_id) for e in emulator.request_log if e.path != LOGOFF]


async def test_the_browser_logon_then_a_bearer_token_on_every_request(
    btp: tuple[Emulator, str], caplog: pytest.LogCaptureFixture
) -> None:
    emulator, url = btp
    caplog.set_level(logging.DEBUG)
    browser = Browser()
    async with _client(url, browser) as adt:
        text = (await adt.read_source(SOURCE)).text
        async with adt.locked(GREETER) as lock:
            await adt.write_source(SOURCE, text + "\n* via OAuth", lock_handle=lock.handle)
    assert emulator.source(SOURCE) == text + "\n* via OAuth"
    assert len(browser.opened) == 1
    redirect = dict(parse_qsl(urlsplit(browser.opened[0]).query))["redirect_uri"]
    assert redirect.startswith("http://127.0.0.1:") and redirect.endswith("/callback")
    assert browser.pages[-1].status_code == 200 and "logged on" in browser.pages[-1].text
    assert {e.user for e in emulator.request_log if e.path != LOGOFF} == {"DEVELOPER"}
    assert all(status < 400 for _, status, _ in _adt(emulator))
    assert emulator.oauth is not None and emulator.oauth.token_requests == 1
    secrets = [CLIENT_SECRET, *emulator.oauth.access, *emulator.oauth.refresh]
    ours = "\n".join(r.getMessage() for r in caplog.records if r.threadName == "MainThread")
    assert "Bearer" not in ours and "/oauth/token" in ours, "the token request was logged"
    assert not [s for s in secrets if s in ours], "no secret in the log"


async def test_the_token_is_refreshed_before_it_expires(btp: tuple[Emulator, str]) -> None:
    emulator, url = btp
    now = [1000.0]
    async with _client(url, Browser(), clock=lambda: now[0]) as adt:
        await adt.read_source(SOURCE)
        assert emulator.oauth is not None
        now[0] += emulator.oauth.access_lifetime - 30  # inside the refresh margin
        await adt.read_source(SOURCE)
        assert emulator.oauth.token_requests == 2, "one code exchange, one refresh"
    assert [status for _, status, _ in _adt(emulator)] == [200, 200], "no request refused"


async def test_a_token_expiring_inside_the_lock_window_is_refreshed_in_the_same_context(
    btp: tuple[Emulator, str],
) -> None:
    emulator, url = btp
    browser = Browser()
    async with _client(url, browser) as adt:
        text = (await adt.read_source(SOURCE)).text
        async with adt.locked(GREETER) as lock:
            emulator.expire_access_tokens()
            await adt.write_source(SOURCE, text + "\n* once", lock_handle=lock.handle)
    assert emulator.source(SOURCE) == text + "\n* once"
    log = _adt(emulator)
    puts = [entry for entry in log if entry[0] == "PUT"]
    assert [status for _, status, _ in puts] == [401, 200], "refused at logon, then written once"
    lock_context = next(context for method, _, context in log if method == "POST")
    assert puts[-1][2] == lock_context, "the write ran in the context that holds the lock"
    assert len(browser.opened) == 1, "refreshed, no new logon"
    assert emulator.oauth is not None and emulator.oauth.token_requests == 2


@pytest.mark.parametrize("expire", [False, True], ids=["revoked", "expired"])
async def test_a_refused_refresh_token_logs_on_in_the_browser_again_keeping_the_lock(
    btp: tuple[Emulator, str], expire: bool
) -> None:
    emulator, url = btp
    browser = Browser()
    async with _client(url, browser) as adt:
        text = (await adt.read_source(SOURCE)).text
        async with adt.locked(GREETER) as lock:
            emulator.expire_access_tokens()
            emulator.revoke_refresh_tokens(expire=expire)
            await adt.write_source(SOURCE, text + "\n* after logon", lock_handle=lock.handle)
    assert len(browser.opened) == 2, "the user logged on again, in the browser"
    assert emulator.source(SOURCE) == text + "\n* after logon"
    puts = [entry for entry in _adt(emulator) if entry[0] == "PUT"]
    assert [status for _, status, _ in puts] == [401, 200]


async def test_a_cancelled_logon_is_an_authentication_error(btp: tuple[Emulator, str]) -> None:
    emulator, url = btp
    async with _client(url, Browser(decision="deny")) as adt:
        with pytest.raises(AuthenticationError, match="was refused: access_denied"):
            await adt.read_source(SOURCE)
    assert emulator.request_log == [], "nothing reached the system without a token"


async def test_a_forged_state_on_the_loopback_is_refused(btp: tuple[Emulator, str]) -> None:
    emulator, url = btp
    browser = Browser(forge_first=True)
    async with _client(url, browser) as adt:
        await adt.read_source(SOURCE)
    forged, genuine = browser.pages
    assert forged.status_code == 400 and "not the one abap-adt is waiting for" in forged.text
    assert genuine.status_code == 200
    assert emulator.oauth is not None and emulator.oauth.token_requests == 1, (
        "the forged code was never exchanged"
    )


async def test_a_used_state_is_refused(btp: tuple[Emulator, str]) -> None:
    _, url = btp
    browser = Browser()
    async with _client(url, browser) as adt:
        await adt.read_source(SOURCE)
    callback = browser.pages[-1].url
    async with httpx.AsyncClient() as web:
        with pytest.raises(httpx.ConnectError):
            await web.get(str(callback))  # the listener is gone once the logon is done


async def test_a_wrong_client_secret_names_the_client_not_the_secret(
    btp: tuple[Emulator, str],
) -> None:
    _, url = btp
    async with _client(url, Browser(), secret="not-the-secret") as adt:
        with pytest.raises(AuthenticationError) as caught:
            await adt.read_source(SOURCE)
    assert CLIENT_ID in str(caught.value) and "clientsecret" in str(caught.value)
    assert "not-the-secret" not in str(caught.value)


async def test_a_service_key_configures_the_system(
    btp: tuple[Emulator, str], tmp_path: Path
) -> None:
    _, url = btp
    key_file = tmp_path / "service-key.json"
    key_file.write_text(
        json.dumps(
            {"url": url, "uaa": {"url": url, "clientid": CLIENT_ID, "clientsecret": CLIENT_SECRET}}
        )
    )
    config = tmp_path / "systems.toml"
    config.write_text(
        f'[systems.BTP]\nuser = "DEVELOPER"\nlogon = "oauth"\nservice_key = "{key_file}"\n'
    )
    profile = load_settings(env={}, config_file=config).systems.get("BTP")
    assert profile.base_url == url and isinstance(profile.logon, OAuthLogon)
    assert CLIENT_SECRET not in repr(profile)


def test_a_service_key_without_a_client_secret_says_which_field(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"lacks uaa\.clientsecret"):
        ServiceKey.from_json(
            {"url": "https://x", "uaa": {"url": "https://u", "clientid": "c"}}, "key.json"
        )


async def test_a_face_that_may_not_open_a_browser_refuses_the_logon_at_once(
    btp: tuple[Emulator, str],
) -> None:
    emulator, url = btp
    reason = "the bridge serves others over HTTP: log on in your editor first"
    async with _client(url, RefuseBrowserLogon(reason)) as adt:
        with pytest.raises(AuthenticationError, match="log on in your editor first"):
            await adt.read_source(SOURCE)
    assert emulator.request_log == [] and emulator.oauth is not None
    assert emulator.oauth.token_requests == 0
