"""``history``: the user's inactive objects, the versions of a source, and what changed in
a source since its active version (or a version) as a unified diff."""

from __future__ import annotations

from typing import Any

from adt.agent.fitting import cut_note, keep_within
from adt.agent.registry import TARGET, ToolCall, ToolDefinition
from adt.source.errors import InvalidArgument


async def _dumps(call: ToolCall, args: dict[str, Any]) -> Any:
    """Runtime errors: the recent ones (of an object), or one by ``id``."""
    if args["action"] == "dump":
        if "id" not in args:
            raise InvalidArgument("dump needs id (from action dumps)")
        return await call.workbench.dumps.read(args["id"])
    url = call.service.resolve(args["objectUrl"]).ref.object_url if "objectUrl" in args else None
    return await call.workbench.dumps.recent(url)


async def history(call: ToolCall, args: dict[str, Any]) -> Any:
    action = args["action"]
    if action in ("dumps", "dump"):
        return await _dumps(call, args)
    if action == "inactive":
        found = await call.workbench.history.inactive()
        return {"objects": [e.to_dict() for e in found], "count": len(found)}
    if "objectUrl" not in args and "objectSourceUrl" not in args:
        raise InvalidArgument(f"{action} needs objectUrl or objectSourceUrl")
    target = call.service.resolve(
        args.get("objectUrl"), args.get("objectSourceUrl"), args.get("includeType")
    )
    source_url = target.ref.source_url
    if action == "versions":
        versions = await call.workbench.history.versions(source_url)
        return {"sourceUrl": source_url, "versions": [v.to_dict() for v in versions]}
    diff = await call.workbench.history.diff(source_url, args.get("against", "active"))
    data = diff.to_dict()
    data["lines"] = data.pop("diff").split("\n") if diff.changed else []
    return data


def fit_history(payload: dict[str, Any], limit: int) -> None:
    data = payload["data"]
    key = next((k for k in ("lines", "objects", "versions", "dumps", "stack") if k in data), None)
    if key is None:
        return
    total = len(data[key])
    shown = keep_within(payload, key, limit)
    data["truncated"] = True
    data["notes"] = [
        f"{cut_note(limit)}: {shown} of {total} {key} shown"
        + ("; read the changed lines with getObjectSourceV2" if key == "lines" else "")
    ]


TOOLS = (
    ToolDefinition(
        "history",
        "inactive: your objects with unactivated changes; versions: of a source; diff: a "
        "source against its active version or against=<id> (unified-diff lines); dumps: your "
        "recent short dumps (of objectUrl); dump: one by id (error, position, calls).",
        {
            "action": {
                "type": "string",
                "enum": ["inactive", "versions", "diff", "dumps", "dump"],
            },
            "id": {"type": "string", "minLength": 1, "maxLength": 120},
            **TARGET,
            "against": {
                "type": "string",
                "minLength": 1,
                "maxLength": 40,
                "description": "active (default) or a version id",
            },
        },
        history,
        required=("action",),
        read_only=True,
        idempotent=True,
        fit=fit_history,
    ),
)
