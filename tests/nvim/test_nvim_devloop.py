"""The development loop in real Neovim against the real language server and the emulator:
unit tests (command and code lens), ATC, the transport question on save, new objects,
comparing versions."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.emulated import USERS, make_client
from support.nvim_driver import REPORT_SOURCE, REPORT_URI, SYSTEM, run_nvim, texts

from adt.emulator import Emulator, samples_dir
from adt.emulator.emulator import quality_samples_dir

pytestmark = [pytest.mark.nvim]

VAT = "/sap/bc/adt/oo/classes/zcl_demo_vat"
LEGACY = "/sap/bc/adt/programs/programs/zdemo_qa_legacy"
TR_REPORT = "/sap/bc/adt/programs/programs/zdemo_tr_report"


@pytest.fixture
def quality() -> Emulator:
    """The samples plus the quality set: a failing unit test, ATC findings."""
    return Emulator(seed_dirs=[samples_dir(), quality_samples_dir()], users=USERS)


@pytest.fixture
def quality_url(quality: Emulator) -> Iterator[str]:
    with quality.serve_in_thread() as base_url:
        yield base_url


# Diagnostics and quickfix items as plain tables.
PICK = """
local function diagnostics(source)
  return vim.tbl_map(function(d)
    return { lnum = d.lnum, message = d.message, severity = d.severity, code = d.code }
  end, vim.tbl_filter(function(d) return d.source == source end, vim.diagnostic.get(0)))
end
local function quickfix()
  return vim.tbl_map(function(item)
    return { name = vim.api.nvim_buf_get_name(item.bufnr), lnum = item.lnum, text = item.text,
             type = item.type }
  end, vim.fn.getqflist())
end
local function messages_since(count)
  return vim.tbl_map(function(m) return m.text end, vim.list_slice(T.out.messages, count + 1))
end
"""

UNIT_AND_ATC = (
    PICK
    + """
