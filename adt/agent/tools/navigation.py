"""``navigate``: go to a definition, or list where something is used, by position or by name.

Agents rarely know a column, so a position is a line plus the identifier on it (or a column);
a name is an object (``ZCL_X``, ``Z_FM``) or a part of one (``ZCL_X=>METHOD``). Definitions
answer with the place and the named part around it, ready for a range read by ``symbol``;
where-used answers a page of lines with snippets and says where the next page starts.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

from adt.agent.fitting import cut_note, keep_within
from adt.agent.registry import LINE, TARGET, ToolCall, ToolDefinition
from adt.agent.tools.parts import MAX_SOURCES, enclosing, innermost, parts_of
from adt.source.errors import InvalidArgument, ObjectNotFound

MAX_USAGES = 200
log = logging.getLogger("adt.agent")


@dataclass(frozen=True)
class Place:
    """Where a search starts: an object, or a position (1-based line, 0-based column) in
    one of its sources."""

    object_url: str
    source_url: str
    line: int | None = None
    column: int | None = None
    text: str = ""


def _column_of(line_text: str, identifier: str, line: int) -> int:
    """The 0-based column of ``identifier`` on a line (a whole word, any case)."""
    pattern = rf"(?<![\w/]){re.escape(identifier)}(?![\w/])"
    found = re.search(pattern, line_text, flags=re.IGNORECASE)
    if found is None:
        raise InvalidArgument(
            f"line {line} does not contain {identifier!r}: {line_text.strip()[:120]!r}",
            line=line,
            lineText=line_text[:200],
        )
    return found.start()


async def _position(call: ToolCall, args: dict[str, Any]) -> Place:
    read = await call.service.get_source_v2(
        args.get("objectUrl"),
        object_source_url=args.get("objectSourceUrl"),
        include_type=args.get("includeType"),
    )
    line = int(args["line"])
    lines = read.content.split("\n")
    if line > len(lines):
        raise InvalidArgument(f"line {line} is past the last line ({len(lines)})", line=line)
    if "identifier" in args:
        column = _column_of(lines[line - 1], args["identifier"], line)
    elif "column" in args:
        column = int(args["column"]) - 1
    else:
        raise InvalidArgument("a position needs identifier (or column) besides line")
    return Place(read.object_url, read.source_url, line, column, read.content)


async def _object_url(call: ToolCall, name: str) -> str:
    wanted = name.strip().upper()
    hits = await call.service.search(wanted, max_results=20)
    exact = [hit for hit in hits if hit.name.upper() == wanted]
    if not exact:
        raise ObjectNotFound(
            f"no object is named {wanted}"
            + (f"; similar: {', '.join(h.name for h in hits[:10])}" if hits else ""),
            name=wanted,
        )
    return exact[0].uri


async def _named(call: ToolCall, name: str) -> tuple[Place, dict[str, Any] | None]:
    """``ZCL_X`` → the object; ``ZCL_X=>PART`` → the part's first line in the main source."""
    object_name, _, member = name.partition("=>")
    from adt.source.symbols import locate  # the ABAP scanner: loaded by the first use

    object_url = await _object_url(call, object_name)
    if not member.strip():
        return Place(object_url, ""), None
    read = await call.service.get_source_v2(object_url)
    part = locate(read.content, member.strip())
    first = read.content.split("\n")[part.start_line - 1]
    short = part.name.rsplit("=>", 1)[-1].split(" ")[0]
    column = _column_of(first, short, part.start_line)
    place = Place(object_url, read.source_url, part.start_line, column, read.content)
    return place, {**part.to_dict(), "sourceUrl": read.source_url}


async def _enclosing_part(call: ToolCall, source_url: str, line: int) -> dict[str, Any] | None:
    """The innermost named part around a line of a source, and that line's text."""
    read = await call.service.get_source_v2(object_source_url=source_url)
    found: dict[str, Any] = {"lineText": read.content.split("\n")[line - 1].strip()}
    inner = innermost(parts_of(read.content), line)
    if inner is not None:
        found["symbol"] = inner.to_dict()
    return found


async def _name_parts(call: ToolCall, usages: list[dict[str, Any]]) -> None:
    """Each hit's ``in``: the method, form or section it is in (the first sources only)."""
    by_source: dict[str, list[dict[str, Any]]] = {}
    for usage in usages:
        by_source.setdefault(usage["sourceUrl"], []).append(usage)
    for source_url, hits in list(by_source.items())[:MAX_SOURCES]:
        try:
            names = await enclosing(call, (h["line"] for h in hits), source_url=source_url)
        except Exception as exc:  # a source we may not read: the hit stays without it
            log.info("no enclosing parts for %s: %s", source_url, exc)
            continue
        for hit in hits:
            if hit["line"] in names:
                hit["in"] = names[hit["line"]]


