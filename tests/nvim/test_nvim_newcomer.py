"""Neovim faults a new user met (issue 18, N3 and N5-N7), in real Neovim against the real
server and the emulator: ATC findings after the fix, the :AdtOpen picker and packages, the
package :AdtNew proposes, the message after a wrong password."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.emulated import USERS
from support.nvim_driver import SYSTEM, run_nvim, texts

from adt.emulator import Emulator, samples_dir
from adt.emulator.emulator import quality_samples_dir

pytestmark = [pytest.mark.nvim]

LEGACY = "/sap/bc/adt/programs/programs/zdemo_qa_legacy"


@pytest.fixture
def quality() -> Emulator:
    return Emulator(seed_dirs=[samples_dir(), quality_samples_dir()], users=USERS)


@pytest.fixture
def quality_url(quality: Emulator) -> Iterator[str]:
    with quality.serve_in_thread() as base_url:
        yield base_url


ATC_THEN_FIX = """
local function atc()
  return vim.tbl_map(function(d)
    return { lnum = d.lnum, text = vim.api.nvim_buf_get_lines(0, d.lnum, d.lnum + 1, false)[1] }
  end, vim.tbl_filter(function(d) return d.source == 'atc' end, vim.diagnostic.get(0)))
end
vim.cmd('AdtOpen zdemo_qa_legacy')
vim.cmd('AdtAtc')
T.wait('the findings', function() return #atc() > 0 end)
T.out.before = atc()
-- the fix moves every line: two lines inserted at the top, the first finding's line deleted
local first = T.out.before[1].lnum
vim.api.nvim_buf_set_lines(0, first, first + 1, false, {})
vim.api.nvim_buf_set_lines(0, 0, 0, false, { '* fixed', '* by me' })
vim.cmd('write')
T.wait_message('saved ZDEMO_QA_LEGACY')
local activated
require('abap_adt').activate(0, function() activated = true end)
T.wait('the activation', function() return activated end)
-- the old findings must go (before the fix they stayed, at their old line numbers)
T.out.gone = vim.wait(5000, function() return #atc() == 0 end, 10)
T.out.after = atc()
"""


def test_atc_findings_are_not_left_on_wrong_lines(
    tmp_path: Path, quality: Emulator, quality_url: str
) -> None:
    """N3: :AdtAtc, fix (lines move), save, activate: the old findings are gone instead of
    staying at their old line numbers."""
    result = run_nvim(tmp_path, quality_url, ATC_THEN_FIX)
    assert result["before"], "ATC found something"
    assert result["after"] == [], "findings of the old version are not shown at wrong lines"
    assert result["gone"] is True


OPEN_STAR = """
T.answers = { 'DEVC/K' }              -- the user picks a package, as a new user would
vim.cmd('AdtOpen *')
T.out.buffer = vim.api.nvim_buf_get_name(0)
T.answers = {}
vim.cmd('AdtOpen $zdemo')             -- only a package has this name
"""


def test_the_open_picker_offers_only_what_can_be_opened(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """N5: `:AdtOpen *` lists objects with a source; a package (which has none) is never
    offered, so picking cannot lead to the same question again."""
    result = run_nvim(tmp_path, emulator_url, OPEN_STAR)
    questions = result["questions"]
    assert len(questions) == 1, questions
    assert questions[0]["items"], "objects are offered"
    assert not any(item.startswith("DEVC/K") for item in questions[0]["items"])
    assert any("$ZDEMO is a package without a source" in t for t in texts(result)), texts(result)


NEW_IN_THIS_PACKAGE = """
vim.cmd('AdtOpen zdemo_report')       -- in $ZDEMO, a local package: no transport request
T.inputs = { 'Made first', true }
vim.cmd('AdtNew program zdemo_made_first')
T.wait('the new program', function()
  return vim.api.nvim_buf_get_name(0):find('zdemo_made_first', 1, true) ~= nil
end)
vim.cmd('AdtOpen zdemo_tr_report')    -- in ZDEMO_TR
T.inputs = { 'Made second', false }   -- look at the proposed package, then cancel
vim.cmd('AdtNew program zdemo_made_second')
T.wait('the package question', function() return #T.out.inputs == 4 end)
"""


def test_new_proposes_the_current_buffers_package(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """N6: after creating something in one package, :AdtNew in a buffer of another package
    proposes that buffer's package, as the README says (then the last one used)."""
    result = run_nvim(tmp_path, emulator_url, NEW_IN_THIS_PACKAGE)
    packages = [i["default"] for i in result["inputs"] if i["prompt"] == "abap-adt: package: "]
    assert packages == ["$ZDEMO", "ZDEMO_TR"], result["inputs"]


WRONG_PASSWORD = """
vim.cmd('AdtOpen zdemo_report')
vim.cmd('AdtOpen zdemo_report')       -- the client does not try the same password again
T.out.failed = #T.out.messages
-- the user does what the message says
require('abap_adt.config').options.init_options.systems[1].password = 'developer'
vim.cmd('AdtRestart')
vim.cmd('AdtOpen zdemo_report')
T.state('opened')
"""


def test_a_wrong_password_says_what_to_do(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """N7: after a wrong password the message says what to do in the user's words (correct
    it in setup(), :AdtRestart), never "create a new client"; doing that works."""
    system = {"name": SYSTEM, "url": emulator_url, "user": "DEVELOPER", "password": "wrong"}
    result = run_nvim(tmp_path, emulator_url, WRONG_PASSWORD, init_options={"systems": [system]})
    failures = texts(result)[: result["failed"]]
    assert failures and all(":AdtRestart" in t for t in failures if "logon" in t), failures
    assert sum("logon" in t for t in failures) == 2
    assert not any("new client" in t for t in texts(result))
    assert result["opened"]["name"].endswith("zdemo_report/source/main")
    assert result["opened"]["attached"] is True
