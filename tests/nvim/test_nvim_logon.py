"""Single sign-on through the browser from Neovim: the plugin prints the logon address the
language server sends (``adt/logon``) and opens it with ``vim.ui.open`` — here a "browser"
that is an HTTP client following the emulator's redirects — and reports how it ended; the
buffer opens once the logon is done. ``:AdtLogonCancel`` gives up a waiting logon."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.browser import SsoBrowser
from support.emulated import USERS
from support.nvim_driver import REPORT_SOURCE, REPORT_URI, SYSTEM, run_nvim, texts

from adt.emulator import Emulator, LogonPolicy

pytestmark = [pytest.mark.nvim]


@pytest.fixture
def emulator() -> Emulator:
    """A system that takes no password: only the browser logon's ticket."""
    return Emulator(users=USERS, logon=LogonPolicy(basic=False, browser_sso=True))


def _sso(emulator_url: str) -> dict[str, object]:
    system = {"name": SYSTEM, "url": emulator_url, "user": "DEVELOPER", "logon": "browser"}
    # never into the keyring of the machine the tests run on
    return {"systems": [{**system, "rememberLogon": False}]}


# vim.ui.open is the user's browser: the first time the user gives up at once; the second time
# it hands the address to the test's browser and returns (as xdg-open does)
STEPS = f"""
T.opened = {{}}
vim.ui.open = function(url)
  table.insert(T.opened, url)
  if #T.opened == 1 then
    vim.schedule(function() vim.cmd('AdtLogonCancel') end)
  else
    vim.fn.writefile({{ url }}, T.dir .. '/logon.url')
  end
  return nil, nil
end
-- the user logs on only after the read outlived its timeout: it keeps waiting for the logon
local client_module = require('abap_adt.client')
local timer = vim.uv.new_timer()
timer:start(10, 10, vim.schedule_wrap(function()
  if client_module.logon_waits > 0 and not timer:is_closing() then
    timer:stop()
    timer:close()
    vim.fn.writefile({{}}, T.dir .. '/browser.ready')
  end
end))
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
T.wait_message('logon to {SYSTEM} failed')
T.state('refused')
T.sync('cancelled')
require('abap_adt.config').options.timeout = 1000  -- shorter than this logon takes
vim.cmd('bwipeout!')
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
T.state('opened')
out.opened_urls = T.opened
out.logon_waits = client_module.logon_waits
"""


def test_a_cancelled_logon_then_the_buffer_opens_after_the_logon_in_the_browser(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    browser = SsoBrowser()
    work = tmp_path / "nvim"
    after_cancel: list[object] = []
    result = run_nvim(
        tmp_path,
        emulator_url,
        STEPS,
        init_options=_sso(emulator_url),
        on_sync={
            "cancelled": lambda: after_cancel.extend(emulator.request_log),
            "browser": lambda: browser((work / "logon.url").read_text().strip()),
        },
    )
    messages = texts(result)
    cancelled = (
        f"abap-adt: logon to {SYSTEM} failed: logon to {SYSTEM} in the browser was cancelled"
    )
    assert f"abap-adt: cancelling the logon to {SYSTEM}" in messages and cancelled in messages
    assert result["refused"]["text"].strip() == "", "the buffer did not open without a logon"
    assert after_cancel == [], "nothing reached ADT without a logon"

    assert result["opened"]["text"] == emulator.source(REPORT_SOURCE)
    assert result["logon_waits"] >= 1, "the read waited for the logon beyond its timeout"
    first, url = result["opened_urls"]
    assert url == browser.opened[0] and f"{emulator_url}/sap/bc/sec/reentrance?" in url
    assert first != url, "a new logon: another loopback port and state"
    shown = f"abap-adt: log on to {SYSTEM} in your browser: {url}  (:AdtLogonCancel gives up)"
    assert messages.index(cancelled) < messages.index(shown)
    assert messages.index(shown) < messages.index(f"abap-adt: logged on to {SYSTEM}")
    adt = [e for e in emulator.request_log if e.path != "/sap/public/bc/icf/logoff"]
    assert {e.user for e in adt} == {"DEVELOPER"}, "the ticket logged DEVELOPER on"
    assert emulator.locks() == []
