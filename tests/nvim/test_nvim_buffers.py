"""The Neovim plugin as a new user meets it (real Neovim, real server, emulator): opening
objects that cannot be opened, commands joined with ``|``, ``b:abap_adt`` following the
server version (a save, a colleague's change, an agent's edit through the MCP bridge), and
diagnostics with their messages on screen."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from support.mcp_calls import call, error
from support.nvim_driver import GREETER, REPORT, REPORT_SOURCE, REPORT_URI, SYSTEM, run_nvim, texts

from adt import AdtClient, ConnectionProfile
from adt.emulator import Emulator
from adt.systems import Connections, SystemsConfig
from mcp_bridge.server import make_bridge

pytestmark = [pytest.mark.nvim]

GREETER_MAIN = f"adt://{SYSTEM}{GREETER}/source/main"

OPEN_ERRORS = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
local report = vim.api.nvim_get_current_buf()
local function buffers()
  return vim.tbl_map(vim.api.nvim_buf_get_name, vim.api.nvim_list_bufs())
end
local function step(name, command)
  local count = #T.out.messages
  local ok, err = pcall(vim.cmd, command)
  T.out[name] = {{
    ok = ok, err = err and tostring(err), buffers = buffers(),
    back = vim.api.nvim_get_current_buf() == report,
    messages = vim.tbl_map(function(m)
      return m.text
    end, vim.list_slice(T.out.messages, count + 1)),
  }}
end
step('bad_include', 'AdtOpen zcl_demo_greeter badinclude')
step('too_many', 'AdtOpen zcl_demo_greeter implementations extra')
T.sync('fail_reads')           -- the server cannot read the class's main source now
step('failed_read', 'AdtOpen zcl_demo_greeter')
step('bar', 'AdtOpen zcl_demo_greeter implementations | let g:after_bar = 1 " a comment')
T.out.after_bar = vim.g.after_bar
T.state('include')
step('retry', 'AdtOpen zcl_demo_greeter')  -- the failed buffer left nothing that blocks this
T.state('greeter')
-- without a name: the name under the cursor, here in "zif_demo_greeting=>c_default_name"
vim.fn.search('zif_demo_greeting=>')
vim.cmd('normal! 4l')
step('under_cursor', 'AdtOpen')
T.state('interface')
vim.cmd('enew')
vim.api.nvim_buf_set_lines(0, 0, -1, false, {{ 'DATA lo TYPE REF TO /abc/cl_x. " x=>y' }})
T.out.names = {{}}
for _, col in ipairs({{ 21, 26, 20, 34 }}) do
  vim.api.nvim_win_set_cursor(0, {{ 1, col }})
  table.insert(T.out.names, require('abap_adt.objects').name_under_cursor())
end
"""


