"""A CDS element renamed from ABAP with Neovim's own ``vim.lsp.buf.rename()`` (grn), in real
Neovim against the real language server and the emulator: the cursor on ``totalprice`` in a
report's ``SELECT … FROM zc_travel`` fills the prompt with the element's name, and the
rename reaches the view, its projection and the behavior, written and activated, no lock
left, the report's buffer not modified without a save."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cds_loop import cds_emulator
from support.nvim_driver import run_nvim

from adt.emulator import Emulator
from adt.urls import object_url

pytestmark = [pytest.mark.nvim]

REPORT = object_url("PROG/P", "ZR_TRAVELS") + "/source/main"
VIEW = object_url("DDLS/DF", "ZI_TRAVEL") + "/source/main"
BEHAVIOR = object_url("BDEF/BDO", "ZI_TRAVEL") + "/source/main"

RENAME = """
vim.cmd('AdtOpen zr_travels')
vim.fn.search('totalprice')
T.inputs = { 'GrossPrice' }
vim.lsp.buf.rename()
T.wait_message('Renamed TotalPrice to GrossPrice', 30000)
T.wait('a clean buffer', function() return not vim.bo.modified end)
T.state('report')
"""


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    seed = tmp_path / "seed"
    seed.mkdir()
    return cds_emulator(seed)


def test_an_element_renamed_from_abap_with_grn(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    result = run_nvim(tmp_path, emulator_url, RENAME)
    assert result["ok"], result["error"]
    assert result["inputs"][0]["default"] == "TotalPrice", "prepareRename filled the prompt"
    report = emulator.source(REPORT, "active") or ""
    assert "SELECT travelid, GrossPrice FROM zc_travel" in report
    assert result["report"]["text"] == report, "the buffer shows what was written"
    assert "total_price   as GrossPrice," in (emulator.source(VIEW, "active") or "")
    assert "{ field GrossPrice; }" in (emulator.source(BEHAVIOR, "active") or "")
    assert emulator.locks() == []
