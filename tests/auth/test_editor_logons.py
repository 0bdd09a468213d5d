"""Browser logons shown by the language server (lsp_server.logons) against the emulator's
single sign-on: the editor gets the URL in ``adt/logon``, its "browser" follows the redirects,
and it hears how the logon ended; a cancel from the editor ends the waiting at once. The
language server is a stand-in here (what EditorLogons uses of pygls: the client's
capabilities, notifications, messages); tests/nvim runs the real one in Neovim."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from lsprotocol import types
from support.browser import SsoBrowser
from support.emulated import GREETER, USERS

from adt.emulator import Emulator, LogonPolicy
from adt.errors import AuthenticationError
from adt.logon import BrowserLogon
from adt.profile import ConnectionProfile
from adt.secret import Secret
from adt.systems import Connections
from adt.systems.config import SystemsConfig
from lsp_server.logons import LOGON, EditorLogons

SOURCE = f"{GREETER}/source/main"


class FakeProtocol:
    def __init__(self, on_notify: Callable[[dict[str, Any]], None]) -> None:
        self.sent: list[dict[str, Any]] = []
        self._on_notify = on_notify

    def notify(self, method: str, params: dict[str, Any]) -> None:
        assert method == LOGON
        self.sent.append(params)
        self._on_notify(params)


class FakeServer:
    """What EditorLogons uses of the language server."""

    def __init__(
        self, capabilities: types.ClientCapabilities, on_notify: Callable[[dict[str, Any]], None]
    ) -> None:
        self.client_capabilities = capabilities
        self.protocol = FakeProtocol(on_notify)
        self.messages: list[types.ShowMessageParams] = []
        self.shown_documents: list[types.ShowDocumentParams] = []
        self.browser: Callable[[str], None] | None = None

    def window_show_message(self, params: types.ShowMessageParams) -> None:
        self.messages.append(params)

    async def window_show_document_async(
        self, params: types.ShowDocumentParams
    ) -> types.ShowDocumentResult:
        self.shown_documents.append(params)
        assert self.browser is not None
        threading.Thread(target=self.browser, args=(params.uri,), daemon=True).start()
        return types.ShowDocumentResult(success=True)


SHOWS_LOGONS = types.ClientCapabilities(experimental={"adtLogon": True})


@pytest.fixture
def sso() -> Iterator[tuple[Emulator, str]]:
    emulator = Emulator(users=USERS, logon=LogonPolicy(basic=False, browser_sso=True))
    with emulator.serve_in_thread() as url:
        yield emulator, url
    assert emulator.locks() == [], "no lock is left"


def _connections(url: str, prompt: EditorLogons, timeout: float = 30) -> Connections:
    profile = ConnectionProfile(
        base_url=url, user="DEVELOPER", password=Secret(""), retry_delays=(), name="SSO",
        logon=BrowserLogon(login_timeout=timeout),
    )  # fmt: skip
    return Connections(SystemsConfig(profiles={"SSO": profile}), open_browser=prompt)


async def test_the_editor_shows_the_logon_and_hears_that_it_worked(
    sso: tuple[Emulator, str],
) -> None:
    emulator, url = sso
    browser = SsoBrowser()

    def editor(params: dict[str, Any]) -> None:  # the editor opens the URL it is sent
        if params["state"] == "open":
            threading.Thread(target=browser, args=(params["url"],), daemon=True).start()

    server = FakeServer(SHOWS_LOGONS, editor)
    connections = _connections(url, EditorLogons(server))  # type: ignore[arg-type]
    try:
        client = connections.service("SSO").client
        text = (await client.read_source(SOURCE)).text
        async with client.locked(GREETER) as lock:
            await client.write_source(SOURCE, text + "\n* shown", lock_handle=lock.handle)
    finally:
        await connections.close()
    assert emulator.source(SOURCE) == text + "\n* shown"
    opened, ended = server.protocol.sent
    assert opened["state"] == "open" and opened["system"] == "SSO"
    assert opened["url"] == browser.opened[0] and "/sap/bc/sec/reentrance?" in opened["url"]
    assert ended == {"id": opened["id"], "system": "SSO", "state": "done"}
    assert server.messages == [], "the editor shows the logon itself"


async def test_cancel_in_the_editor_ends_the_logon_with_a_clear_error(
    sso: tuple[Emulator, str],
) -> None:
    emulator, url = sso
    prompt: EditorLogons

    def editor(params: dict[str, Any]) -> None:  # the user presses Cancel at once
        if params["state"] == "open":
            asyncio.get_running_loop().call_soon(prompt.cancel, params["id"])

    server = FakeServer(SHOWS_LOGONS, editor)
    prompt = EditorLogons(server)  # type: ignore[arg-type]
    connections = _connections(url, prompt)
    try:
        with pytest.raises(AuthenticationError, match="logon to SSO in the browser was cancelled"):
            await connections.service("SSO").client.read_source(SOURCE)
    finally:
        await connections.close()
    opened, ended = server.protocol.sent
    assert ended["state"] == "failed" and ended["id"] == opened["id"]
    assert ended["message"] == "logon to SSO in the browser was cancelled"
    assert emulator.request_log == [], "nothing reached ADT"


async def test_an_unknown_or_late_cancel_changes_nothing() -> None:
    server = FakeServer(SHOWS_LOGONS, lambda params: None)
    prompt = EditorLogons(server)  # type: ignore[arg-type]
    prompt.cancel("no-such-logon")
    prompt.ended("SSO", None)  # never shown: nothing to tell the editor
    assert server.protocol.sent == [] and server.messages == []


async def test_a_plain_client_is_asked_to_open_the_url_and_shown_it(
    sso: tuple[Emulator, str],
) -> None:
    _, url = sso
    browser = SsoBrowser()
    capabilities = types.ClientCapabilities(
        window=types.WindowClientCapabilities(
            show_document=types.ShowDocumentClientCapabilities(support=True)
        )
    )
    server = FakeServer(capabilities, lambda params: None)
    server.browser = browser
    connections = _connections(url, EditorLogons(server))  # type: ignore[arg-type]
    try:
        await connections.service("SSO").client.read_source(SOURCE)
    finally:
        await connections.close()
    assert server.protocol.sent == [], "no adt/logon to a client that did not ask for it"
    (shown,) = server.shown_documents
    assert shown.external is True and shown.uri == browser.opened[0]
    (message,) = server.messages
    assert message.type == types.MessageType.Info
    assert message.message == f"Log on to SSO in your browser: {shown.uri}"


async def test_a_failed_logon_shown_by_the_client_itself_is_reported(
    sso: tuple[Emulator, str],
) -> None:
    _, url = sso
    capabilities = types.ClientCapabilities(
        window=types.WindowClientCapabilities(
            show_document=types.ShowDocumentClientCapabilities(support=True)
        )
    )
    server = FakeServer(capabilities, lambda params: None)
    server.browser = SsoBrowser(password="wrong")  # the identity provider refuses
    connections = _connections(url, EditorLogons(server), timeout=0.3)  # type: ignore[arg-type]
    try:
        with pytest.raises(AuthenticationError, match="did not finish within"):
            await connections.service("SSO").client.read_source(SOURCE)
    finally:
        await connections.close()
    failure = server.messages[-1]
    assert failure.type == types.MessageType.Error
    assert failure.message.startswith("Logon to SSO failed: logon to SSO in the browser did not")
