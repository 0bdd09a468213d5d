""":AdtMessage on a message class in a transportable package and on no request, in real
Neovim against the real language server and the emulator: the server's transport question
(vim.ui.select) names the class and its package, the chosen request takes the message, and
the next message goes there without a question."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from support.emulated import make_client
from support.nvim_driver import SYSTEM, run_nvim
from support.transportable_msag import (
    MSAG,
    NAME,
    PACKAGE,
    recorded_on,
    release_seeded_request,
    transportable_message_class,
)

from adt.emulator import Emulator

pytestmark = [pytest.mark.nvim]

STEPS = f"""
vim.cmd('edit adt://{SYSTEM}{MSAG}')
T.wait('the class', function() return T.text():find('msgno="002"') ~= nil end)
T.answers = {{ REQUEST }}
vim.cmd('AdtMessage 7 Trip ok')
T.wait('the buffer to follow', function() return T.text():find('Trip ok') ~= nil end)
vim.cmd('AdtMessage 7 Trip fine')
T.wait('the second message', function() return T.text():find('Trip fine') ~= nil end)
"""


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return transportable_message_class(tmp_path)


async def _messages(emulator: Emulator) -> list[dict[str, str]]:
    async with make_client(emulator) as adt:
        return list((await adt.dictionary.read(MSAG)).fields["messages"])


def test_a_message_goes_on_the_request_the_user_picks(
    tmp_path: Path, emulator: Emulator, emulator_url: str
) -> None:
    asyncio.run(release_seeded_request(emulator))
    request = emulator.create_transport_request("Messages")
    steps = STEPS.replace("REQUEST", repr(request))
    result = run_nvim(tmp_path, emulator_url, steps)
    assert result["ok"], result.get("error")
    (question,) = result["questions"]
    assert NAME in question["prompt"] and PACKAGE in question["prompt"]
    assert any(item.startswith(request) for item in question["items"])
    assert {"number": "007", "text": "Trip fine"} in asyncio.run(_messages(emulator))
    assert recorded_on(emulator, request)
    assert emulator.locks() == []
