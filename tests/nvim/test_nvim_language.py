"""Language features through Neovim 0.11's own maps and options, in real Neovim against the
real language server and the emulator: hover (K), definition (CTRL-] through 'tagfunc'),
where-used (grr), pretty printing (gq through 'formatexpr'), completion on unsaved text."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.nvim_driver import GREETER, REPORT_URI, SYSTEM, run_nvim

from adt.emulator import Emulator

pytestmark = [pytest.mark.nvim]

GREETER_MAIN = f"adt://{SYSTEM}{GREETER}/source/main"
INTERFACE = f"adt://{SYSTEM}/sap/bc/adt/oo/interfaces/zif_demo_greeting/source/main"

LANGUAGE = """
local function floats()
  local found = {}
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then
      table.insert(found, vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false))
    end
  end
  return found
end

vim.cmd('AdtOpen zcl_demo_greeter')
T.out.options = { omnifunc = vim.bo.omnifunc, tagfunc = vim.bo.tagfunc,
                  formatexpr = vim.bo.formatexpr, K = vim.fn.maparg('K', 'n', false, true).desc,
                  grr = vim.fn.maparg('grr', 'n', false, true).desc }

-- K on the interface name
vim.fn.search('zif_demo_greeting=>')
vim.cmd('normal K')
T.wait('the hover window', function() return #floats() > 0 end)
T.out.hover = floats()[1]
vim.cmd('fclose!')

-- CTRL-] goes to the interface, CTRL-T comes back
local before = vim.api.nvim_win_get_cursor(0)
vim.cmd('normal! \\29')
T.wait('the definition', function() return vim.api.nvim_buf_get_name(0):find('interfaces') end)
T.state('definition')
T.out.definition_line = vim.api.nvim_get_current_line()
vim.cmd('normal! \\20')
T.out.back = { name = vim.api.nvim_buf_get_name(0),
               same_place = vim.deep_equal(vim.api.nvim_win_get_cursor(0), before) }

-- grr on a method call: where-used into the quickfix list
vim.fn.search('greet( lv_name )')
vim.cmd('normal grr')
T.wait('the references', function() return #vim.fn.getqflist() > 0 end)
T.out.references = vim.tbl_map(function(item)
  return { name = vim.api.nvim_buf_get_name(item.bufnr), lnum = item.lnum, text = item.text }
end, vim.fn.getqflist())
vim.cmd('cclose')

-- gqq on an over-indented line: the pretty printer puts it back
vim.cmd('AdtOpen zdemo_report')
local original = T.text()
local line = vim.fn.search('^PARAMETERS p_times')
vim.cmd('normal! >>')
T.out.indented = vim.api.nvim_get_current_line()
vim.cmd('normal gqq')
T.out.formatted = { line = vim.api.nvim_buf_get_lines(0, line - 1, line, false)[1],
                    same = T.text() == original }

-- completion on a line that exists only in the buffer
vim.api.nvim_buf_set_lines(0, -1, -1, false, { '  DATA lo_made TYPE REF TO zcl_demo_gr' })
local last = vim.api.nvim_buf_line_count(0)
local client = adt.client()
local params = {
  textDocument = { uri = vim.api.nvim_buf_get_name(0) },
  position = { line = last - 1, character = #'  DATA lo_made TYPE REF TO zcl_demo_gr' },
}
local answers = vim.lsp.buf_request_sync(0, 'textDocument/completion', params, 10000)
local labels = {}
for _, answer in pairs(answers or {}) do
  local items = answer.result and (answer.result.items or answer.result) or {}
  for _, item in ipairs(items) do
    table.insert(labels, item.label)
  end
end
T.out.completion = labels
T.out.encoding = client.offset_encoding
"""


def test_language_features_through_neovims_maps(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    result = run_nvim(tmp_path, emulator_url, LANGUAGE)
    options = result["options"]
    assert options["omnifunc"] == "v:lua.vim.lsp.omnifunc"
    assert options["tagfunc"] == "v:lua.vim.lsp.tagfunc"
    assert options["formatexpr"] == "v:lua.vim.lsp.formatexpr()"
    assert options["K"] == "vim.lsp.buf.hover()"
    assert options["grr"] == "vim.lsp.buf.references()"

    hover = "\n".join(result["hover"])
    assert "ZIF_DEMO_GREETING" in hover.upper() and "interface" in hover.lower()

    definition = result["definition"]
    assert definition["name"] == INTERFACE and definition["attached"]
    assert "zif_demo_greeting" in result["definition_line"].lower()
    assert result["back"] == {"name": GREETER_MAIN, "same_place": True}

    references = result["references"]
    names = {item["name"] for item in references}
    assert GREETER_MAIN in names and REPORT_URI in names, references
    for item in references:
        assert "greet" in item["text"].lower(), item

    assert result["indented"].startswith("  PARAMETERS p_times")
    assert result["formatted"] == {"line": "PARAMETERS p_times TYPE i DEFAULT 3.", "same": True}

    assert any(label.upper() == "ZCL_DEMO_GREETER" for label in result["completion"]), result[
        "completion"
    ]
    assert result["encoding"] == "utf-8"
