"""``navigate`` with ``action: extract``: move the statements of lines startLine..endLine into
a new method (``newName``, else the name ADT proposes) and call it from where they were.

ADT plans it (:class:`adt.workbench.extraction.Extraction`: evaluate infers the signature,
preview answers the declaration, the call and the implementation); the write is the
rename's, all or nothing: every object locked and checked against the version the plan was
made on, written, then activated together. ``preview: true`` answers the plan only. The
answer lists, per object, the sources with their changed lines and new tokens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from adt.agent.tools.renaming import activation_of, changed_objects, may_write_all
from adt.source.errors import InvalidArgument

if TYPE_CHECKING:
    from adt.agent.registry import ToolCall


def _selection(args: dict[str, Any], text: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """Whole lines startLine..endLine as ADT's selection (1-based lines, 0-based columns)."""
    if "startLine" not in args or "endLine" not in args:
        raise InvalidArgument("extract needs startLine and endLine (the statements to move)")
    lines = text.split("\n")
    first, last = int(args["startLine"]), int(args["endLine"])
    if not 1 <= first <= last <= len(lines):
        raise InvalidArgument(
            f"startLine..endLine must be a range within 1..{len(lines)}, got {first}..{last}",
            startLine=first,
            endLine=last,
        )
    return (first, 0), (last, len(lines[last - 1]))


async def extract(call: ToolCall, args: dict[str, Any]) -> Any:
    """Plan, check the policy and the editor for every object, write all, activate."""
    read = await call.service.get_source_v2(
        args.get("objectUrl"),
        object_source_url=args.get("objectSourceUrl"),
        include_type=args.get("includeType"),
    )
    start, end = _selection(args, read.content)
    transport = str(args.get("transport") or "")
    extraction = call.workbench.extraction
    planned = await extraction.propose(
        read.source_url, start, end, str(args.get("newName") or ""), transport
    )
    changes = planned.changes
    summary = {
        "newName": planned.name,
        "signature": planned.proposal.signature(),
        "places": changes.places,
    }
    if args.get("preview"):
        return {**summary, "written": False, "objects": changed_objects(changes, {})}
    await may_write_all(call, changes, "extract", "the code action Extract method")
    edits = await extraction.renaming.saved_edits(changes)
    outcome = await extraction.renaming.write_all(edits, transport or None, verb="extract")
    tokens = {w.source_url: w.token for w in outcome.written}
    return {
        **summary,
        "written": True,
        "objects": changed_objects(changes, tokens),
        **activation_of(outcome),
    }
