"""Browser logons in the MCP bridge: over stdio the local user is shown the address on
stderr and their browser opens (here an HTTP client following the emulator's single
sign-on); over HTTP the bridge serves others and refuses to start one, saying how to log on
instead — before anything reaches the system."""

from __future__ import annotations

import argparse
import io
import webbrowser
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client
from support.browser import SsoBrowser
from support.emulated import REPORT, USERS
from support.mcp_calls import call, error

from adt.agent import ToolOutcome, WritePolicy
from adt.app.cli import main
from adt.auth import vault
from adt.emulator import Emulator, LogonPolicy
from adt.logon import BrowserLogon, RefuseBrowserLogon
from adt.profile import ConnectionProfile
from adt.secret import Secret
from adt.systems import Connections, Settings, SystemsConfig, load_settings, token_digest
from mcp_bridge import server
from mcp_bridge.logons import StdioLogons, http_refusal
from mcp_bridge.server import make_bridge
from mcp_bridge.team import member_router_factory


@pytest.fixture
def sso() -> Iterator[tuple[Emulator, str]]:
    emulator = Emulator(users=USERS, logon=LogonPolicy(basic=False, browser_sso=True))
    with emulator.serve_in_thread() as url:
        yield emulator, url
    assert emulator.locks() == [], "no lock is left"


def _settings(url: str) -> Settings:
    profile = ConnectionProfile(
        base_url=url, user="DEVELOPER", password=Secret(""), retry_delays=(), name="SSO",
        logon=BrowserLogon(login_timeout=30),
    )  # fmt: skip
    return Settings(systems=SystemsConfig(profiles={"SSO": profile}))


async def test_over_http_the_bridge_refuses_a_browser_logon_and_says_what_to_do(
    sso: tuple[Emulator, str],
) -> None:
    emulator, url = sso
    bridge = make_bridge(_settings(url), passthrough=False, open_browser=http_refusal())
    async with Client(bridge) as client:
        refused = await error(client, "getObjectSourceV2", objectUrl=REPORT)
    assert refused["name"] == "AUTH_FAILED"
    assert refused["error"].startswith("SSO logs on in the browser (OAuth or single sign-on)")
    assert "first, on the bridge's machine: abap-adt logon SSO (remembered" in refused["error"]
    assert "run the bridge on your own machine over stdio (abap-adt mcp)" in refused["error"]
    assert emulator.request_log == [], "nothing reached the system"


