"""A browser logon in a real VS Code (issue 23): the system takes no password, only the
single sign-on ticket its reentrance service hands out. "ABAP: Open Object…" makes the
language server start the logon; the extension shows a cancellable progress notification and
VS Code's ``openExternal`` opens the system's logon page — with code-server, a new page in
the same Chromium context, caught with Playwright's context ``page`` event. A forged answer
on the loopback is refused and the cancelled logon opens nothing; then the user fills the
identity provider's form, the callback completes and the object opens with its text.

This module has its own code-server and emulator (the ``editor`` fixture in conftest.py
reads ``EMULATOR_LOGON``, ``SYSTEM_SETTINGS`` and ``PORTS_BY_DOMAIN``)."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from support.emulated import USERS
from workbench import Editor

from adt.emulator import LogonPolicy

EMULATOR_LOGON = LogonPolicy(basic=False, browser_sso=True)
# never into the keyring of the machine the suite runs on
SYSTEM_SETTINGS = {"logon": "browser", "rememberLogon": False}

REPORT = "/sap/bc/adt/programs/programs/zdemo_report/source/main"
PROGRESS = r"Log on to A4H in your browser"
LOGON_TIMEOUT_MS = 60_000
# the emulator listens on 127.0.0.1, which VS Code in a browser opens through code-server:
# through its domain proxy, which keeps the logon's absolute redirects working (conftest.py)
PORTS_BY_DOMAIN = True


def _open_report_into_a_logon_page(editor: Editor) -> Page:
    """Open ZDEMO_REPORT from the palette; the logon page VS Code opened for it, loaded."""
    ui = editor.workbench
    ui.run("ABAP: Open Object…")
    with ui.page.context.expect_page(timeout=LOGON_TIMEOUT_MS) as opened:
        ui.answer("ZDEMO_REPORT", to="Open ABAP Object")
    page = opened.value
    page.wait_for_load_state()
    ui.notification(PROGRESS)  # the progress notification, while the browser waits
    return page


def _system_url(editor: Editor) -> str:
    settings = json.loads((editor.state / "User" / "settings.json").read_text(encoding="utf-8"))
    return str(settings["abapAdt.systems"][0]["url"])


def _loopback(logon_page: Page) -> str:
    """The extension's loopback callback address, as the identity provider's form carries it
    back (RelayState → the reentrance service's ``redirect-url``)."""
    relay = dict(parse_qsl(urlsplit(logon_page.url).query))["RelayState"]
    return dict(parse_qsl(urlsplit(relay).query))["redirect-url"]


def _wait_for_text(editor: Editor, page: Page, text: str) -> None:
    """Wait until the logon page shows ``text``; a timeout says where the page is (its path,
    not its query: that may carry a ticket) and photographs it."""
    try:
        page.get_by_text(text).wait_for(timeout=LOGON_TIMEOUT_MS)
    except PlaywrightTimeoutError:
        path = editor.workbench.shots / "timeout-logon-page.png"
        page.screenshot(path=str(path))
        where = urlsplit(page.url)
        body = page.locator("body").inner_text()[:300]
        raise AssertionError(
            f"the logon page never showed {text!r}: it is at {where.netloc}{where.path},"
            f" showing {body!r} (screenshot {path})"
        ) from None


def test_a_forged_then_cancelled_browser_logon_opens_nothing_and_says_why(
    editor: Editor,
) -> None:
    ui = editor.workbench
    page = _open_report_into_a_logon_page(editor)
    # the system's address through code-server's domain proxy, at the identity provider
    # (no session there yet)
    system = urlsplit(_system_url(editor))
    assert urlsplit(page.url).hostname == f"{system.port}.localhost", page.url
    assert urlsplit(page.url).path == "/saml2/idp/sso", page.url
    assert page.locator("input[name=username]").is_visible()
    ui.shot("sso-logon-page-opened")

    # a link someone else made: the right listener, another state
    callback = urlsplit(_loopback(page))
    forged_path = callback.path.rsplit("/", 1)[0] + "/forged-state"
    forged = urlunsplit(callback._replace(path=forged_path, query="reentrance-ticket=stolen"))
    page.goto(forged)
    assert "not the one abap-adt is waiting for" in page.locator("body").inner_text()
    assert ui.notification(PROGRESS), "the logon still waits for the real answer"
    ui.shot("sso-forged-callback-refused")

    ui.click_in_notification(PROGRESS, "Cancel")
    failed = ui.notification(r"Logon to A4H failed")
    assert "cancelled" in failed, failed
    ui.until(
        lambda: not any(re.search(PROGRESS, text) for text in ui.notifications()),
        "the progress notification to end",
    )
    assert "ZDEMO_REPORT" not in ui.tab_titles(), "no tab without a logon"
    adt = [entry for entry in editor.emulator.request_log if entry.path.startswith("/sap/bc/adt")]
    assert {entry.user for entry in adt} <= {None}, "nothing read from ADT without a logon"
    ui.shot("sso-cancelled")
    page.close()


def test_the_object_opens_after_the_logon_in_the_browser(editor: Editor) -> None:
    ui = editor.workbench
    ui.clear_notifications()
    page = _open_report_into_a_logon_page(editor)
    page.locator("input[name=username]").fill("DEVELOPER")
    page.locator("input[name=password]").fill(USERS["DEVELOPER"])
    ui.shot("sso-form-filled")
    page.get_by_role("button", name="Log On").click()
    # the identity provider → the reentrance service → the extension's loopback callback
    _wait_for_text(editor, page, "You are logged on")
    assert urlsplit(page.url).hostname == "127.0.0.1" and "/callback/" in page.url

    ui.notification(r"Logged on to A4H\.")
    ui.until(
        lambda: not any(re.search(PROGRESS, text) for text in ui.notifications()),
        "the progress notification to end",
    )
    ui.wait_for_tab("ZDEMO_REPORT")
    stored = editor.emulator.source(REPORT) or ""
    ui.until(lambda: ui.editor_lines()[:3] == stored.splitlines()[:3], "the report's text")
    users = {
        entry.user for entry in editor.emulator.request_log if entry.path.startswith("/sap/bc/adt")
    }
    assert users == {"DEVELOPER"}, users  # the ticket logged DEVELOPER on, nothing else did
    ui.shot("sso-report-opened")
    page.close()
