"""ABAP Unit and ATC for ``syntaxCheck`` (kind ``unit`` / ``atc``): counts first, then only
the failures or findings with their positions, a page at a time."""

from __future__ import annotations

from typing import Any

from adt.agent.fitting import cut_note, keep_within
from adt.agent.registry import ToolCall
from adt.source.errors import InvalidArgument


async def run_quality(call: ToolCall, args: dict[str, Any]) -> Any:
    objects: tuple[str, ...] = ()
    if "objectUrl" in args:
        objects = (call.service.resolve(args["objectUrl"]).ref.object_url,)
    package = args.get("package")
    if not objects and not package:
        raise InvalidArgument("name objectUrl or package")
    quality = call.workbench.quality
    if args["kind"] == "unit":
        report = await quality.unit_tests(objects, package=package)
        data, key = report.to_dict(), "failures"
        data["green"] = report.green
    else:
        atc = await quality.atc(objects, package=package, variant=args.get("variant"))
        data, key = atc.to_dict(), "findings"
    return _page(data, key, int(args.get("offset", 0)), int(args.get("limit", 50)))


def _page(data: dict[str, Any], key: str, offset: int, limit: int) -> dict[str, Any]:
    items = data[key]
    data[key] = items[offset : offset + limit]
    if offset:
        data["offset"] = offset
    if offset + limit < len(items):
        data["truncated"] = True
        data["nextOffset"] = offset + limit
        data.setdefault("notes", []).append(
            f"{limit} of {len(items) - offset} {key} shown; continue with offset={offset + limit}"
        )
    return data


def fit_quality(payload: dict[str, Any], limit: int) -> None:
    data = payload["data"]
    key = "failures" if "failures" in data else "findings" if "findings" in data else None
    if key is None:
        return
    shown = keep_within(payload, key, limit)
    data["truncated"] = True
    data["nextOffset"] = data.get("offset", 0) + shown
    data.setdefault("notes", []).append(
        f"{cut_note(limit)}; continue with offset={data['nextOffset']}"
    )
