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
from urllib.parse import unquote

from adt.source.errors import InvalidArgument, WriteRefused
from adt.workbench.object_renaming import ObjectMove, moved_object

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


_OWN_NAME = re.compile(r"^\s*(?:CLASS|INTERFACE)\s+([\w/]+)", re.IGNORECASE)


async def own_name(call: ToolCall, object_url: str) -> tuple[str, int, int, str]:
    """Where a class or interface names itself (``CLASS zcl_x DEFINITION``): its main
    source, the line, the column and the text, for renaming the object by its name."""
    read = await call.service.get_source_v2(object_url)
    own = unquote(read.object_url.rstrip("/").rsplit("/", 1)[-1]).upper()
    for number, line in enumerate(read.content.split("\n"), start=1):
        match = _OWN_NAME.match(line)
        if match is not None and match.group(1).upper() == own:
            return read.source_url, number, match.start(1), read.content
    raise InvalidArgument(
        f"rename by name takes a class or interface (or ZCL_X=>PART); {object_url} is neither"
    )


def changed_objects(
    proposal: RenameProposal, tokens: dict[str, str], move: ObjectMove | None = None
) -> list[dict[str, Any]]:
    """Per object, its sources with the changed lines (and new tokens once written); a
    renamed class or interface under its new URL, with ``renamedFrom``."""
    by_object: dict[str, dict[str, Any]] = {}
    for source in proposal.affected:
        object_url, name, url = source.object_url, source.name, source.source_url
        if move is not None and object_url == move.old_url:
            object_url, name, url = move.new_url, move.new_name, move.new_source_url(url)
        entry = by_object.setdefault(
            object_url, {"objectUrl": object_url, "name": name, "sources": []}
        )
        if object_url != source.object_url:
            entry["renamedFrom"] = source.object_url
        row: dict[str, Any] = {
            "sourceUrl": url,
            "lines": sorted({r.line for r in source.replacements}),
            "places": len(source.replacements),
        }
        if url in tokens:
            row["token"] = tokens[url]
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
    move = moved_object(proposal)
    if move is not None:
        await call.workbench.object_renaming.check_name(move)
    if args.get("preview"):
        return {**summary, "written": False, "objects": changed_objects(proposal, {}, move)}
    await may_write_all(call, proposal, "rename", "F2, vim.lsp.buf.rename")
    if move is not None and call.may_create is not None:
        _, package = await call.service.object_identity(move.old_url)
        await call.may_create(move.new_url, move.new_name, package)
    edits = await renaming.saved_edits(proposal)
    transport = args.get("transport") or None
    if move is None:
        outcome = await renaming.write_all(edits, transport)
    else:
        outcome = await call.workbench.object_renaming.write_all(move, edits, transport)
    tokens = {w.source_url: w.token for w in outcome.written}
    return {
        **summary,
        "written": True,
        "objects": changed_objects(proposal, tokens, move),
        **activation_of(outcome),
    }
