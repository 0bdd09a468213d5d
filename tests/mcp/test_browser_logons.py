"""Browser logons in the MCP bridge: over stdio the local user is shown the address on
stderr and their browser opens (here an HTTP client following the emulator's single
sign-on); over HTTP the bridge serves others and refuses to start one, saying how to log on
instead — before anything reaches the system."""

from __future__ import annotations

import argparse
import io
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client
from support.browser import SsoBrowser
from support.emulated import REPORT, USERS
from support.mcp_calls import call, error

from adt.emulator import Emulator, LogonPolicy
from adt.logon import BrowserLogon, RefuseBrowserLogon
from adt.profile import ConnectionProfile
from adt.secret import Secret
from adt.systems import Settings, SystemsConfig
from mcp_bridge import logons, server
from mcp_bridge.logons import StdioLogons, http_refusal
from mcp_bridge.server import make_bridge


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
    assert "run the bridge on your own machine over stdio (abap-adt mcp)" in refused["error"]
    assert emulator.request_log == [], "nothing reached the system"


async def test_over_stdio_the_local_user_logs_on_in_their_browser(
    sso: tuple[Emulator, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, url = sso
    browser = SsoBrowser()
    monkeypatch.setattr(logons.webbrowser, "open", lambda address: browser(address) or True)
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
