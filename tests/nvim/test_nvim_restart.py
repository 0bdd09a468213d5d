"""Nothing lost when the language server goes away under Neovim (issue 18, N1 and N2): a real
headless Neovim with the plugin, the real server, the emulator. The server is killed with
SIGKILL (as a crash or the OOM killer would) or restarted with :AdtRestart while buffers
hold unsaved edits; a colleague changes the source in between."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.nvim_driver import GREETER, REPORT_SOURCE, REPORT_URI, SYSTEM, run_nvim, stored, texts

from adt.emulator import Emulator

pytestmark = [pytest.mark.nvim]

GREETER_MAIN = f"adt://{SYSTEM}{GREETER}/source/main"
GREETER_SOURCE = f"{GREETER}/source/main"
MINE = "* MY edit, unsaved when the server died"
THEIRS = "* COLLEAGUE changed this line meanwhile"

# T.kill_server(): SIGKILL the language server (Neovim's child process) and wait until the
# client has noticed.
KILL = """
function T.kill_server()
  local client = adt.client()
  local pid = client and client.rpc and client.rpc.pid
  if not pid then
    for _, child in ipairs(vim.api.nvim_get_proc_children(vim.fn.getpid())) do
      pid = child
    end
  end
  T.out.killed = (T.out.killed or 0) + 1
  vim.uv.kill(pid, 'sigkill')
  T.wait('Neovim to notice', function()
    return adt.client() == nil and #vim.lsp.get_clients({ _uninitialized = true }) == 0
  end)
end
"""


def _colleague_changes_line(emulator: Emulator, line: int) -> str:
    lines = stored(emulator).split("\n")
    lines[line] = THEIRS
    theirs = "\n".join(lines)
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, theirs)
    return theirs


CRASH_THEN_COLLEAGUE = (
    KILL
    + f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
vim.api.nvim_buf_set_lines(0, 1, 2, false, {{ '{MINE}' }})
T.kill_server()
T.sync('killed')                 -- a colleague changes line 8 meanwhile
T.answers = {{ 'Merge' }}
vim.cmd('write')
T.state('conflict')
T.wait('the merge', function() return T.text():find('COLLEAGUE', 1, true) end)
vim.cmd('write')
T.state('merged')
"""
)


