"""Nothing lost across a language-server restart (issue 18, N1/N2), end to end: a buffer read
and edited with one server process is reopened in a *new* server process with its unsaved
text, and ``adt/restoreDocument`` hands over the version it was read at. A colleague's change
in between must end in the conflict question, never in a save that reverts it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

SYSTEM = "A4H"
REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
SOURCE = f"{REPORT}/source/main"
REPORT_URI = f"adt://{SYSTEM}{SOURCE}"

NewServer = Callable[[], Awaitable[EditorClient]]


def _stored(emulator: Emulator) -> str:
    text = emulator.source(SOURCE)
    assert text is not None
    return text


def _replace_line(client: EditorClient, line: int, text: str) -> None:
    old = client.texts[REPORT_URI].split("\n")[line]
    client.edit(REPORT_URI, (line, 0), (line, len(old)), text)


async def _edit_then_restart(
    client: EditorClient, emulator: Emulator, new_server: NewServer, *, colleague: bool
) -> tuple[dict[str, Any], EditorClient]:
    """Read and edit line 2 in the first server; a colleague changes line 8 (when asked);
    the edited buffer is opened in a new server. Returns the first read and the new
    client."""
    read = await client.open(REPORT_URI)
    _replace_line(client, 1, "* MY edit, unsaved when the server restarted")
    await client.sync(REPORT_URI)
    if colleague:
        lines = read["text"].split("\n")
        lines[7] = "* COLLEAGUE changed this line meanwhile"
        emulator.write_as("COLLEAGUE", SOURCE, "\n".join(lines))
    fresh = await new_server()
    fresh.open_text(REPORT_URI, client.texts[REPORT_URI])
    return read, fresh


async def test_a_colleagues_change_after_a_restart_is_a_conflict_and_merge_keeps_both(
    client: EditorClient, emulator: Emulator, new_server: NewServer
) -> None:
    read, fresh = await _edit_then_restart(client, emulator, new_server, colleague=True)
    theirs = _stored(emulator)
    restored = await fresh.request(
        "adt/restoreDocument",
        {"uri": REPORT_URI, "baseToken": read["token"], "baseText": read["text"]},
    )
    assert restored["status"] == "changed", restored
    assert restored["changedBy"] == "COLLEAGUE"
    assert restored["token"] != read["token"]
    fresh.answers.append("Merge")
    result = await fresh.save(REPORT_URI)
    assert result["status"] == "conflict", "a save against the current version reverts theirs"
    assert result["conflict"]["details"]["changedBy"] == "COLLEAGUE"
    assert "COLLEAGUE" in (await fresh.until(lambda: fresh.questions))[0].message
    await fresh.until(lambda: "MY edit" in _stored(emulator))
    stored = _stored(emulator).split("\n")
    assert stored[1] == "* MY edit, unsaved when the server restarted"
    assert stored[7] == "* COLLEAGUE changed this line meanwhile"
    assert len(stored) == len(theirs.split("\n"))
    await fresh.until(lambda: fresh.texts[REPORT_URI] == _stored(emulator))
    await fresh.until(lambda: emulator.locks() == [])


async def test_without_the_base_text_a_merge_marks_instead_of_guessing(
    client: EditorClient, emulator: Emulator, new_server: NewServer
) -> None:
    read, fresh = await _edit_then_restart(client, emulator, new_server, colleague=True)
    theirs = _stored(emulator)
    restored = await fresh.request(
        "adt/restoreDocument", {"uri": REPORT_URI, "baseToken": read["token"]}
    )
    assert restored["status"] == "baseUnknown", restored
    assert (await fresh.save(REPORT_URI))["status"] == "conflict"
    merged = await fresh.request("adt/resolveConflict", {"uri": REPORT_URI, "choice": "merge"})
    assert merged["status"] == "mergeConflicts", merged
    text = fresh.texts[REPORT_URI]
    assert "* MY edit, unsaved when the server restarted" in text
    assert "* COLLEAGUE changed this line meanwhile" in text
    assert _stored(emulator) == theirs, "nothing written while the markers are open"
    assert emulator.locks() == []


async def test_a_base_text_that_does_not_match_its_token_is_not_trusted(
    client: EditorClient, emulator: Emulator, new_server: NewServer
) -> None:
    read, fresh = await _edit_then_restart(client, emulator, new_server, colleague=True)
    restored = await fresh.request(
        "adt/restoreDocument",
        {"uri": REPORT_URI, "baseToken": read["token"], "baseText": _stored(emulator)},
    )
    assert restored["status"] == "baseUnknown"


async def test_without_a_colleague_the_save_goes_against_the_base(
    client: EditorClient, emulator: Emulator, new_server: NewServer
) -> None:
    read, fresh = await _edit_then_restart(client, emulator, new_server, colleague=False)
    restored = await fresh.request(
        "adt/restoreDocument", {"uri": REPORT_URI, "baseToken": read["token"]}
    )
    assert restored == {
        "uri": REPORT_URI,
        "status": "current",
        "token": read["token"],
        "changedBy": restored["changedBy"],
        "changedAt": read["changedAt"],
    }
    result = await fresh.save(REPORT_URI)
    assert result["status"] == "saved" and result["hunks"] == 1, result
    assert _stored(emulator) == fresh.texts[REPORT_URI]
    assert fresh.questions == []
    assert emulator.locks() == []


async def test_the_same_server_remembers_the_base_of_a_reopened_buffer(
    client: EditorClient, emulator: Emulator
) -> None:
    read = await client.open(REPORT_URI)
    _replace_line(client, 1, "* MY edit")
    mine = client.texts[REPORT_URI]
    client.close(REPORT_URI)
    lines = read["text"].split("\n")
    lines[7] = "* COLLEAGUE"
    emulator.write_as("COLLEAGUE", SOURCE, "\n".join(lines))
    client.open_text(REPORT_URI, mine)
    restored = await client.request(
        "adt/restoreDocument", {"uri": REPORT_URI, "baseToken": read["token"]}
    )
    assert restored["status"] == "changed"
    assert (await client.save(REPORT_URI))["status"] == "conflict"
    merged = await client.request("adt/resolveConflict", {"uri": REPORT_URI, "choice": "merge"})
    assert merged["status"] == "merged", merged
    assert _stored(emulator).split("\n")[1:8:6] == ["* MY edit", "* COLLEAGUE"]


async def test_nothing_to_save_only_when_the_server_has_the_same_text(
    client: EditorClient, emulator: Emulator, new_server: NewServer
) -> None:
    read = await client.open(REPORT_URI)
    theirs = read["text"] + "\n* COLLEAGUE appended this"
    emulator.write_as("COLLEAGUE", SOURCE, theirs)
    result = await client.save(REPORT_URI)
    assert result["status"] == "reloaded", "the buffer is behind: not 'unchanged'"
    assert client.texts[REPORT_URI] == theirs
    again = await client.save(REPORT_URI)
    assert again["status"] == "unchanged" and again["token"] == result["token"]

    # restored in a new server, unedited and behind: the save shows the server's version
    fresh = await new_server()
    fresh.open_text(REPORT_URI, read["text"])
    restored = await fresh.request(
        "adt/restoreDocument",
        {"uri": REPORT_URI, "baseToken": read["token"], "baseText": read["text"]},
    )
    assert restored["status"] == "changed"
    assert (await fresh.save(REPORT_URI))["status"] == "reloaded"
    assert fresh.texts[REPORT_URI] == theirs
    assert _stored(emulator) == theirs


async def test_a_failed_restore_refuses_the_save_until_restored(
    client: EditorClient, emulator: Emulator, new_server: NewServer
) -> None:
    read = await client.open(REPORT_URI)
    _replace_line(client, 1, "* MY edit")
    lines = read["text"].split("\n")
    lines[7] = "* COLLEAGUE"
    emulator.write_as("COLLEAGUE", SOURCE, "\n".join(lines))
    theirs = _stored(emulator)
    fresh = await new_server()
    emulator.faults.fail_next(500, count=50, method="GET", path_prefix=SOURCE)
    fresh.open_text(REPORT_URI, client.texts[REPORT_URI])
    restore = {"uri": REPORT_URI, "baseToken": read["token"], "baseText": read["text"]}
    with pytest.raises(JsonRpcException):
        await fresh.request("adt/restoreDocument", restore)
    emulator.faults.clear()
    refused = await fresh.save(REPORT_URI)
    assert refused["status"] == "error" and "restore" in refused["error"]["error"].lower()
    assert _stored(emulator) == theirs
    assert (await fresh.request("adt/restoreDocument", restore))["status"] == "changed"
    assert (await fresh.save(REPORT_URI))["status"] == "conflict"
    assert _stored(emulator) == theirs
