"""The soak's renames: an editor renames a local variable of the counter's test class from
its buffer, as F2 does.

The server plans the rename on the saved source and places it in the buffer; the editor
applies it — or, as VS Code's refactor preview allows, all of it but one change — and the
server writes it only when the buffer holds the whole plan (:meth:`Renaming.unapplied`), all
or nothing, token-checked under its lock. A part left out is undone by the editor's user
(Ctrl+Z), a refused write too. The test include is one no agent writes (agents write the
counter's main source), so renames get through between faults; the counter is still
activated with each. What must hold: the include never mixes the old and the new name (a
*rename violation*); it is judged at the end of the soak.
"""

from __future__ import annotations

import random
import re
from typing import Any, Protocol

from adt.errors import AdtError
from lsp_server.buffer import UTF16, apply_edits
from lsp_server.workspace import EditorWorkspace

RENAME_OBJECT = "/sap/bc/adt/oo/classes/zcl_demo_counter"
RENAME_SOURCE = f"{RENAME_OBJECT}/includes/testclasses"
RENAME_URI = f"adt://A4H{RENAME_SOURCE}"
NAMES = ("lo_cut", "lo_counter")
VIOLATION = "rename violations (a method with both names on the system)"


class Editor(Protocol):
    texts: dict[str, str]
    versions: dict[str, int]

    def change(self, uri: str, text: str) -> None: ...


class Tally(Protocol):
    counts: Any


def mixed(text: str) -> bool:
    """Whether a method of the source uses both names: a rename written in part. (Each test
    method declares its own variable, so the source as a whole may hold both.)"""
    methods: list[set[str]] = []
    for line in text.lower().split("\n"):
        words = set(re.findall(r"\w+", line))
        if line.strip().startswith("method "):
            methods.append(set())
        elif methods:
            methods[-1] |= words & set(NAMES)
    return any(len(names) > 1 for names in methods)


async def _opened(workspace: EditorWorkspace, editor: Editor) -> None:
    """The test include open in this server with the server's text (again after a restart,
    and after the other editor's rename: a clean buffer follows the server, as polling
    makes it do in an editor)."""
    doc = workspace.documents.get(RENAME_URI)
    if doc is not None and doc.dirty:
        return
    if doc is not None:
        workspace.did_close(RENAME_URI)
    read = await workspace.objects.read_document(RENAME_URI)
    editor.texts[RENAME_URI] = read.text
    editor.versions[RENAME_URI] = editor.versions.get(RENAME_URI, 0) + 1
    workspace.did_open(RENAME_URI, read.text, editor.versions[RENAME_URI], UTF16)


async def rename(
    workspace: EditorWorkspace, editor: Editor, tally: Tally, rng: random.Random
) -> None:
    """Rename the test's variable to the other name; apply all of it, or (one time in
    three) all but one change, as a user unticking a change in the preview."""
    try:
        await _opened(workspace, editor)
    except AdtError as exc:
        tally.counts[f"renames not started: include not read ({type(exc).__name__})"] += 1
        return
    await _attempt(workspace, editor, tally, rng)
    # and the user saves the include (Ctrl+S): what the buffer shows goes to the system
    try:
        saved = await workspace.save(RENAME_URI)
        tally.counts[f"include saved after a rename: {saved.status}"] += 1
        if mixed(workspace.documents.require(RENAME_URI).buffer.base_text):
            tally.counts[VIOLATION] += 1  # a rename on the system in part (a later one heals it)
    except AdtError as exc:
        tally.counts[f"include saved after a rename: {type(exc).__name__}"] += 1


async def _attempt(
    workspace: EditorWorkspace, editor: Editor, tally: Tally, rng: random.Random
) -> None:
    text = editor.texts[RENAME_URI]
    old, new = NAMES if f"data({NAMES[0]})" in text.lower() else NAMES[::-1]
    lines = text.split("\n")
    line = next(i for i, line in enumerate(lines) if f"data({old})" in line.lower())
    column = lines[line].lower().index(f"data({old})") + len("data(") + 1
    try:
        plan = await workspace.renaming.plan(RENAME_URI, (line, column), new)
    except AdtError as exc:  # a fault, a lock, a colleague's change: before the editor
        tally.counts[f"renames refused before the preview ({type(exc).__name__})"] += 1
        return
    before = dict(editor.texts)
    partial = rng.random() < 1 / 3
    for doc in plan.documents:
        edits = doc.edits[1:] if partial else doc.edits
        if doc.uri in editor.texts:
            editor.change(doc.uri, apply_edits(list(doc.lines), edits))
    if await workspace.renaming.unapplied(plan, within=0.0):
        tally.counts["renames left out in part: nothing written"] += 1
        _undo(editor, before)
        return
    try:
        await workspace.renaming.commit(plan)
    except AdtError as exc:
        tally.counts[f"renames refused at the write ({type(exc).__name__})"] += 1
        _undo(editor, before)
        return
    tally.counts["renames written"] += 1


def _undo(editor: Editor, before: dict[str, str]) -> None:
    for uri, text in before.items():
        if editor.texts.get(uri) != text:
            editor.change(uri, text)