vim.cmd('AdtOpen zcl_demo_vat testclasses')
T.wait('the code lenses', function() return #vim.lsp.codelens.get(0) > 0 end)
T.out.lenses = vim.tbl_map(function(lens)
  return { line = lens.range.start.line, title = lens.command.title,
           arguments = lens.command.arguments }
end, vim.lsp.codelens.get(0))

local count = #T.out.messages
vim.cmd('AdtTest')
T.wait_message('in the quickfix list')
T.wait('the failures', function() return #diagnostics('abap-unit') > 0 end)
T.out.test = { messages = messages_since(count), diagnostics = diagnostics('abap-unit'),
               quickfix = quickfix(), title = vim.fn.getqflist({ title = 1 }).title }

-- the lens over the failing method runs just that method
local failing = T.out.test.diagnostics[1].lnum
local lens_line
for _, lens in ipairs(vim.lsp.codelens.get(0)) do
  local line = lens.range.start.line
  if line <= failing and (lens_line == nil or line > lens_line) then
    lens_line = line
  end
end
vim.api.nvim_win_set_cursor(0, { lens_line + 1, 0 })
count = #T.out.messages
vim.lsp.codelens.run()
T.wait('the lens run', function()
  for _, text in ipairs(messages_since(count)) do
    if text:find('quickfix list', 1, true) then return true end
  end
end)
T.out.lens_run = messages_since(count)

vim.cmd('AdtOpen zdemo_qa_legacy')
count = #T.out.messages
vim.cmd('AdtAtc')
T.wait_message('ATC:')
T.wait('the findings', function() return #diagnostics('atc') > 0 end)
-- the unit tests' list is there already: wait for the ATC's own, set just before its summary
T.wait('the ATC quickfix list', function()
  return vim.fn.getqflist({ title = 0 }).title:find('^ATC: ') ~= nil
end)
T.out.atc = { messages = messages_since(count), diagnostics = diagnostics('atc'),
              quickfix = quickfix() }
"""
)


def test_unit_tests_and_atc(tmp_path: Path, quality: Emulator, quality_url: str) -> None:
    """:AdtTest, a code lens and :AdtAtc: the server's summary, diagnostics where the test
    failed or the finding is, the places in the quickfix list."""
    result = run_nvim(tmp_path, quality_url, UNIT_AND_ATC)
    testclasses = f"adt://{SYSTEM}{VAT}/includes/testclasses"
    lenses = result["lenses"]
    assert {lens["title"] for lens in lenses} == {"Run tests", "Run test"}
    assert all(lens["arguments"][0] == testclasses for lens in lenses)

    test = result["test"]
    assert "abap-adt: unit tests of ZCL_DEMO_VAT ..." in test["messages"]
    assert any(m.startswith("abap-adt: ABAP Unit: ") and "1 failed" in m for m in test["messages"])
    # the summary stays the last word, with the quickfix hint after it (N4)
    assert test["messages"][-1].startswith("abap-adt: ABAP Unit: ")
    assert test["messages"][-1].endswith("1 failed; 1 place in the quickfix list (:copen)")
    [failure] = test["diagnostics"]
    assert failure["severity"] == 1 and "RATE_IS_NINETEEN" in failure["message"].upper()
    source = quality.source(f"{VAT}/includes/testclasses")
    assert source is not None
    assert "zcl_demo_vat=>c_rate_percent" in source.split("\n")[failure["lnum"]]
    [item] = test["quickfix"]
    assert item["name"] == testclasses and item["lnum"] == failure["lnum"] + 1
    assert test["title"] == "ABAP Unit: ZCL_DEMO_VAT"

    lens_run = result["lens_run"]
    assert any("RATE_IS_NINETEEN" in m.upper() and m.endswith("...") for m in lens_run)
    assert any(m.startswith("abap-adt: ABAP Unit: 0 passed, 1 failed") for m in lens_run)

    atc = result["atc"]
    assert any(m.startswith("abap-adt: ATC: ") for m in atc["messages"]), atc["messages"]
    summary = r"abap-adt: ATC: \d+ findings?; \d+ places? in the quickfix"
    assert re.match(summary, atc["messages"][-1]), atc["messages"]
    assert atc["diagnostics"] and len(atc["quickfix"]) >= len(atc["diagnostics"])
    legacy = f"adt://{SYSTEM}{LEGACY}/source/main"
    placed = [item for item in atc["quickfix"] if item["name"] == legacy]
    assert sorted(i["lnum"] - 1 for i in placed) == sorted(d["lnum"] for d in atc["diagnostics"])
    severities = {"E": 1, "W": 2, "I": 3}
    assert sorted(severities[i["type"]] for i in placed) == sorted(
        d["severity"] for d in atc["diagnostics"]
    )


TRANSPORT_ON_SAVE = """
vim.cmd('AdtOpen zdemo_tr_report')
vim.cmd('normal! Go* first change')
T.answers = { 'Create new request' }
vim.cmd('write')
T.state('deferred')
T.wait('the save', function() return not vim.bo.modified end)
T.state('saved')
vim.cmd('normal! Go* second change')
vim.cmd('write')
T.state('again')
vim.cmd('AdtTransport')         -- the object is on the request made for the save now
T.wait_message('already')
T.out.chosen = vim.b.abap_adt.transport
T.out.questions_seen = #T.out.questions
"""


async def _release_sample_requests(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        for number in ("A4HK900102", "A4HK900101"):  # the task, then its request
            assert (await client.transports.release(number)).status == "released"


async def test_transport_question_on_save(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """ZDEMO_TR_REPORT is in a transported package and on no open request: :w stops
    waiting, the question comes, the answer completes the save; the next :w saves at once;
    :AdtTransport names the request the object is on now."""
    await _release_sample_requests(emulator)
    original = emulator.source(f"{TR_REPORT}/source/main")
    result = run_nvim(tmp_path, emulator_url, TRANSPORT_ON_SAVE)

    assert result["deferred"]["modified"] is True
    assert "abap-adt: ZDEMO_TR_REPORT: answer the question; the save finishes then" in texts(result)
    question = result["questions"][0]
    assert "ZDEMO_TR_REPORT" in question["prompt"] and "transport request" in question["prompt"]
    assert question["items"][-1] == "Create new request…"
    assert result["saved"]["modified"] is False
    assert any(t.startswith("abap-adt: saved ZDEMO_TR_REPORT (1 change)") for t in texts(result))
    assert result["again"]["modified"] is False
    assert result["questions_seen"] == 1, "neither the second save nor :AdtTransport asked"

    requests = [r for r in emulator.transport_requests() if r.status == "D"]
    [request] = [r for r in requests if ("PROG", "ZDEMO_TR_REPORT") in _objects(r)]
    assert result["chosen"] == request.number
    assert (
        f"abap-adt: ZDEMO_TR_REPORT is on request {request.number} already: its changes go there"
        in texts(result)
    )
    stored = emulator.source(f"{TR_REPORT}/source/main")
    assert stored == result["again"]["text"]
    assert stored is not None and original is not None
    assert [line.strip() for line in stored.split("\n")] == [
        *(line.strip() for line in original.split("\n")),
        "* first change",
        "* second change",
    ]
    assert emulator.locks() == []


def _objects(request: object) -> set[tuple[str, str]]:
    return {(o.type, o.name) for o in request.objects}  # type: ignore[attr-defined]


NEW_OBJECTS = """
vim.cmd('AdtOpen zdemo_tr_report')     -- its package is the default for new objects
T.inputs = { 'Made in Neovim', true }
T.answers = { 'Create new request' }
vim.cmd('AdtNew class zcl_demo_made')
T.wait('the new class', function()
  return vim.api.nvim_buf_get_name(0):find('zcl_demo_made', 1, true) ~= nil
end)
T.state('created')
T.out.created_details = vim.b.abap_adt
-- the kind and name asked, the question dismissed: nothing is created
T.answers = { false }
local done = false
require('abap_adt').new(nil, nil, function() done = true end)
T.wait('the dismissal', function() return done end)
T.out.cancelled_buffer = vim.api.nvim_buf_get_name(0)
"""


def test_new_object(tmp_path: Path, emulator: Emulator, emulator_url: str) -> None:
    """:AdtNew class NAME asks the description and the package (the current object's as
    default), the server asks for a transport request, the new class opens."""
    result = run_nvim(tmp_path, emulator_url, NEW_OBJECTS)
    prompts = result["inputs"]
    assert [p["prompt"] for p in prompts] == [
        "abap-adt: description of ZCL_DEMO_MADE: ",
        "abap-adt: package: ",
    ]
    assert prompts[1]["default"] == "ZDEMO_TR"
    created = result["created"]
    uri = f"adt://{SYSTEM}/sap/bc/adt/oo/classes/zcl_demo_made/source/main"
    assert created["name"] == uri and created["attached"] and created["modified"] is False
    assert "CLASS zcl_demo_made DEFINITION" in created["text"].replace(
        "ZCL_DEMO_MADE", "zcl_demo_made"
    )
    assert "/sap/bc/adt/oo/classes/zcl_demo_made" in emulator.objects()
    made = [t for t in texts(result) if t.startswith("abap-adt: created class ZCL_DEMO_MADE")]
    assert made and "in ZDEMO_TR, transport request A4HK" in made[0]
    assert result["questions"][0]["items"][-1] == "Create new request…"
    assert result["questions"][1]["prompt"] == "abap-adt: create which kind of object?"
    assert result["cancelled_buffer"] == uri
    assert "abap-adt: nothing created" in texts(result)


COMPARE = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
local source = vim.api.nvim_get_current_win()
vim.cmd('normal! ggO* unsaved line')
local function windows()
  return vim.tbl_map(function(win)
    local buf = vim.api.nvim_win_get_buf(win)
    return {{ name = vim.api.nvim_buf_get_name(buf), diff = vim.wo[win].diff,
             text = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), '\\n'),
             modifiable = vim.bo[buf].modifiable }}
  end, vim.api.nvim_tabpage_list_wins(0))
end
local scratch
require('abap_adt').compare(0, 'active', function(buf) scratch = buf end)
T.wait('the active version', function() return scratch ~= nil end)
T.out.active = windows()
vim.api.nvim_buf_delete(scratch, {{ force = true }})
T.out.after_close = {{ diff = vim.wo[source].diff, windows = #vim.api.nvim_tabpage_list_wins(0) }}
-- without a version: pick one of the history
T.answers = {{ 2 }}
scratch = nil
vim.api.nvim_set_current_win(source)
require('abap_adt').compare(0, nil, function(buf) scratch = buf end)
T.wait('the older version', function() return scratch ~= nil end)
T.out.older = windows()
"""


def test_compare_with_versions(tmp_path: Path, emulator: Emulator, emulator_url: str) -> None:
    """:AdtCompare active puts the active version beside the buffer in diff mode; closing it
    ends the diff; without a version the history is offered."""
    original = emulator.source(REPORT_SOURCE)
    assert original is not None
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, original + "\n* COLLEAGUE's activated line")
    emulator.activate_all()
    current = emulator.source(REPORT_SOURCE)
    result = run_nvim(tmp_path, emulator_url, COMPARE)

    scratch, source = result["active"]
    assert scratch["name"] == "adt-version://ZDEMO_REPORT/active version"
    assert scratch["text"] == current and scratch["modifiable"] is False
    assert source["name"] == REPORT_URI and source["text"] == "* unsaved line\n" + current
    assert scratch["diff"] and source["diff"]
    assert result["after_close"] == {"diff": False, "windows": 1}

    question = result["questions"][0]
    assert question["prompt"] == "abap-adt: compare ZDEMO_REPORT with"
    assert len(question["items"]) >= 2, question
    older, _ = result["older"]
    assert older["text"] == original, question["items"]