def test_open_errors_leave_no_broken_buffer(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """:AdtOpen with a bad include, too many arguments, or an object the server cannot read
    says why in one message, raises no Lua error and leaves no empty buffer behind; ``|``
    separates commands."""

    def fail_reads() -> None:
        emulator.faults.fail_next(500, method="GET", path_prefix=f"{GREETER}/source/main")

    result = run_nvim(tmp_path, emulator_url, OPEN_ERRORS, on_sync={"fail_reads": fail_reads})
    bad = result["bad_include"]
    assert bad["ok"] and bad["back"], "no error raised, the report is still shown"
    assert bad["messages"] == [
        "abap-adt: badinclude is not an include; use one of main, definitions, "
        "implementations, macros, testclasses"
    ]
    assert bad["buffers"] == [REPORT_URI]

    too_many = result["too_many"]
    assert too_many["ok"] and too_many["back"] and too_many["buffers"] == [REPORT_URI]
    assert too_many["messages"] == [
        "abap-adt: too many arguments; usage: :AdtOpen [SYSTEM:]NAME "
        "[main|definitions|implementations|macros|testclasses]"
    ]

    failed = result["failed_read"]
    assert failed["ok"] and failed["back"], "back on the report"
    assert failed["buffers"] == [REPORT_URI], "the buffer that could not be read is gone"
    (message,) = failed["messages"]
    assert message.startswith(f"abap-adt: cannot open {GREETER_MAIN}: ")

    bar = result["bar"]
    assert bar["ok"] and bar["messages"] == []
    assert result["after_bar"] == 1, "the command after | ran"
    assert result["include"]["name"] == f"adt://{SYSTEM}{GREETER}/includes/implementations"
    assert result["include"]["attached"]

    assert result["retry"]["ok"] and result["retry"]["messages"] == []
    greeter = result["greeter"]
    assert greeter["name"] == GREETER_MAIN and greeter["attached"]
    assert greeter["text"] == emulator.source(f"{GREETER}/source/main")
    assert result["under_cursor"]["messages"] == []
    assert result["names"] == ["/abc/cl_x", "/abc/cl_x", "/abc/cl_x", "x"]
    assert result["interface"]["name"] == (
        f"adt://{SYSTEM}/sap/bc/adt/oo/interfaces/zif_demo_greeting/source/main"
    )


FOLLOW_THE_SERVER = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
local function details()
  local state = vim.deepcopy(vim.b.abap_adt)
  local read = require('abap_adt.client').request('adt/readDocument', {{ uri = '{REPORT_URI}' }})
  state.fresh = read.token
  return state
end
T.out.opened = details()
vim.cmd('normal! ggO* mine')
vim.cmd('write')
T.out.saved = details()
T.wait('inactive after the save', function() return vim.b.abap_adt.inactive == true end)
@README_STATUSLINE@
T.out.statusline_inactive = vim.api.nvim_eval_statusline(vim.o.statusline, {{}}).str
vim.cmd('AdtActivate')
T.wait('active after :AdtActivate', function() return vim.b.abap_adt.inactive == false end)
T.out.statusline_active = vim.api.nvim_eval_statusline(vim.o.statusline, {{}}).str
T.sync('colleague')            -- COLLEAGUE saves; the server refreshes the clean buffer
T.wait('the refresh', function() return T.text():find('COLLEAGUE', 1, true) end)
T.wait('the new token', function() return vim.b.abap_adt.token ~= T.out.saved.token end)
T.wait('who changed it', function() return vim.b.abap_adt.changedBy == 'COLLEAGUE' end)
T.out.refreshed = details()
T.sync('agent')                -- an agent patches the object through this editor's server
T.wait('the agent edit', function() return T.text():find('from the agent', 1, true) end)
T.wait('the agent token', function() return vim.b.abap_adt.token ~= T.out.refreshed.token end)
T.wait('the agent user', function() return vim.b.abap_adt.changedBy == 'DEVELOPER' end)
T.out.after_agent = details()
T.state('agent_state')
"""


def agent_patch(emulator_url: str) -> dict[str, Any]:
    """An agent inserts a first line through the MCP bridge, which passes the call through
    the language server of the Neovim that has the object open."""

    async def patch() -> dict[str, Any]:
        profile = ConnectionProfile(
            base_url=emulator_url,
            user="DEVELOPER",
            password="developer",  # type: ignore[arg-type]
            name=SYSTEM,
        )
        connections = Connections(SystemsConfig({SYSTEM: profile}), client_factory=AdtClient)
        async with Client(make_bridge(connections=connections, passthrough=True)) as agent:
            read = await call(agent, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=1)
            assert read["via"].startswith("editor:"), "the call ran in Neovim's server"
            patched = await call(
                agent,
                "setObjectSourceV2",
                objectUrl=REPORT,
                token=read["data"]["token"],
                startLine=1,
                endLine=0,
                content="* from the agent",
            )
            assert patched["ok"], patched
            return patched

    return asyncio.run(patch())


def test_buffer_details_follow_the_server(
    tmp_path: Path, emulator: Emulator, emulator_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """b:abap_adt names the token, who changed the source and whether it is inactive, after
    opening, saving, activating, a colleague's change picked up by polling, and an agent's
    edit through the editor."""
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("ABAP_ADT_RUNTIME_DIR", str(runtime))  # the bridge looks here
    text = emulator.source(REPORT_SOURCE)
    assert text is not None
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, text + "\n* COLLEAGUE before")
    patched: list[dict[str, Any]] = []

    def colleague() -> None:
        emulator.write_as("COLLEAGUE", REPORT_SOURCE, stored_text(emulator) + "\n* COLLEAGUE after")

    result = run_nvim(
        tmp_path,
        emulator_url,
        FOLLOW_THE_SERVER.replace("@README_STATUSLINE@", readme_statusline()),
        init_options={"pollInterval": 0.2},
        on_sync={
            "colleague": colleague,
            "agent": lambda: patched.append(agent_patch(emulator_url)),
        },
    )
    opened, saved = result["opened"], result["saved"]
    assert opened["changedBy"] == "COLLEAGUE" and opened["token"] == opened["fresh"]
    assert saved["changedBy"] == "DEVELOPER" and saved["token"] == saved["fresh"] != opened["token"]
    assert saved["changedAt"] >= opened["changedAt"]
    assert re.search(r"\s\[inactive\] DEVELOPER \d+,\d+$", result["statusline_inactive"])
    assert re.search(r"\s DEVELOPER \d+,\d+$", result["statusline_active"])
    assert "inactive" not in result["statusline_active"]
    refreshed = result["refreshed"]
    assert refreshed["token"] == refreshed["fresh"] and refreshed["changedBy"] == "COLLEAGUE"
    after = result["after_agent"]
    assert after["token"] == after["fresh"] == patched[0]["data"]["token"]
    assert after["changedBy"] == "DEVELOPER"
    assert result["agent_state"]["modified"] is False
    assert stored_text(emulator) == result["agent_state"]["text"]
    assert emulator.locks() == []


AGENT_REFUSED = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
vim.cmd('normal! ggA unsaved editor change')
T.sync('agent')                -- the agent's patch overlaps the unsaved first line
T.wait('the user is told', function()
  for _, message in ipairs(T.out.messages) do
    if message.text:find('was not written', 1, true) then return true end
  end
end)
T.out.text = T.text()
T.out.modified = vim.bo.modified
"""


def test_an_agents_refused_change_is_told_to_the_user(
    tmp_path: Path, emulator: Emulator, emulator_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent's patch through Neovim's server that overlaps the buffer's unsaved edits is
    refused for the agent and reported to the user (adt/agentEditRefused); the edits stay."""
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("ABAP_ADT_RUNTIME_DIR", str(runtime))
    before = stored_text(emulator)
    refusals: list[dict[str, Any]] = []

    async def overlapping_patch() -> None:
        profile = ConnectionProfile(
            base_url=emulator_url,
            user="DEVELOPER",
            password="developer",  # type: ignore[arg-type]
            name=SYSTEM,
        )
        connections = Connections(SystemsConfig({SYSTEM: profile}), client_factory=AdtClient)
        async with Client(make_bridge(connections=connections, passthrough=True)) as agent:
            read = await call(agent, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=1)
            assert read["via"].startswith("editor:"), "the call ran in Neovim's server"
            refusals.append(
                await error(
                    agent,
                    "setObjectSourceV2",
                    objectUrl=REPORT,
                    token=read["data"]["token"],
                    startLine=1,
                    endLine=1,
                    content="* the agent rewrites line 1",
                )
            )

    result = run_nvim(
        tmp_path,
        emulator_url,
        AGENT_REFUSED,
        on_sync={"agent": lambda: asyncio.run(overlapping_patch())},
    )
    assert [r["name"] for r in refusals] == ["VERSION_CONFLICT"]
    warned = [m for m in result["messages"] if "was not written" in m["text"]]
    assert warned and warned[0]["level"] == 3  # vim.log.levels.WARN
    assert result["text"].split("\n")[0].endswith(" unsaved editor change")
    assert result["modified"] is True
    assert stored_text(emulator) == before
    assert emulator.locks() == []


def readme_statusline() -> str:
    """The statusline example of the plugin's README, as a user copies it."""
    readme = (Path(__file__).parents[2] / "editors" / "nvim" / "README.md").read_text()
    found = re.search(r"```lua\n(vim\.o\.statusline = .*?)```", readme, re.S)
    assert found, "the README shows a statusline"
    return found.group(1)


def stored_text(emulator: Emulator) -> str:
    text = emulator.source(REPORT_SOURCE)
    assert text is not None
    return text


DIAGNOSTICS_ON_SCREEN = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
vim.cmd('normal! GoENDIF.')
vim.cmd('write')
T.wait('the diagnostics', function() return #vim.diagnostic.get(0) > 0 end)
T.out.diagnostic = vim.diagnostic.get(0)[1].message
T.out.virtual_texts = {{}}
for _, mark in ipairs(vim.api.nvim_buf_get_extmarks(0, -1, 0, -1, {{ details = true }})) do
  for _, chunk in ipairs(mark[4].virt_text or {{}}) do
    table.insert(T.out.virtual_texts, chunk[1])
  end
end
"""


def test_diagnostics_show_their_message(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """With Neovim 0.11's defaults a diagnostic is only a sign; ours show the message."""
    result = run_nvim(tmp_path, emulator_url, DIAGNOSTICS_ON_SCREEN)
    assert result["diagnostic"], texts(result)
    assert any(result["diagnostic"] in text for text in result["virtual_texts"])
