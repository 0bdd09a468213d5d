"""A CDS view in real Neovim against the real language server and the emulator: the buffer
gets the abap-cds filetype and our syntax, completion offers the table's fields, :write saves
a token-checked patch, activation with the inactive table under it succeeds, and :AdtPreview
shows the rows in a scratch buffer as a table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cds_abapgit import write_samples
from support.emulated import USERS, make_client
from support.nvim_driver import SYSTEM, run_nvim

from adt.emulator import Emulator

pytestmark = [pytest.mark.nvim]

TABLE = "/sap/bc/adt/ddic/tables/ztrip"
VIEW = "/sap/bc/adt/ddic/ddl/sources/zi_trip"
VIEW_URI = f"adt://{SYSTEM}{VIEW}/source/main"
TABLE_SOURCE = (
    "define table ztrip {\n  key client : abap.clnt not null;\n"
    "  key trip_id : abap.numc(4) not null;\n  city : abap.char(20);\n}\n"
)
VIEW_SOURCE = (
    "define view entity ZI_Trip as select from ztrip\n{\n  key trip_id as TripID,\n  \n}\n"
)
ROWS = [
    {"CLIENT": "001", "TRIP_ID": f"{n:04d}", "CITY": city}
    for n, city in enumerate(["Rome", "Oslo", "Lima"], start=1)
]

STEPS = f"""
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
vim.api.nvim_buf_set_lines(0, 3, 4, false, {{ '      city as City' }})
vim.cmd('write')
T.wait('the save', function() return not vim.bo.modified end)
local uri = vim.api.nvim_buf_get_name(0)
local activated = vim.lsp.buf_request_sync(0, 'workspace/executeCommand', {{
  command = 'adt.activate', arguments = {{ uri, {{ '{TABLE}' }} }} }}, 20000)
for _, answer in pairs(activated or {{}}) do
  T.out.activated = answer.result and answer.result.activated
end
vim.cmd('AdtPreview')
T.wait('the preview', function() return vim.bo.filetype == 'abap-adt-preview'
  and #vim.api.nvim_buf_get_lines(0, 0, -1, false) > 2 end)
T.out.preview = vim.api.nvim_buf_get_lines(0, 0, -1, false)
"""


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    data = tmp_path / "data"
    data.mkdir()
    (data / "ztrip.tabu.json").write_text(json.dumps(ROWS), encoding="utf-8")
    return Emulator(users=USERS, seed_dirs=[write_samples(tmp_path / "$zcds")])


async def _new_inactive_table_and_view(emulator: Emulator) -> None:
    async with make_client(emulator) as adt:
        for kind, url, name, source in (
            ("TABL/DT", TABLE, "ZTRIP", TABLE_SOURCE),
            ("DDLS/DF", VIEW, "ZI_TRIP", VIEW_SOURCE),
        ):
            await adt.objects.create(kind, name, description="Trips", package="$ZCDS")
            async with adt.locked(url) as held:
                await adt.write_source(f"{url}/source/main", source, lock_handle=held.handle)


def test_open_complete_save_activate_preview(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    import asyncio

    asyncio.run(_new_inactive_table_and_view(emulator))
    result = run_nvim(tmp_path, emulator_url, STEPS)
    assert (result["filetype"], result["syntax"]) == ("abap-cds", "abap-cds")
    assert {"CITY", "TRIP_ID"} <= set(result["completion"]), result["completion"]
    stored = emulator.source(f"{VIEW}/source/main")
    assert stored is not None and "city as City" in stored
    assert result["activated"] is True
    assert result["preview"] == [
        "TRIPID* | CITY",
        "--------+-----",
        "0001    | Rome",
        "0002    | Oslo",
        "0003    | Lima",
        "",
        "ZI_TRIP: rows 1-3 of 3",
    ]
    assert emulator.locks() == []
