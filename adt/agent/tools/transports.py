"""``transports``: what a change of an object needs (is a request required, which one is it
already on, which fit), the user's open requests, and a new request."""

from __future__ import annotations

from typing import Any

from adt.agent.fitting import cut_note, keep_within
from adt.agent.registry import OBJECT, ToolCall, ToolDefinition
from adt.source.errors import InvalidArgument


async def transports(call: ToolCall, args: dict[str, Any]) -> Any:
    action = args["action"]
    planner = call.workbench.transports
    if action == "list":
        found = await planner.open_requests()
        return {"requests": [r.to_dict() for r in found], "count": len(found)}
    if action == "check":
        if "objectUrl" not in args:
            raise InvalidArgument("check needs objectUrl (a new object's URL with package)")
        need = await planner.need(args["objectUrl"], args.get("package", ""))
        return need.to_dict()
    missing = [k for k in ("description", "package") if k not in args]
    if missing:
        raise InvalidArgument(f"create needs {', '.join(missing)}")
    number = await planner.create(args["description"], args["package"], args.get("objectUrl", ""))
    return {"transport": number, "description": args["description"], "package": args["package"]}


def fit_requests(payload: dict[str, Any], limit: int) -> None:
    data = payload["data"]
    if "requests" not in data:
        return
    shown = keep_within(payload, "requests", limit)
    data["truncated"] = True
    data["notes"] = [f"{cut_note(limit)}: {shown} of {data['count']} requests shown"]


def _package_target(args: dict[str, Any]) -> tuple[str, str, str] | None:
    return "", "", args.get("package", "").upper()


TOOLS = (
    ToolDefinition(
        "transports",
        "Transport requests: check (objectUrl, or a new object's URL with package: is one "
        "required, which holds the object, which fit), list (your modifiable requests), "
        "create (description, package).",
        {
            "action": {"type": "string", "enum": ["check", "list", "create"]},
            "objectUrl": OBJECT,
            "package": {"type": "string", "minLength": 1, "maxLength": 30},
            "description": {"type": "string", "minLength": 1, "maxLength": 60},
        },
        transports,
        required=("action",),
        fit=fit_requests,
        writes_if=lambda args: args.get("action") == "create",
        policy_target=_package_target,
    ),
)
