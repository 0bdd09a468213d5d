"""The soak's renames: an editor renames the counter's attribute from its buffer, as F2 does.

The server plans the rename on the saved source and places it in the buffer (with the
buffer's unsaved marker lines); the editor applies it — or, as VS Code's refactor preview
allows, only part of it — and the server writes it only when the buffer holds the whole
plan (:meth:`Renaming.unapplied`), all or nothing, token-checked under its lock. A part left
out is undone by the editor's user (Ctrl+Z), a refused write too. Faults strike these writes
like every other. What must hold: the counter's source never mixes the old and the new name
(a *rename violation*), and the marker lines a rename wrote join the lost/doubled check.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from adt.errors import AdtError
from lsp_server.buffer import apply_edits
from lsp_server.workspace import EditorWorkspace

RENAME_OBJECT = "/sap/bc/adt/oo/classes/zcl_demo_counter"
NAMES = ("mv_value", "mv_count")


class Editor(Protocol):
    texts: dict[str, str]

    def change(self, uri: str, text: str) -> None: ...


class Tally(Protocol):
    counts: Any
    accepted: dict[str, list[str]]

    def accept(self, object_url: str, marker: str) -> None: ...


def mixed(text: str) -> bool:
    """Whether a source holds both names: a rename written in part."""
    lowered = text.lower()
    return all(name in lowered for name in NAMES)


async def rename(
    workspace: EditorWorkspace,
    editor: Editor,
    uri: str,
    tally: Tally,
    rng: random.Random,
    markers: Callable[[str], set[str]],
) -> None:
    """Rename the attribute to the other name; apply all of it, or (one time in three) all
    but one change, as a user unticking a change in the preview."""
    text = editor.texts[uri]
    old, new = NAMES if NAMES[0] in text.lower() else NAMES[::-1]
    lines = text.split("\n")
    line = next((i for i, line in enumerate(lines) if f"data {old}" in line.lower()), None)
    if line is None:  # only a rename written in part leaves it elsewhere: judged at the end
        tally.counts["renames not started: the declaration is gone"] += 1
        return
    try:
        plan = await workspace.renaming.plan(uri, (line, lines[line].lower().index(old) + 1), new)
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
    done = set(tally.accepted[RENAME_OBJECT])
    for marker in sorted(markers(workspace.documents.require(uri).buffer.base_text) - done):
        tally.accept(RENAME_OBJECT, marker)


def _undo(editor: Editor, before: dict[str, str]) -> None:
    for uri, text in before.items():
        if editor.texts.get(uri) != text:
            editor.change(uri, text)
