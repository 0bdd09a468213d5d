"""``transports``: what a change of an object needs (is a request required, which one is it
already on, which fit), the user's open requests, and a new request."""

from __future__ import annotations

from typing import Any

from adt.agent.fitting import cut_note, keep_within
from adt.agent.registry import OBJECT, ToolCall, ToolDefinition
from adt.source.errors import InvalidArgument


def _needs(args: dict[str, Any], *keys: str) -> None:
    missing = [k for k in keys if k not in args]
    if missing:
        raise InvalidArgument(f"{args['action']} needs {', '.join(missing)}")


async def _organize(call: ToolCall, args: dict[str, Any]) -> Any:
    """The request's own life: its contents, its release, an object moved into it."""
    organizer = call.workbench.organizer
    action = args["action"]
    _needs(args, "request", *(("objectUrl",) if action == "reassign" else ()))
    if action == "objects":
        return (await organizer.contents(args["request"])).to_dict()
    if action == "release":
        return await organizer.release(args["request"])
    target = call.service.resolve(args["objectUrl"]).ref.object_url
    return await organizer.reassign(target, args["request"])


async def transports(call: ToolCall, args: dict[str, Any]) -> Any:
    action = args["action"]
    planner = call.workbench.transports
    if action in ("objects", "release", "reassign"):
        return await _organize(call, args)
    if action == "list":
        found = await planner.open_requests()
        return {"requests": [r.to_dict() for r in found], "count": len(found)}
    if action == "check":
        if "objectUrl" not in args:
            raise InvalidArgument("check needs objectUrl (a new object's URL with package)")
        need = await planner.need(args["objectUrl"], args.get("package", ""))
        return need.to_dict()
    _needs(args, "description", "package")
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
    """create: the package; reassign: the object's own (None); release: no package, so a
    bridge with a package allowlist refuses it (a request may span packages)."""
    if args.get("action") == "reassign":
        return None
    return "", "", args.get("package", "").upper()


TOOLS = (
    ToolDefinition(
        "transports",
        "Transport requests: check (objectUrl, or a new object's URL with package: is one "
        "required, which holds the object, which fit), list (your modifiable requests), "
        "create (description, package), objects (of request), release (request or task; "
        "refused naming inactive or locked objects), reassign (objectUrl into request).",
        {
            "action": {
                "type": "string",
                "enum": ["check", "list", "create", "objects", "release", "reassign"],
            },
            "objectUrl": OBJECT,
            "package": {"type": "string", "minLength": 1, "maxLength": 30},
            "description": {"type": "string", "minLength": 1, "maxLength": 60},
            "request": {"type": "string", "minLength": 4, "maxLength": 20},
        },
        transports,
        required=("action",),
        destructive=True,  # a release cannot be undone
        fit=fit_requests,
        writes_if=lambda args: args.get("action") in ("create", "release", "reassign"),
        policy_target=_package_target,
    ),
)