async def test_over_stdio_the_local_user_logs_on_in_their_browser(
    sso: tuple[Emulator, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, url = sso
    browser = SsoBrowser()
    monkeypatch.setattr(webbrowser, "open", lambda address: browser(address) or True)
    said = io.StringIO()
    bridge = make_bridge(_settings(url), passthrough=False, open_browser=StdioLogons(said))
    async with Client(bridge) as client:
        read = await call(client, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=2)
        again = await call(client, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=2)
    assert read["ok"] and again["ok"]
    (address,) = browser.opened  # one logon for both calls
    assert said.getvalue().splitlines() == [
        f"abap-adt mcp: log on to SSO in your browser: {address}",
        "abap-adt mcp: logged on to SSO",
    ]


def test_the_command_refuses_browser_logons_over_http_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chosen: dict[str, Any] = {}

    def fake_bridge(settings: Settings, **options: Any) -> object:
        chosen[(options["team"] is None and "prompt") or "?"] = options["open_browser"]
        return object()

    monkeypatch.setattr(server, "make_bridge", fake_bridge)
    monkeypatch.setattr(server.logs, "configure", lambda *args: None)
    monkeypatch.setattr(server, "load_settings", Settings)
    monkeypatch.setattr("mcp_bridge.http.serve_http", lambda *args, **kwargs: 0)
    assert server.run_from_args(argparse.Namespace(transport="http")) == 0
    assert isinstance(chosen["prompt"], RefuseBrowserLogon)
    monkeypatch.setattr(server.anyio, "run", lambda *args: None)
    monkeypatch.setattr(server.sys.stdout, "reconfigure", lambda **kwargs: None, raising=False)
    assert server.run_from_args(argparse.Namespace(transport="stdio")) == 0
    assert isinstance(chosen["prompt"], StdioLogons)


def test_log_on_first_then_the_http_bridge_uses_the_remembered_ticket(
    sso: tuple[Emulator, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """What the refusal tells the operator to do: ``abap-adt logon SSO`` on the bridge's
    machine (here with a token file: no OS keyring runs on this machine), then the bridge
    over HTTP reads without opening any browser."""
    _, url = sso
    tokens = tmp_path / "tokens.json"
    config = tmp_path / "systems.toml"
    config.write_text(
        f'[systems.SSO]\nurl = "{url}"\nuser = "DEVELOPER"\nlogon = "browser"\n'
        f'remember_logon = false\ntoken_file = "{tokens}"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("ABAP_ADT_CONFIG", str(config))
    assert main(["logon", "SSO"]) == 2, "memory only: nothing to remember it in"
    assert "would not be remembered" in capsys.readouterr().err

    config.write_text(config.read_text().replace("remember_logon = false", ""))
    monkeypatch.setattr(vault, "os_keyring", lambda: None)
    browser = SsoBrowser()
    monkeypatch.setattr(webbrowser, "open", lambda address: browser(address) or True)
    assert main(["logon", "SSO"]) == 0
    said = capsys.readouterr().err.splitlines()
    assert said == [
        f"abap-adt logon: log on to SSO in your browser: {browser.opened[0]}",
        "abap-adt logon: logged on to SSO",
    ]
    assert oct(tokens.stat().st_mode & 0o777) == "0o600"

    async def read_over_http() -> dict[str, Any]:
        bridge = make_bridge(load_settings(), passthrough=False, open_browser=http_refusal())
        async with Client(bridge) as client:
            return await call(client, "getObjectSourceV2", objectUrl=REPORT, endLine=1)

    assert anyio.run(read_over_http)["ok"]
    assert len(browser.opened) == 1, "the bridge opened no browser"


def test_a_team_member_logs_on_first_then_works_as_themselves(
    sso: tuple[Emulator, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A member with a single sign-on logon of their own: refused (with what to run) until
    ``abap-adt logon SSO --member bob`` ran on the bridge's machine; then their calls run as
    their own SAP user, with no browser opened by the bridge."""
    emulator, url = sso
    tokens = tmp_path / "tokens.json"
    config = tmp_path / "systems.toml"
    config.write_text(
        f'[systems.SSO]\nurl = "{url}"\nuser = "DEVELOPER"\nlogon = "browser"\n'
        f'[team.bob]\ntokenSha256 = "{token_digest("b" * 40)}"\nuser = "COLLEAGUE"\n'
        f'logon = "browser"\ntoken_file = "{tokens}"\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("ABAP_ADT_CONFIG", str(config))
    monkeypatch.setattr(vault, "os_keyring", lambda: None)
    settings = load_settings()
    (bob,) = settings.team.members
    member_router = member_router_factory(Connections(settings.systems), WritePolicy(), 80_000)
    read = {"objectUrl": REPORT, "endLine": 1}

    async def read_as_bob() -> ToolOutcome:
        router = member_router(bob)
        try:
            return await router.call("getObjectSourceV2", read)
        finally:
            await router.close()
            await router.local.connections.close()

    refused = anyio.run(read_as_bob)
    assert not refused.ok and refused.payload["name"] == "AUTH_FAILED"
    assert "abap-adt logon SSO --member bob" in refused.payload["error"]

    browser = SsoBrowser(user="COLLEAGUE")
    monkeypatch.setattr(webbrowser, "open", lambda address: browser(address) or True)
    assert main(["logon", "SSO", "--member", "bob"]) == 0
    assert capsys.readouterr().err.endswith("abap-adt logon: logged on to SSO\n")
    assert anyio.run(read_as_bob).ok
    assert len(browser.opened) == 1, "the bridge opened no browser"
    adt = [e for e in emulator.request_log if e.path.startswith("/sap/bc/adt")]
    assert {e.user for e in adt} == {"COLLEAGUE"}, "bob's calls ran as bob's SAP user"
