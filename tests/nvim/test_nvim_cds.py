"""A CDS view in real Neovim against the real language server and the emulator: the buffer
gets the abap-cds filetype and our syntax, completion offers the table's fields, :write saves
a token-checked patch, :AdtActivate says that the table under the view is inactive and asks
whether to activate both (dismissed, then accepted; :AdtActivate! does not ask), and
:AdtPreview shows the rows in a scratch buffer as a table."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from support.cds_loop import (
    CITIES,
    FIELD_LINE,
    NEW_SERVICE,
    NEW_URLS,
    NEW_VIEW,
    TRANSPORTABLE,
    VIEW_SOURCE_URL,
    assert_both_active,
    assert_created_from_templates,
    cds_emulator,
    new_inactive_table_and_view,
)
from support.nvim_driver import SYSTEM, run_nvim, texts

from adt.emulator import Emulator
from adt.workbench.objects import KINDS

pytestmark = [pytest.mark.nvim]

VIEW_URI = f"adt://{SYSTEM}{VIEW_SOURCE_URL}"

OPEN_COMPLETE_SAVE = f"""
vim.cmd('edit {VIEW_URI}')
T.wait('the view', function() return T.text():find('ZI_Trip') ~= nil end)
T.out.filetype = vim.bo.filetype
T.out.syntax = vim.b.current_syntax
local params = {{ textDocument = {{ uri = vim.api.nvim_buf_get_name(0) }},
                 position = {{ line = 3, character = 2 }} }}
local answers = vim.lsp.buf_request_sync(0, 'textDocument/completion', params, 10000)
local labels = {{}}
for _, answer in pairs(answers or {{}}) do
  for _, item in ipairs(answer.result and (answer.result.items or answer.result) or {{}}) do
    table.insert(labels, item.label:upper())
  end
end
T.out.completion = labels
vim.api.nvim_buf_set_lines(0, 3, 4, false, {{ '{FIELD_LINE}' }})
vim.cmd('write')
T.wait('the save', function() return not vim.bo.modified end)
"""

STEPS = (
    OPEN_COMPLETE_SAVE
    + """
T.answers = { false, 'activate together' }
vim.cmd('AdtActivate')
T.wait('the question', function() return #T.out.questions == 1 end)
T.sync('dismissed')
vim.cmd('AdtActivate')
T.wait_message('activated ZTRIP, ZI_TRIP')
vim.cmd('AdtPreview')
T.wait('the preview', function() return vim.bo.filetype == 'abap-adt-preview'
  and #vim.api.nvim_buf_get_lines(0, 0, -1, false) > 2 end)
T.out.preview = vim.api.nvim_buf_get_lines(0, 0, -1, false)
"""
)


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return cds_emulator(tmp_path)


def test_open_complete_save_activate_with_dependency_preview(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    asyncio.run(new_inactive_table_and_view(emulator))
    seen: dict[str, str | None] = {}

    def still_inactive() -> None:
        seen["active view"] = emulator.source(VIEW_SOURCE_URL, version="active")

    result = run_nvim(tmp_path, emulator_url, STEPS, on_sync={"dismissed": still_inactive})
    assert (result["filetype"], result["syntax"]) == ("abap-cds", "abap-cds")
    assert {"CITY", "TRIP_ID"} <= set(result["completion"]), result["completion"]
    stored = emulator.source(VIEW_SOURCE_URL)
    assert stored is not None and stored.splitlines()[3] == FIELD_LINE
    assert seen == {"active view": None}  # dismissed: nothing was activated
    question = result["questions"][0]
    assert question["items"] == ["activate together", "cancel"]
    assert "ZTRIP (TABL/DT)" in question["prompt"] and "ZI_TRIP" in question["prompt"]
    said = "abap-adt: ZI_TRIP not activated: it uses ZTRIP (TABL/DT), which is not active"
    assert texts(result).count(said) == 2  # each :AdtActivate says so before asking
    assert_both_active(emulator)
    assert result["preview"] == [
        "TRIPID* | CITY",
        "--------+-----",
        *(f"{n:04d}    | {city}" for n, city in enumerate(CITIES, start=1)),
        "",
        "ZI_TRIP: rows 1-5 of 5",
    ]
    assert emulator.locks() == []


def test_activate_with_bang_activates_the_inactive_table_without_asking(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    asyncio.run(new_inactive_table_and_view(emulator))
    steps = f"""
vim.cmd('edit {VIEW_URI}')
T.wait('the view', function() return T.text():find('ZI_Trip') ~= nil end)
vim.cmd('AdtActivate!')
T.wait_message('activated ZTRIP, ZI_TRIP')
"""
    result = run_nvim(tmp_path, emulator_url, steps)
    assert result["questions"] == []
    assert_both_active(emulator)
    assert emulator.locks() == []


NEW_FROM_TEMPLATES = f"""
T.out.kinds = require('abap_adt.create').kind_names()
local function made(kind, name, inputs, answer, path)
  T.inputs = inputs
  T.answers = {{ answer }}
  vim.cmd('AdtNew ' .. kind .. ' ' .. name)
  T.wait('the new ' .. kind, function()
    return vim.api.nvim_buf_get_name(0):find(path, 1, true) ~= nil and #T.text() > 0
  end, 30000)
  T.out[kind] = {{ name = vim.api.nvim_buf_get_name(0), filetype = vim.bo.filetype }}
end
made('dataDefinition', '{NEW_VIEW.lower()}', {{ 'Trips', '{TRANSPORTABLE.lower()}', 'ztrip' }},
  'Create new request', '{NEW_URLS["dataDefinition"]}')
-- the package of the current buffer is the default; the request made for the view is offered
made('behaviorDefinition', '{NEW_VIEW.lower()}', {{ 'Trips', true }}, 1,
  '{NEW_URLS["behaviorDefinition"]}')
made('serviceDefinition', '{NEW_SERVICE.lower()}', {{ 'Trips', true, '{NEW_VIEW.lower()}' }}, 1,
  '{NEW_URLS["serviceDefinition"]}')
"""


def test_new_view_behavior_and_service_from_templates(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """:AdtNew offers every kind the server creates; a data definition and a service
    definition ask what they build on, the transport question comes for the transportable
    package, and each new object opens with its filled template and filetype."""
    asyncio.run(new_inactive_table_and_view(emulator))
    result = run_nvim(tmp_path, emulator_url, NEW_FROM_TEMPLATES)
    assert result["kinds"] == list(KINDS)
    prompts = [p["prompt"] for p in result["inputs"]]
    assert prompts[2] == "abap-adt: table or CDS view it selects from (empty: fill it in later): "
    assert prompts[-1] == "abap-adt: CDS entity it exposes (empty: fill it in later): "
    assert len(prompts) == 3 + 2 + 3  # a behavior definition asks no basis: its own name
    assert [q["items"][-1] for q in result["questions"]] == ["Create new request…"] * 3
    filetypes = {kind: result[kind]["filetype"] for kind in NEW_URLS}
    assert filetypes == {
        "dataDefinition": "abap-cds",
        "behaviorDefinition": "abap-bdef",
        "serviceDefinition": "abap-srvd",
    }
    assert_created_from_templates(emulator)
    assert emulator.locks() == []