def test_a_crash_never_reverts_a_colleagues_change(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """N1: edit, kill -9 the server, a colleague changes another line, :w — the conflict
    question, not "saved (2 changes)"; Merge keeps the colleague's line and the edit."""
    original = stored(emulator).split("\n")
    theirs: list[str] = []
    result = run_nvim(
        tmp_path,
        emulator_url,
        CRASH_THEN_COLLEAGUE,
        on_sync={"killed": lambda: theirs.append(_colleague_changes_line(emulator, 7))},
    )
    messages = texts(result)
    assert not any("saved ZDEMO_REPORT (" in m for m in messages), messages
    assert any("changed on the server by COLLEAGUE" in m for m in messages), messages
    assert result["questions"] and "COLLEAGUE" in result["questions"][0]["prompt"]
    final = stored(emulator).split("\n")
    assert final[1] == MINE
    assert final[7] == THEIRS, "the colleague's line survives"
    assert len(final) == len(original)
    assert result["merged"]["text"] == stored(emulator)
    assert result["merged"]["modified"] is False
    assert emulator.locks() == []


EDITS_WHILE_DOWN = (
    KILL
    + f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{GREETER_MAIN}'))
local greeter = vim.api.nvim_get_current_buf()
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
local report = vim.api.nvim_get_current_buf()
T.kill_server()
vim.cmd('normal! ggO* typed while the server was down')
vim.cmd('write')                 -- starts the server again
T.state('first')
vim.cmd('normal! Go* typed after the restart')
vim.cmd('write')
T.state('second')
T.sync('second')
-- every buffer is attached again, not only the one saved
local client = adt.client()
T.out.greeter_attached = vim.lsp.buf_is_attached(greeter, client.id)
local symbols = vim.lsp.buf_request_sync(greeter, 'textDocument/documentSymbol',
  {{ textDocument = {{ uri = '{GREETER_MAIN}' }} }}, 10000)
T.out.greeter_symbols = 0
for _, answer in pairs(symbols or {{}}) do
  T.out.greeter_symbols = T.out.greeter_symbols + #(answer.result or {{}})
end
vim.cmd('buffer ' .. greeter)
vim.cmd('normal! Go* greeter edited after the restart')
vim.cmd('write')
T.state('greeter')
-- an unsaved edit after all this: :q refuses to quit
vim.cmd('buffer ' .. report)
vim.cmd('normal! Go* not saved yet')
local ok, err = pcall(vim.cmd, 'quit')
T.out.quit = {{ ok = ok, err = tostring(err) }}
T.state('unsaved')
vim.cmd('write')
T.state('saved_at_last')
"""
)


def test_edits_while_the_server_is_down_keep_reaching_it(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """N2: edit while the server is down, :w (starts it, saves), then every later edit
    still reaches the server — in every buffer, not only the one saved — and :q warns."""
    after_second: list[str] = []
    result = run_nvim(
        tmp_path,
        emulator_url,
        EDITS_WHILE_DOWN,
        on_sync={"second": lambda: after_second.append(stored(emulator))},
    )
    messages = texts(result)
    assert not any("nothing to save" in m for m in messages), messages
    assert result["first"]["modified"] is False
    assert "* typed while the server was down" in after_second[0]
    assert after_second[0].endswith("* typed after the restart"), "the later edit reached it"
    assert result["second"]["modified"] is False
    assert result["greeter_attached"] is True
    assert result["greeter_symbols"] > 0
    assert stored(emulator, GREETER_SOURCE).endswith("* greeter edited after the restart")
    assert result["quit"]["ok"] is False and "E37" in result["quit"]["err"]
    assert result["unsaved"]["modified"] is True
    assert stored(emulator).endswith("* not saved yet")
    assert result["saved_at_last"]["modified"] is False
    assert emulator.locks() == []


ADT_RESTART = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{GREETER_MAIN}'))
local greeter = vim.api.nvim_get_current_buf()
vim.cmd('normal! Go* greeter: unsaved across the restart')
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
vim.api.nvim_buf_set_lines(0, 1, 2, false, {{ '{MINE}' }})
local before = adt.client().id
T.sync('edited')                 -- a colleague changes line 8
vim.cmd('AdtRestart')
local client = adt.client()
T.out.new_client = client ~= nil and client.id ~= before
T.out.attached = vim.lsp.buf_is_attached(0, client.id)
  and vim.lsp.buf_is_attached(greeter, client.id)
T.wait_message('changed on the server by COLLEAGUE')
T.answers = {{ 'Merge' }}
vim.cmd('write')
T.wait('the merge', function() return T.text():find('COLLEAGUE', 1, true) end)
vim.cmd('write')
T.state('report')
vim.cmd('buffer ' .. greeter)
vim.cmd('write')
T.state('greeter')
"""


def test_adt_restart_loses_no_buffer(tmp_path: Path, emulator: Emulator, emulator_url: str) -> None:
    """:AdtRestart with unsaved edits in two buffers and a colleague's change: a new server,
    every buffer attached to it, each saved against the version it was read at."""
    result = run_nvim(
        tmp_path,
        emulator_url,
        ADT_RESTART,
        on_sync={"edited": lambda: _colleague_changes_line(emulator, 7)},
    )
    assert result["new_client"] is True
    assert result["attached"] is True
    final = stored(emulator).split("\n")
    assert final[1] == MINE and final[7] == THEIRS
    assert result["report"]["modified"] is False
    assert stored(emulator, GREETER_SOURCE).endswith("* greeter: unsaved across the restart")
    assert result["greeter"]["modified"] is False
    assert emulator.locks() == []
