"""A save rebased over a colleague's change (``mergeOnSave: auto``): the server now holds
the user's change on top of theirs, so the editor is moved to that text and told whose lines
were kept and where. The move must not lose keystrokes typed while the save ran: they are
merged in as the user's side; if they meet the colleague's lines, or the editor moves on
again, the saved version is recorded as a conflict and the usual question resolves it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from adt.source.errors import VersionConflict
from adt.source.linediff import differences
from adt.text import split_lines
from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument, RemoteVersion
from lsp_server.editor import Severity
from lsp_server.merge import diff_hunks, merge

if TYPE_CHECKING:
    from adt.source import WriteOutcome


async def show_merged(
    ctx: WorkspaceContext, doc: OpenDocument, snapshot: str, outcome: WriteOutcome
) -> VersionConflict | None:
    """Move the editor from ``snapshot`` (what was saved from) to the saved, merged text and
    tell the user; returns the conflict to resolve when the editor could not follow."""
    over = outcome.rebased_over or {}
    who = over.get("changedBy")
    doc.conflict, doc.conflict_findings = None, []
    base = split_lines(snapshot)
    saved = split_lines(outcome.text)
    theirs = diff_hunks(base, saved)  # the saved text is the snapshot plus their change
    shown = merge(base, diff_hunks(base, doc.buffer.lines), theirs)
    if shown.clean and await ctx.documents.move_editor_to(
        doc, shown.text, outcome.token, "abap-adt: merged", base=outcome.text
    ):
        ctx.editor.notify(Severity.INFO, merged_message(doc.uri, who, base, saved))
        return None
    # The save stands; the buffer keeps its text and its old base, and the saved version is
    # what it conflicts with (a merge then finds the user's own lines on both sides).
    doc.conflict = RemoteVersion(outcome.text, outcome.token, who)
    return VersionConflict(
        f"saved, merged with the change{_by(who)} made since your version, but the editor "
        "changed meanwhile so it could not show the result; your edits are kept: merge or "
        "reload to follow the saved version",
        changedBy=who,
        currentToken=outcome.token,
        saved=True,
    )


def not_merged(overlap: Any) -> str:
    """Why a save was not merged automatically: the lines where the colleague's change meets
    the user's (a rebase refusal's ``overlap``); empty when there is none."""
    if not isinstance(overlap, dict):
        return ""
    theirs = [_lines(r) for r in overlap.get("theirLines", [])]
    yours = [_lines(r) for r in overlap.get("yourLines", [])]
    return (
        f"Their change of lines {', '.join(theirs)} is next to or inside yours (lines "
        f"{', '.join(yours)} of your version), so it was not merged automatically. "
    )


def _lines(pair: Sequence[int]) -> str:
    start, end = pair
    if end < start:
        return f"before {start}"
    return str(start) if start == end else f"{start}-{end}"


def merged_message(uri: str, who: str | None, base: Sequence[str], saved: Sequence[str]) -> str:
    """``Saved X, merged with the change by Y since your version (now lines 4-6, 12).``"""
    places = [_place(j1, j2) for _, _, j1, j2 in differences(base, saved)]
    where = f" (their lines: {', '.join(places)})" if places else ""
    return f"Saved {uri}, merged with the change{_by(who)} made since your version{where}."


def _place(j1: int, j2: int) -> str:
    if j2 == j1:
        return f"removed before {j1 + 1}"
    return str(j1 + 1) if j2 == j1 + 1 else f"{j1 + 1}-{j2}"


def _by(who: str | None) -> str:
    return f" by {who}" if who else ""
