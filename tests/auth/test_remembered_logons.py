"""Browser logons remembered between runs (adt.auth.vault): the OAuth refresh token and the
logon ticket in the OS keyring or a 0600 file the user named, so a new start needs no
browser; a remembered secret the system refuses is forgotten and the browser logon runs
again. No real OS keyring runs on this machine (no D-Bus secret service), so the keyring is a
stand-in with the three calls of the ``keyring`` package that are used."""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.browser import OAuthBrowser, SsoBrowser
from support.emulated import GREETER, USERS, no_sleep

from adt import AdtClient, ConnectionProfile
from adt.auth import vault
from adt.auth.vault import FileVault, MemoryOnly, vault_for
from adt.emulator import Emulator, LogonPolicy
from adt.errors import ConfigurationError
from adt.logon import BrowserLogon, OAuthLogon, OpenBrowser, Remember, ServiceKey
from adt.secret import Secret
from adt.systems import load_settings

SOURCE = f"{GREETER}/source/main"
CLIENT_ID = "sb-abap-adt-test!t1"
CLIENT_SECRET = "client-secret-of-the-service-key"


class FakeKeyring:
    """get_password, set_password and delete_password of the ``keyring`` package."""

    def __init__(self, broken: bool = False) -> None:
        self.values: dict[tuple[str, str], str] = {}
        self.broken = broken

    def get_password(self, service: str, user: str) -> str | None:
        if self.broken:
            raise RuntimeError("the secret service is locked")
        return self.values.get((service, user))

    def set_password(self, service: str, user: str, secret: str) -> None:
        if self.broken:
            raise RuntimeError("the secret service is locked")
        self.values[(service, user)] = secret

    def delete_password(self, service: str, user: str) -> None:
        del self.values[(service, user)]


@pytest.fixture
def keyring(monkeypatch: pytest.MonkeyPatch) -> FakeKeyring:
    fake = FakeKeyring()
    monkeypatch.setattr(vault, "os_keyring", lambda: fake)
    return fake


@pytest.fixture
def btp() -> Iterator[tuple[Emulator, str]]:
    emulator = Emulator(
        users=USERS, logon=LogonPolicy(basic=False, oauth_clients={CLIENT_ID: CLIENT_SECRET})
    )
    with emulator.serve_in_thread() as url:
        yield emulator, url
    assert emulator.locks() == []


@pytest.fixture
def sso() -> Iterator[tuple[Emulator, str]]:
    emulator = Emulator(users=USERS, logon=LogonPolicy(basic=False, browser_sso=True))
    with emulator.serve_in_thread() as url:
        yield emulator, url
    assert emulator.locks() == []


def _oauth(url: str, browser: OpenBrowser, remember: Remember) -> AdtClient:
    key = ServiceKey.from_json(
        {"url": url, "uaa": {"url": url, "clientid": CLIENT_ID, "clientsecret": CLIENT_SECRET}},
        "test",
    )
    logon = OAuthLogon(key, open_browser=browser, login_timeout=30, remember=remember)
    profile = ConnectionProfile(
        base_url=url, user="DEVELOPER", password=Secret(""), retry_delays=(), name="BTP",
        logon=logon,
    )  # fmt: skip
    return AdtClient(profile, sleep=no_sleep)


def _sso(url: str, browser: OpenBrowser, remember: Remember) -> AdtClient:
    logon = BrowserLogon(open_browser=browser, login_timeout=30, remember=remember)
    profile = ConnectionProfile(
        base_url=url, user="DEVELOPER", password=Secret(""), retry_delays=(), name="SSO",
        logon=logon,
    )  # fmt: skip
    return AdtClient(profile, sleep=no_sleep)


