"""``navigate`` with ``action: rename``: rename the symbol at a position (or a named part)
across every object that declares, implements or uses it.

ADT plans it (evaluate, preview); the write is all or nothing (:mod:`adt.workbench.renaming`):
every object locked and checked against the version the plan was made on, then written and
activated together. ``preview: true`` answers the plan without writing. The answer lists,
per object, the sources with their changed lines and new tokens (for further V2 writes).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from adt.source.errors import InvalidArgument, WriteRefused

if TYPE_CHECKING:
    from adt.agent.registry import ToolCall
    from adt.areas.refactoring import RenameProposal
    from adt.workbench.renaming import RenameOutcome

_NAME_END = re.compile(r"[\w/]*")


def _name_end(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    current = lines[line - 1] if 0 < line <= len(lines) else ""
    match = _NAME_END.match(current, column)
    return match.end() if match else column


def changed_objects(proposal: RenameProposal, tokens: dict[str, str]) -> list[dict[str, Any]]:
    by_object: dict[str, dict[str, Any]] = {}
    for source in proposal.affected:
        entry = by_object.setdefault(
            source.object_url, {"objectUrl": source.object_url, "name": source.name, "sources": []}
        )
        row: dict[str, Any] = {
            "sourceUrl": source.source_url,
            "lines": sorted({r.line for r in source.replacements}),
            "places": len(source.replacements),
        }
        if source.source_url in tokens:
            row["token"] = tokens[source.source_url]
        entry["sources"].append(row)
    return list(by_object.values())


def activation_of(outcome: RenameOutcome) -> dict[str, Any]:
    if outcome.activation_failure is not None:
        return {"activated": False, "activationError": outcome.activation_failure}
    activation = outcome.activation
    if activation is None or activation.success:
        return {"activated": activation is not None}
    errors = [f.to_dict() for f in activation.findings if f.is_error][:10]
    return {"activated": False, "activationErrors": errors}


async def may_write_all(call: ToolCall, proposal: RenameProposal, verb: str, how: str) -> None:
    """Every affected object answers to the write policy, and none may be open in the editor
    (its unsaved edits would be overwritten): refused before anything is locked."""
    for source in proposal.affected:
        if call.may_write is not None:
            await call.may_write(source.object_url)
        if call.view(source.source_url, None) is not None:
            raise WriteRefused(
                f"{verb} refused: {source.name} is open in the editor; {verb} there ({how}) "
                "so its unsaved edits are kept",
                objectUrl=source.object_url,
            )


async def rename(
    call: ToolCall, source_url: str, line: int, column: int, text: str, args: dict[str, Any]
) -> Any:
    """Plan, check the policy and the editor for every object, write all, activate."""
    new_name = str(args.get("newName") or "").strip()
    if not new_name:
        raise InvalidArgument("rename needs newName")
    renaming = call.workbench.renaming
    end = _name_end(text, line, column)
    proposal = await renaming.propose(
        source_url, line, column, end, new_name, str(args.get("transport") or "")
    )
    summary = {
        "oldName": proposal.old_name,
        "newName": proposal.new_name,
        "places": proposal.places,
    }
    if args.get("preview"):
        return {**summary, "written": False, "objects": changed_objects(proposal, {})}
    await may_write_all(call, proposal, "rename", "F2, vim.lsp.buf.rename")
    edits = await renaming.saved_edits(proposal)
    outcome = await renaming.write_all(edits, args.get("transport") or None)
    tokens = {w.source_url: w.token for w in outcome.written}
    return {
        **summary,
        "written": True,
        "objects": changed_objects(proposal, tokens),
        **activation_of(outcome),
    }
