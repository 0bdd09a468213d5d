"""Single sign-on through the browser, end to end: the "browser" (an HTTP client following
redirects) opens the system's reentrance service, is sent to the identity provider's logon
form, logs on, and is redirected back and on to the client's loopback with a ticket."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from urllib.parse import parse_qsl, urlsplit

import httpx
import pytest
from support.browser import SsoBrowser as Browser
from support.emulated import GREETER, USERS, no_sleep

from adt import AdtClient, ConnectionProfile
from adt.emulator import Emulator, LogonPolicy
from adt.errors import AuthenticationError
from adt.logon import BrowserLogon, Remember
from adt.secret import Secret
from adt.systems import load_settings

SOURCE = f"{GREETER}/source/main"
LOGOFF = "/sap/public/bc/icf/logoff"


@pytest.fixture
def sso() -> Iterator[tuple[Emulator, str]]:
    emulator = Emulator(users=USERS, logon=LogonPolicy(basic=False, browser_sso=True))
    with emulator.serve_in_thread() as url:
        yield emulator, url
    assert emulator.locks() == [], "no lock is left"


def _client(url: str, browser: Browser) -> AdtClient:
    profile = ConnectionProfile(
        base_url=url,
        user="DEVELOPER",
        password=Secret(""),
        retry_delays=(),
        logon=BrowserLogon(open_browser=browser, login_timeout=60),
    )
    return AdtClient(profile, sleep=no_sleep)


def _adt(emulator: Emulator) -> list[tuple[str, int, str | None]]:
    return [(e.method, e.status, e.context_id) for e in emulator.request_log if e.path != LOGOFF]


async def test_a_browser_logon_gives_a_ticket_that_logs_both_sessions_on(
    sso: tuple[Emulator, str], caplog: pytest.LogCaptureFixture
) -> None:
    emulator, url = sso
    caplog.set_level(logging.DEBUG)
    browser = Browser()
    async with _client(url, browser) as adt:
        text = (await adt.read_source(SOURCE)).text
        async with adt.locked(GREETER) as lock:
            await adt.write_source(SOURCE, text + "\n* via SSO", lock_handle=lock.handle)
    assert emulator.source(SOURCE) == text + "\n* via SSO"
    assert len(browser.opened) == 1 and browser.pages[-1].status_code == 200
    redirect = dict(parse_qsl(urlsplit(browser.opened[0]).query))["redirect-url"]
    assert redirect.startswith("http://127.0.0.1:") and "/callback/" in redirect, "state in path"
    assert "?" not in redirect, "the system appends the ticket to a URL without a query"
    assert {e.user for e in emulator.request_log if e.path != LOGOFF} == {"DEVELOPER"}
    assert emulator.sso is not None
    # the test's browser (its own threads) logs the redirect; our client logs no ticket
    ours = "\n".join(r.getMessage() for r in caplog.records if r.threadName == "MainThread")
    assert not [t for t in emulator.sso.tickets if t in ours], "no ticket in the log"


async def test_a_ticket_expiring_in_the_lock_window_is_renewed_in_the_same_context(
    sso: tuple[Emulator, str],
) -> None:
    emulator, url = sso
    browser = Browser()
    async with _client(url, browser) as adt:
        text = (await adt.read_source(SOURCE)).text
        async with adt.locked(GREETER) as lock:
            emulator.expire_logon_tickets()
            await adt.write_source(SOURCE, text + "\n* once", lock_handle=lock.handle)
    assert emulator.source(SOURCE) == text + "\n* once"
    log = _adt(emulator)
    puts = [entry for entry in log if entry[0] == "PUT"]
    assert [status for _, status, _ in puts] == [401, 200], "refused at logon, written once"
    lock_context = next(context for method, _, context in log if method == "POST")
    assert puts[-1][2] == lock_context, "the write ran in the context that holds the lock"
    assert len(browser.opened) == 2, "the user logged on again in the browser"


async def test_a_failed_logon_at_the_identity_provider_times_out_with_a_clear_error(
    sso: tuple[Emulator, str],
) -> None:
    emulator, url = sso
    browser = Browser(password="wrong")
    profile = ConnectionProfile(
        base_url=url, user="DEVELOPER", password=Secret(""), retry_delays=(),
        logon=BrowserLogon(open_browser=browser, login_timeout=0.5),
    )  # fmt: skip
    async with AdtClient(profile, sleep=no_sleep) as adt:
        with pytest.raises(AuthenticationError, match="did not finish within"):
            await adt.read_source(SOURCE)
    assert browser.pages[-1].status_code == 401, "the form said the password was wrong"
    assert emulator.request_log == []


async def test_the_reentrance_service_redirects_only_to_the_loopback(
    sso: tuple[Emulator, str],
) -> None:
    _, url = sso
    async with httpx.AsyncClient() as web:
        answer = await web.get(
            f"{url}/sap/bc/sec/reentrance",
            params={"scenario": "FTO1", "redirect-url": "https://evil.example/steal"},
        )
    assert answer.status_code == 400


def test_systems_toml_chooses_the_browser_logon(tmp_path: object) -> None:
    from pathlib import Path

    config = Path(str(tmp_path)) / "systems.toml"
    config.write_text('[systems.SSO]\nurl = "https://s"\nuser = "U"\nlogon = "browser"\n')
    profile = load_settings(env={}, config_file=config).systems.get("SSO")
    assert profile.logon == BrowserLogon(remember=Remember(keyring=True))


async def test_the_ticket_counts_in_the_header_sap_tools_send_not_as_a_cookie(
    sso: tuple[Emulator, str],
) -> None:
    """As SAP's own tools send it (docs/protocol/logon.md): the ``MYSAPSSO2`` header."""
    emulator, url = sso
    async with _client(url, Browser()) as adt:
        await adt.read_source(SOURCE)
    assert emulator.sso is not None
    (ticket,) = emulator.sso.tickets
    async with httpx.AsyncClient(base_url=url) as web:
        as_header = await web.get(SOURCE, headers={"MYSAPSSO2": ticket})
        as_cookie = await web.get(SOURCE, headers={"Cookie": f"MYSAPSSO2={ticket}"})
    assert (as_header.status_code, as_cookie.status_code) == (200, 401)


