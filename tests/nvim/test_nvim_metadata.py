"""Metadata objects in real Neovim against the real language server and the emulator:
:AdtPublish publishes the service binding in the buffer and :AdtPublish! unpublishes it;
:AdtMessage adds a message to the message class in the buffer, the buffer follows, and a
buffer with unsaved changes is refused with its changes kept."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from support.emulated import USERS, make_client
from support.nvim_driver import SYSTEM, run_nvim

from adt.emulator import Emulator

pytestmark = [pytest.mark.nvim]

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kinds" / "$zkinds"
SRVB = "/sap/bc/adt/businessservices/bindings/zui_kinds_trip_o4"
MSAG = "/sap/bc/adt/messageclass/zkinds_msg"

STEPS = f"""
vim.cmd('edit adt://{SYSTEM}{SRVB}')
T.wait('the binding', function() return T.text():find('serviceBinding') ~= nil end)
vim.cmd('AdtPublish')
T.wait_message('Published ZUI_KINDS_TRIP_O4')
T.sync('published')
vim.cmd('AdtPublish!')
T.wait_message('Unpublished ZUI_KINDS_TRIP_O4')
vim.cmd('AdtMessage 9 Not a message class')
T.wait_message('not a message class')

vim.cmd('edit adt://{SYSTEM}{MSAG}')
T.wait('the class', function() return T.text():find('msgno="002"') ~= nil end)
vim.cmd('AdtMessage 9')
T.wait_message('usage: :AdtMessage')
vim.cmd('AdtMessage 9 Trip "&1" | saved')
T.wait_message('Message 9 saved')
T.wait('the buffer to follow', function() return T.text():find('msgno="009"') ~= nil end)
T.out.modified_after_message = vim.bo.modified
vim.api.nvim_buf_set_lines(0, 0, 0, false, {{ '<!-- mine -->' }})
vim.cmd('AdtMessage 10 lost')
T.wait_message('unsaved changes')
T.out.first_line = vim.api.nvim_buf_get_lines(0, 0, 1, false)[1]
"""


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(seed_dirs=[FIXTURE], users=USERS)


async def _facts(emulator: Emulator, url: str) -> dict[str, object]:
    async with make_client(emulator) as adt:
        return (await adt.dictionary.read(url)).fields


def test_publish_unpublish_and_a_message(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    seen: dict[str, object] = {}

    def published() -> None:
        seen["published"] = asyncio.run(_facts(emulator, SRVB))["published"]

    result = run_nvim(tmp_path, emulator_url, STEPS, on_sync={"published": published})
    assert result["ok"], result.get("error")
    assert seen["published"] is True
    assert asyncio.run(_facts(emulator, SRVB))["published"] is False
    messages = asyncio.run(_facts(emulator, MSAG))["messages"]
    assert {"number": "009", "text": 'Trip "&1" | saved'} in messages  # type: ignore[operator]
    assert not any(m["number"] == "010" for m in messages)  # type: ignore[union-attr]
    assert result["modified_after_message"] is False
    assert result["first_line"] == "<!-- mine -->"
    assert emulator.locks() == []
