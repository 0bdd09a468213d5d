"""``:AdtBrowse`` in a real Neovim: the package tree opens with the package's first level
(from ``adt/packageContents``), ``l`` expands a sub-package lazily, ``h`` collapses it again,
and ``<CR>`` on an object opens its ``adt://`` document with the source the server holds."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.nvim_driver import GREETER, SYSTEM, run_nvim

from adt.emulator import Emulator

pytestmark = [pytest.mark.nvim]

BROWSE = r"""
local browse = require('abap_adt.browse')
local function lines() return vim.api.nvim_buf_get_lines(0, 0, -1, false) end
local function row(name)
  for index, entry in ipairs(browse.rows(0) or {}) do
    if entry.name == name then return index end
  end
end
vim.cmd('AdtBrowse $tmp')
local tree = vim.api.nvim_get_current_buf()
T.wait('the first level', function() return row('$ZDEMO') ~= nil end)
T.out.first = lines()
T.out.tree_name = vim.api.nvim_buf_get_name(tree)
vim.api.nvim_win_set_cursor(0, { row('$ZDEMO'), 0 })
vim.cmd('normal l')
T.wait('the sub-package', function() return row('ZCL_DEMO_GREETER') ~= nil end)
T.out.expanded = lines()
vim.api.nvim_win_set_cursor(0, { row('ZCL_DEMO_GREETER'), 0 })
vim.cmd('normal h')
T.out.collapsed = lines()
T.out.cursor_after_collapse = vim.api.nvim_get_current_line()
vim.cmd('normal l')
T.wait('expanded again', function() return row('ZCL_DEMO_GREETER') ~= nil end)
vim.api.nvim_win_set_cursor(0, { row('ZCL_DEMO_GREETER'), 0 })
vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes('<CR>', true, false, true), 'x', false)
T.wait('the class', function() return vim.api.nvim_get_current_buf() ~= tree end)
T.state('class')
T.out.modifiable_tree = vim.bo[tree].modifiable
"""


def test_browse_expands_collapses_and_opens_an_object(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    result = run_nvim(tmp_path, emulator_url, BROWSE)
    assert result["ok"], result["error"]
    assert result["tree_name"] == "adt-browse://$TMP"
    assert result["first"][0] == "▾ $TMP"
    assert [line.split("  ")[1] for line in result["first"][1:]] == ["▸ $ZDEMO", "▸ ZDEMO_TR"]
    assert result["first"][1].endswith("Demo objects for the ADT emulator"), "its description"
    expanded = result["expanded"]
    assert expanded[1].startswith("  ▾ $ZDEMO")
    assert any(line.startswith("      CLAS/OC ZCL_DEMO_GREETER") for line in expanded)
    assert any(line.startswith("      PROG/P ZDEMO_REPORT") for line in expanded)
    assert expanded[-1].startswith("  ▸ ZDEMO_TR"), "the sibling stays after the children"
    assert result["collapsed"] == result["first"]
    assert result["cursor_after_collapse"].startswith("  ▸ $ZDEMO")
    cls = result["class"]
    assert cls["name"] == f"adt://{SYSTEM}{GREETER}/source/main"
    assert cls["text"] == emulator.source(f"{GREETER}/source/main")
    assert cls["attached"] and cls["filetype"] == "abap"
    assert result["modifiable_tree"] is False