async def test_a_forged_state_in_the_callback_path_is_refused() -> None:
    from adt.auth.loopback import LoopbackReceiver

    async with LoopbackReceiver() as receiver, httpx.AsyncClient() as web:
        forged = await web.get(f"{receiver.redirect_uri}/forged?reentrance-ticket=stolen")
        right = await web.get(f"{receiver.redirect_uri_with_state}?reentrance-ticket=mine")
        answer = await receiver.answer()
    assert (forged.status_code, right.status_code) == (400, 200)
    assert answer == {"reentrance-ticket": "mine"}


async def test_the_browser_logs_on_at_the_ui_host_the_system_names() -> None:
    """As on SAP BTP: the browser's host (here ``localhost``) is not ADT's (``127.0.0.1``);
    ``/sap/public/bc/icf/virtualhost`` names it, and only it serves the reentrance service."""
    emulator = Emulator(
        users=USERS, logon=LogonPolicy(basic=False, browser_sso=True, ui_host="localhost")
    )
    browser = Browser()
    with emulator.serve_in_thread() as url:
        async with _client(url, browser) as adt:
            await adt.read_source(SOURCE)
        async with httpx.AsyncClient() as web:
            on_adt_host = await web.get(f"{url}/sap/bc/sec/reentrance")
    port = urlsplit(url).port
    assert browser.opened[0].startswith(f"http://localhost:{port}/sap/bc/sec/reentrance?")
    assert on_adt_host.status_code == 404
    assert {e.user for e in emulator.request_log if e.path != LOGOFF} == {"DEVELOPER"}
    assert emulator.locks() == []