async def test_the_refresh_token_in_the_keyring_spares_the_next_start_the_browser_until_revoked(
    btp: tuple[Emulator, str], keyring: FakeKeyring, caplog: pytest.LogCaptureFixture
) -> None:
    emulator, url = btp
    caplog.set_level(logging.DEBUG)
    browser = OAuthBrowser()
    async with _oauth(url, browser, Remember(keyring=True)) as first:
        await first.read_source(SOURCE)
    assert len(browser.opened) == 1
    assert emulator.oauth is not None
    ((service, user), stored) = next(iter(keyring.values.items()))
    assert service == "abap-adt" and user == f"BTP:DEVELOPER:oauth:{CLIENT_ID}@{url}"
    assert stored in emulator.oauth.refresh, "the live refresh token is remembered"

    async with _oauth(url, browser, Remember(keyring=True)) as second:  # a new start
        await second.read_source(SOURCE)
    assert len(browser.opened) == 1, "no browser at the second start"
    assert emulator.oauth.token_requests == 2, "one code exchange, then one refresh"
    logged = "\n".join(r.getMessage() for r in caplog.records if r.threadName == "MainThread")
    assert not [s for s in [*emulator.oauth.refresh, stored] if s in logged], "no token logged"

    emulator.revoke_refresh_tokens()
    async with _oauth(url, browser, Remember(keyring=True)) as third:
        await third.read_source(SOURCE)
    assert len(browser.opened) == 2, "the refused token sent the user to the browser"
    (now,) = keyring.values.values()
    assert now != stored and now in emulator.oauth.refresh, "the new token replaced it"


async def test_a_broken_keyring_costs_only_the_remembering(
    btp: tuple[Emulator, str], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _, url = btp
    monkeypatch.setattr(vault, "os_keyring", lambda: FakeKeyring(broken=True))
    browser = OAuthBrowser()
    async with _oauth(url, browser, Remember(keyring=True)) as adt:
        await adt.read_source(SOURCE)
    assert len(browser.opened) == 1
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "could not remember the logon of BTP: RuntimeError" in warnings


async def test_the_ticket_in_a_file_of_its_own_then_renewed_when_it_expired(
    sso: tuple[Emulator, str], tmp_path: Path
) -> None:
    emulator, url = sso
    file = tmp_path / "tokens" / "abap-adt.json"
    browser = SsoBrowser()
    async with _sso(url, browser, Remember(file=file)) as first:
        await first.read_source(SOURCE)
    assert stat.S_IMODE(file.stat().st_mode) == 0o600, "readable only by its owner"
    assert emulator.sso is not None
    (ticket,) = FileVault(file)._read().values()
    assert ticket in emulator.sso.tickets

    async with _sso(url, browser, Remember(file=file)) as second:
        await second.read_source(SOURCE)
    assert len(browser.opened) == 1, "the remembered ticket logged the second start on"

    emulator.expire_logon_tickets()
    async with _sso(url, browser, Remember(file=file)) as third:
        await third.read_source(SOURCE)
    assert len(browser.opened) == 2, "an expired ticket: the browser logon again"
    (renewed,) = FileVault(file)._read().values()
    assert renewed != ticket and renewed in emulator.sso.tickets


def test_a_token_file_others_may_read_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "tokens.json"
    file.write_text("{}", encoding="utf-8")
    os.chmod(file, 0o644)
    with pytest.raises(ConfigurationError, match=r"may be read by others: chmod 600"):
        FileVault(file).load("key")


def test_without_a_keyring_the_file_then_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(vault, "os_keyring", lambda: None)
    assert isinstance(vault_for(Remember(keyring=True, file=Path("t.json"))), FileVault)
    assert isinstance(vault_for(Remember(keyring=True)), MemoryOnly)
    assert isinstance(vault_for(Remember()), MemoryOnly)


def test_systems_toml_says_where_a_logon_is_remembered(tmp_path: Path) -> None:
    config = tmp_path / "systems.toml"
    config.write_text(
        '[systems.A]\nurl = "https://a"\nuser = "U"\nlogon = "browser"\n'
        '[systems.B]\nurl = "https://b"\nuser = "U"\nlogon = "browser"\n'
        'token_file = "~/tokens.json"\n'
        '[systems.C]\nurl = "https://c"\nuser = "U"\nlogon = "browser"\nremember_logon = false\n'
        'token_file = "~/tokens.json"\n'
    )
    systems = load_settings(env={}, config_file=config).systems
    assert systems.get("A").logon.remember == Remember(keyring=True)  # type: ignore[union-attr]
    home = Path("~/tokens.json").expanduser()
    assert systems.get("B").logon.remember == Remember(True, home)  # type: ignore[union-attr]
    assert systems.get("C").logon.remember == Remember()  # type: ignore[union-attr]
    config.write_text('[systems.A]\nurl = "https://a"\nuser = "U"\nlogon = "browser"\n'
                      'remember_logon = "yes"\n')  # fmt: skip
    with pytest.raises(ConfigurationError, match="remember_logon must be true or false"):
        load_settings(env={}, config_file=config)
