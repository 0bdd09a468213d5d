"""Rename through Neovim's own ``vim.lsp.buf.rename()`` (grn), in real Neovim against the real
language server and the emulator: the server's prepareRename fills the prompt, the rename
reaches the test include that was never opened, both objects are written and activated, and
no lock is left; both buffers end up not modified without a save."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.nvim_driver import GREETER, SYSTEM, run_nvim

from adt.emulator import Emulator

pytestmark = [pytest.mark.nvim]

MAIN = f"{GREETER}/source/main"
TESTS = f"{GREETER}/includes/testclasses"

RENAME = f"""
vim.cmd('AdtOpen zcl_demo_greeter')
T.out.grn = vim.fn.maparg('grn', 'n', false, true).desc
vim.api.nvim_buf_set_lines(0, 0, 0, false, {{ '* unsaved, written with the rename' }})
vim.fn.search('METHODS greet_all')
vim.cmd('normal! w')
T.inputs = {{ 'greet_each' }}
vim.lsp.buf.rename()
T.wait_message('Renamed greet_all to greet_each', 30000)
T.state('main')
local tests = vim.fn.bufnr('adt://{SYSTEM}{TESTS}')
-- the server wrote what both buffers show: they are not marked unsaved, without a :w
T.wait('clean buffers', function()
  return not vim.bo.modified and tests > 0 and not vim.bo[tests].modified
end)
T.out.tests_modified = tests > 0 and vim.bo[tests].modified
T.out.tests = tests > 0 and T.text(tests) or nil
"""


def test_rename_with_neovims_own_command(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    result = run_nvim(tmp_path, emulator_url, RENAME)
    assert result["ok"], result["error"]
    assert result["grn"] == "vim.lsp.buf.rename()"
    assert result["inputs"][0]["default"] == "greet_all", "prepareRename filled the prompt"
    main = emulator.source(MAIN, "active") or ""
    assert main.startswith("* unsaved, written with the rename"), "the unsaved line too"
    assert "greet_all" not in main and "METHOD greet_each." in main
    assert "mo_cut->greet_each(" in (emulator.source(TESTS, "active") or "")
    assert result["main"]["text"] == main, "the buffer shows what was written"
    assert result["tests_modified"] is False
    assert result["tests"] is not None and "mo_cut->greet_each(" in result["tests"]
    assert emulator.locks() == []


HELLO = "/sap/bc/adt/oo/classes/zcl_demo_hello"
RENAME_CLASS = f"""
vim.cmd('AdtOpen zcl_demo_greeter')
local old = vim.api.nvim_get_current_buf()
vim.fn.search('CLASS zcl_demo_greeter DEFINITION')
vim.cmd('normal! w')
T.inputs = {{ 'zcl_demo_hello' }}
vim.lsp.buf.rename()
T.wait_message('Renamed zcl_demo_greeter to zcl_demo_hello', 30000)
T.wait('the new class shown', function()
  return vim.api.nvim_buf_get_name(0) == 'adt://{SYSTEM}{HELLO}/source/main'
end, 10000)
T.wait('the old buffer marked', function() return #vim.diagnostic.get(old) > 0 end, 10000)
T.state('shown')
T.out.old_warning = vim.diagnostic.get(old)[1].message
"""


def test_a_class_renamed_with_grn_opens_the_new_class(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """window/showDocument of the new adt:// URI is opened by Neovim's own handler through
    the plugin's buffer reader; the old buffer gets the warning."""
    result = run_nvim(tmp_path, emulator_url, RENAME_CLASS)
    assert result["ok"], result["error"]
    assert result["inputs"][0]["default"] == "zcl_demo_greeter"
    main = emulator.source(f"{HELLO}/source/main", "active") or ""
    assert main.startswith("CLASS zcl_demo_hello DEFINITION")
    assert result["shown"]["text"] == main and result["shown"]["attached"] is True
    assert "no longer exists" in result["old_warning"]
    assert emulator.source(MAIN) is None
    assert emulator.locks() == []