async def _definition(call: ToolCall, place: Place, args: dict[str, Any]) -> Any:
    if place.line is None or place.column is None:  # by name: the place is the definition
        return {"found": True, "objectUrl": place.object_url}
    location = await call.workbench.code.definition(
        place.source_url,
        place.text,
        place.line,
        place.column,
        implementation=bool(args.get("implementation", False)),
    )
    if location is None:
        return {"found": False, "notes": ["nothing to go to at this position"]}
    data: dict[str, Any] = {"found": True, **location.to_dict()}
    data["column"] = location.column + 1
    data.update(await _enclosing_part(call, location.source_url, location.line) or {})
    return data


async def _usages(call: ToolCall, place: Place, args: dict[str, Any]) -> Any:
    url = place.source_url if place.line is not None else place.object_url
    page = await call.workbench.usages.page(
        url,
        line=place.line,
        column=place.column,
        text=place.text or None,
        offset=int(args.get("offset", 0)),
        limit=int(args.get("limit", 50)),
    )
    data = page.to_dict()
    for usage in data["usages"]:
        usage["column"] += 1
    await _name_parts(call, data["usages"])
    if page.next_offset is not None:
        data["truncated"] = True
        data["notes"] = [
            f"{len(page.usages)} of {page.total} usages shown; continue with "
            f"offset={page.next_offset}"
        ]
    return data


async def navigate(call: ToolCall, args: dict[str, Any]) -> Any:
    if args["action"] == "extract":
        from adt.agent.tools.extracting import extract

        return await extract(call, args)
    has_position = "line" in args
    if has_position == ("name" in args):
        raise InvalidArgument(
            "pass either name (ZCL_X or ZCL_X=>METHOD) or a position (objectUrl, line, "
            "identifier or column)"
        )
    part = None
    if has_position:
        place = await _position(call, args)
    else:
        place, part = await _named(call, args["name"])
    if args["action"] == "rename":
        from adt.agent.tools.renaming import own_name, rename

        if place.line is None or place.column is None:  # ZCL_X, ZIF_X: the object itself
            place = Place(place.object_url, *await own_name(call, place.object_url))
        return await rename(
            call, place.source_url, place.line or 1, place.column or 0, place.text, args
        )
    if args["action"] == "definition":
        data = await _definition(call, place, args)
        if part is not None:
            data.update(sourceUrl=place.source_url, line=place.line, symbol=part)
        return data
    return await _usages(call, place, args)


def fit_usages(payload: dict[str, Any], limit: int) -> None:
    data = payload["data"]
    if "usages" not in data:
        return
    shown = keep_within(payload, "usages", limit)
    next_offset = data["offset"] + shown
    data["truncated"] = True
    data["nextOffset"] = next_offset
    data["notes"] = [f"{cut_note(limit)}; continue with offset={next_offset}"]


TOOLS = (
    ToolDefinition(
        "navigate",
        "Definition, usages (snippet pages: offset=nextOffset) or rename (newName; of ZCL_X "
        "too: a new object; all or none; preview: plan) of a name (ZCL_X, ZCL_X=>METHOD, "
        "/DMO/I_X) or position (objectUrl, line, identifier or 1-based column). A definition "
        "has its symbol (for getObjectSourceV2)",
        {
            "action": {
                "type": "string",
                "enum": ["definition", "usages", "rename", "extract"],
                "description": "extract: lines startLine..endLine of objectUrl into a new method "
                "newName, as rename writes",
            },
            "newName": {"type": "string"},
            "preview": {"type": "boolean"},
            "transport": {"type": "string"},
            "name": {"type": "string", "minLength": 1, "maxLength": 200},
            **TARGET,
            "line": LINE,
            "startLine": LINE,
            "endLine": LINE,
            "identifier": {"type": "string", "minLength": 1, "maxLength": 200},
            "column": LINE,
            "implementation": {
                "type": "boolean",
                "description": "definition: go to the implementation, not the declaration",
            },
            "offset": {"type": "integer", "minimum": 0},
            "limit": {"type": "integer", "minimum": 1, "maximum": MAX_USAGES},
        },
        navigate,
        required=("action",),
        fit=fit_usages,
        writes_if=lambda args: (
            args.get("action") in ("rename", "extract") and not args.get("preview")
        ),
        checks_each_write=True,  # rename and extract check each object they write
    ),
)
