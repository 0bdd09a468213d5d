"""The Neovim README's snippets work as printed (issue 18): the copy-paste first run against
the emulator, and the folding snippet (every window of an ABAP buffer folds, none starts
fully folded). The snippets are taken from editors/nvim/README.md itself."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from support.nvim_driver import GREETER, NVIM, PLUGIN, REPORT_URI, SYSTEM, run_nvim

from adt.emulator import Emulator

pytestmark = [pytest.mark.nvim]

README = PLUGIN / "README.md"
ROOT = PLUGIN.parents[1]
BIN = Path(sys.executable).parent


def _section(title: str) -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, flags=re.S)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_first_run_against_the_emulator_works_as_printed(tmp_path: Path) -> None:
    demo, editor = _blocks(_section("First run, against the emulator"), "sh")
    port = str(_free_port())

    def local(command: str) -> str:  # this checkout's venv and Neovim, a free port
        command = command.replace("8765", port).replace("$PWD/.venv/bin/", ".venv/bin/")
        return command.replace(".venv/bin/", f"{BIN}/")

    env = {
        **os.environ,
        "ABAP_ADT_CONFIG": os.devnull,
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    result = tmp_path / "result.json"
    record = (
        "lua local b = vim.api.nvim_get_current_buf(); "
        "local c = require('abap_adt').client(); "
        f"vim.fn.writefile({{ vim.json.encode({{ name = vim.api.nvim_buf_get_name(b), "
        "lines = vim.api.nvim_buf_line_count(b), messages = vim.fn.execute('messages'), "
        "attached = c ~= nil and vim.lsp.buf_is_attached(b, c.id) }) }, "
        f"'{result}')"
    )
    assert NVIM
    nvim = local(editor).replace("nvim --clean", f"{NVIM} --headless --clean", 1).strip()
    nvim += f' -c "{record}" -c "lua require(\'abap_adt\').stop(5000)" -c "qa!"'
    with subprocess.Popen(
        ["bash", "-c", local(demo).strip()],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    ) as server:
        try:
            assert server.stdout is not None
            for line in server.stdout:  # the demo's edit cycle, then its instructions
                if "keeps running at" in line:
                    break
            else:
                pytest.fail("the demo ended without serving")
            finished = subprocess.run(
                ["bash", "-c", nvim], cwd=ROOT, env=env, capture_output=True, timeout=90
            )
        finally:
            server.terminate()
    assert finished.returncode == 0, finished.stderr
    opened = json.loads(result.read_text(encoding="utf-8"))
    assert opened["name"] == REPORT_URI, opened["messages"]
    assert opened["lines"] > 10 and opened["attached"] is True


def _folding_snippet() -> str:
    [snippet] = [b for b in _blocks(_section("Language features"), "lua") if "foldexpr" in b]
    return snippet


FOLDS = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
vim.cmd('vsplit ' .. vim.fn.fnameescape('adt://{SYSTEM}{GREETER}/source/main'))
local function window(win)
  return vim.api.nvim_win_call(win, function()
    local folds, closed = 0, 0
    for line = 1, vim.fn.line('$') do
      if vim.fn.foldlevel(line) > 0 then folds = folds + 1 end
      if vim.fn.foldclosed(line) ~= -1 then closed = closed + 1 end
    end
    return {{ name = vim.api.nvim_buf_get_name(0), method = vim.wo.foldmethod,
             folds = folds, closed = closed }}
  end)
end
-- the folds come from the server (textDocument/foldingRange): wait until both windows have
T.wait('the folds', function()
  for _, win in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    if window(win).folds == 0 then return false end
  end
  return true
end)
T.out.windows = vim.tbl_map(window, vim.api.nvim_tabpage_list_wins(0))
"""


def test_the_folding_snippet_folds_every_window_and_starts_open(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    result = run_nvim(tmp_path, emulator_url, _folding_snippet() + FOLDS)
    windows = result["windows"]
    assert len(windows) == 2
    assert {w["method"] for w in windows} == {"expr"}, "every window folds"
    assert all(w["folds"] > 0 for w in windows)
    assert all(w["closed"] == 0 for w in windows), "nothing starts folded"


def _on_attach_snippet() -> str:
    [snippet] = [b for b in _blocks(_section("Language features"), "lua") if "signature_help" in b]
    return snippet


def test_the_on_attach_snippet_shows_signature_help_on_a_parenthesis(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """The README's ``on_attach`` as printed: typing ``(`` after a method name opens the
    signature of that method; with ``inlayHints`` on, a positional argument shows the name
    of its parameter."""
    steps = f"""
local captured
local real = adt.setup
adt.setup = function(opts) captured = opts end
{_on_attach_snippet()}
adt.setup = real
vim.cmd('AdtOpen zcl_demo_greeter')
local bufnr, window = vim.api.nvim_get_current_buf(), vim.api.nvim_get_current_win()
captured.on_attach(adt.client(), bufnr)
vim.fn.search('METHOD greet_all')
-- typed as a user would, staying in insert mode after the parenthesis
vim.api.nvim_feedkeys('oDATA(lv_x) = greet_all(', 'xt!', false)
local function floats()
  local found = {{}}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      local lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false)
      table.insert(found, table.concat(lines, '\\n'))
    end
  end
  return found
end
T.wait('the signature', function() return #floats() > 0 end)
T.out.signature = floats()[1]
vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<Esc>', true, false, true), 'x', false)
vim.api.nvim_set_current_win(window)
vim.cmd('normal! u')  -- the unfinished call goes again; the hints follow the change
T.out.hints_enabled = vim.lsp.inlay_hint.is_enabled({{ bufnr = bufnr }})
local function labels()
  return vim.tbl_map(function(hint)
    local label = hint.inlay_hint.label
    return type(label) == 'string' and label or label[1].value
  end, vim.lsp.inlay_hint.get({{ bufnr = bufnr }}))
end
T.wait('the inlay hints', function() return #labels() > 0 end)
T.out.hints = labels()
"""
    result = run_nvim(tmp_path, emulator_url, steps, init_options={"inlayHints": True})
    assert result["ok"], result["error"]
    signature = result["signature"].upper()
    assert "GREET_ALL(" in signature and "IT_NAMES" in signature, result["signature"]
    assert result["hints_enabled"], "the snippet turns inlay hints on"
    assert "iv_name =" in [label.strip() for label in result["hints"]], result["hints"]
