"""Source tools: range reads with a token, server-side grep, checked patches, replacements,
and the V1 whole-source pair."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from adt.agent.fitting import cut_note, keep_within, size
from adt.agent.registry import (
    LINE,
    LOCK,
    SOURCE,
    TARGET,
    TARGET_REQUIRED,
    TOKEN,
    TRANSPORT,
    VERSION,
    Build,
    ToolCall,
    ToolDefinition,
)
from adt.agent.tools.parts import MAX_SOURCES, enclosing
from adt.source.changes import Change
from adt.source.errors import InvalidArgument
from adt.source.lines import Patch, apply_patches, check_replacement, replace_unique
from adt.text import to_canonical

if TYPE_CHECKING:
    from adt.source import WriteOutcome


async def get_v2(call: ToolCall, args: dict[str, Any]) -> Any:
    budget = call.limit - 2_000
    while True:
        read = await call.service.get_source_v2(
            args.get("objectUrl"),
            object_source_url=args.get("objectSourceUrl"),
            include_type=args.get("includeType"),
            start_line=args.get("startLine"),
            end_line=args.get("endLine"),
            version=args.get("version"),
            symbol=args.get("symbol"),
            max_chars=budget,
        )
        data = read.to_dict()
        if size(data) <= call.limit - 200 or budget < 1_000:
            break
        budget //= 2  # JSON escaping made the answer bigger than its text
    draft = await call.service.objects.draft(read.object_url, read.include_type, read.changed_at)
    if draft is not None:  # saved by someone, not activated: what others run differs
        data["draft"] = draft
    return data


async def grep_package(call: ToolCall, args: dict[str, Any]) -> Any:
    """The package's sources searched in name order, paged by hit; each hit names its part
    (the sources of the first objects on the page, read by the search, come from the cache)."""
    page = await call.workbench.search.search(
        args["package"],
        args["pattern"],
        case_insensitive=bool(args.get("caseInsensitive", False)),
        offset=int(args.get("offset", 0)),
        limit=int(args.get("maxMatches", 50)),
    )
    data = {**page.to_dict(), "offset": int(args.get("offset", 0))}
    objects = list(dict.fromkeys(h["objectUrl"] for h in data["hits"]))[:MAX_SOURCES]
    for url in objects:
        lines = [h["line"] for h in data["hits"] if h["objectUrl"] == url]
        names = await enclosing(call, lines, object_url=url)
        for hit in data["hits"]:
            if hit["objectUrl"] == url and hit["line"] in names:
                hit["in"] = names[hit["line"]]
    return data


async def grep(call: ToolCall, args: dict[str, Any]) -> Any:
    if "package" in args:
        if "objectUrl" in args or "objectSourceUrl" in args:
            raise InvalidArgument("pass either package or objectUrl/objectSourceUrl, not both")
        return await grep_package(call, args)
    found = await call.service.grep(
        args.get("objectUrl"),
        pattern=args["pattern"],
        object_source_url=args.get("objectSourceUrl"),
        include_type=args.get("includeType"),
        case_insensitive=bool(args.get("caseInsensitive", False)),
        context_lines=int(args.get("contextLines", 0)),
        max_matches=args.get("maxMatches"),
        start_line=args.get("startLine"),
        end_line=args.get("endLine"),
    )
    data = found.to_dict()
    if data["matches"]:
        names = await enclosing(
            call,
            (m["lineNumber"] for m in data["matches"]),
            object_url=args.get("objectUrl"),
            source_url=args.get("objectSourceUrl"),
            include_type=args.get("includeType"),
        )
        for match in data["matches"]:
            if match["lineNumber"] in names:
                match["in"] = names[match["lineNumber"]]
    return data


def fit_grep(payload: dict[str, Any], limit: int) -> None:
    data = payload["data"]
    if "hits" in data:  # a package search: fewer hits, continue at the next offset
        kept = keep_within(payload, "hits", limit)
        if kept < len(data["hits"]):
            data["nextOffset"] = data["offset"] + kept
        data.setdefault("notes", []).append(f"{cut_note(limit)}: {kept} hits shown")
        return
    matches = data["matches"]
    kept = keep_within(payload, "matches", limit)
    if kept < len(matches):
        data["nextStartLine"] = matches[kept]["lineNumber"]
    data["truncated"] = True
    data["matchCount"] = len(data["matches"])
    data.setdefault("notes", []).append(
        f"{cut_note(limit)}; continue with startLine={data.get('nextStartLine')} or use fewer "
        "contextLines"
    )


async def get_v1(call: ToolCall, args: dict[str, Any]) -> Any:
    text = await call.service.get_source(args["objectSourceUrl"], version=args.get("version"))
    lines = text.split("\n") if text else []
    data: dict[str, Any] = {"source": text, "lineCount": len(lines)}
    budget = call.limit - 1_000
    if size(data) <= budget:
        return data
    kept: list[str] = []
    used = 0
    for line in lines:
        used += size(line)
        if used > budget:
            break
        kept.append(line)
    data.update(
        source="\n".join(kept),
        truncated=True,
        nextStartLine=len(kept) + 1,
        notes=[
            f"source cut after line {len(kept)} of {len(lines)} to fit the response limit; "
            f"read the rest with getObjectSourceV2 startLine={len(kept) + 1}"
        ],
    )
    return data


async def _write(
    call: ToolCall,
    args: dict[str, Any],
    token: str | None,
    build: Build,
    direct: Callable[[str], Awaitable[WriteOutcome]],
) -> Any:
    """Write through the editor when it has the source open, else directly (with the lock
    owner the editor would use, so both share the object's lock)."""
    url = args.get("objectUrl") or args.get("objectSourceUrl")
    object_url = call.service.resolve(url).ref.object_url
    args["lockHandle"] = call.lock_handle(object_url, args.get("lockHandle"))
    view = call.view(url, args.get("includeType"))
    if view is not None and call.views is not None:
        outcome = await call.views.write_through(
            view,
            token,
            build,
            lock_handle=args.get("lockHandle"),
            transport=args.get("transport"),
        )
    else:
        outcome = await direct(call.lock_owner(object_url))
    return outcome.to_dict()


def _patch(spec: dict[str, Any]) -> Patch:
    """One patch: ``content`` replaces the lines (``""`` is one empty line); ``delete`` or
    ``content: null`` removes them."""
    if spec.get("delete") or ("content" in spec and spec["content"] is None):
        if spec.get("content") is not None:
            raise InvalidArgument("pass either content or delete, not both")
        return Patch.deletion(spec["startLine"], spec["endLine"])
    if "content" not in spec:
        raise InvalidArgument("a patch needs content (or delete: true to remove the lines)")
    return Patch.from_content(spec["startLine"], spec["endLine"], spec["content"])


def _change(args: dict[str, Any]) -> Change:
    """What the call changes, checked before any request."""
    deleting = bool(args.get("delete")) or ("content" in args and args["content"] is None)
    content = args.get("content")
    if args.get("patches") is not None:
        if any(k in args for k in ("startLine", "endLine", "content", "delete", "symbol")):
            raise InvalidArgument("pass either startLine/endLine/content, symbol or patches")
        return Change.of(None, None, None, [_patch(p) for p in args["patches"]], None, False)
    if "symbol" in args:
        return Change.of(None, None, content, None, args["symbol"], deleting)
    if "startLine" not in args or "endLine" not in args:
        raise InvalidArgument(
            "setObjectSourceV2 needs startLine and endLine (or symbol, or patches)"
        )
    if content is None and not deleting:
        raise InvalidArgument(
            'content is missing: pass the new lines ("" is one empty line), or delete: true '
            "to remove lines startLine..endLine"
        )
    return Change.of(args["startLine"], args["endLine"], content, None, None, deleting)


async def set_v2(call: ToolCall, args: dict[str, Any]) -> Any:
    change = _change(args)
    skip = bool(args.get("skipConflictCheck", False))
    return await _write(
        call,
        args,
        None if skip else args["token"],
        lambda base: apply_patches(base, change.patches(base)).text,
        lambda owner: call.service.set_source_v2(
            args.get("objectUrl"),
            object_source_url=args.get("objectSourceUrl"),
            include_type=args.get("includeType"),
            token=args["token"],
            change=change,
            lock_handle=args.get("lockHandle"),
            transport=args.get("transport"),
            skip_conflict_check=skip,
            rebase=args.get("rebase", True),
            owner=owner,
        ),
    )


async def replace(call: ToolCall, args: dict[str, Any]) -> Any:
    old, new = check_replacement(args["oldString"], args["newString"])
    return await _write(
        call,
        args,
        args.get("token"),
        lambda base: replace_unique(base, old, new)[0],
        lambda owner: call.service.replace_in_source(
            args.get("objectUrl"),
            old_string=old,
            new_string=new,
            object_source_url=args.get("objectSourceUrl"),
            include_type=args.get("includeType"),
            token=args.get("token"),
            lock_handle=args.get("lockHandle"),
            transport=args.get("transport"),
            rebase=args.get("rebase", True),
            owner=owner,
        ),
    )


async def set_v1(call: ToolCall, args: dict[str, Any]) -> Any:
    source = to_canonical(args["source"])
    return await _write(
        call,
        args,
        None,
        lambda base: source,
        lambda owner: call.service.set_source(
            args["objectSourceUrl"],
            source=source,
            lock_handle=args.get("lockHandle"),
            transport=args.get("transport"),
            owner=owner,
        ),
    )


CONTENT = {
    "type": ["string", "null"],
    "description": 'New lines, split on \\n ("" is one empty line); null deletes',
}
DELETE = {"type": "boolean", "description": "Remove the lines (or the symbol) instead"}
SYMBOL = {
    "type": "string",
    "minLength": 1,
    "maxLength": 200,
    "description": "A named part instead of lines: a method (lcl_x=>m or m), "
    "'zcl_x public section', a form",
}
REBASE = {"type": "boolean", "description": "false: refuse any change since token"}
_PATCH = {
    "type": "object",
    "properties": {
        "startLine": LINE,
        "endLine": {"type": "integer", "minimum": 0},
        "content": {"type": ["string", "null"]},
        "delete": {"type": "boolean"},
    },
    "required": ["startLine", "endLine"],
    "additionalProperties": False,
}

TOOLS = (
    ToolDefinition(
        "getObjectSourceV2",
        "Read lines of an ABAP source with its version token. Lines are 1-based and "
        "inclusive; omit startLine/endLine for all, or name a symbol (a method, a section, a "
        "form) to read just it with its lines. Pass the token to setObjectSourceV2. "
        "A cut answer says truncated and nextStartLine; draft: an inactive version exists.",
        {**TARGET, "startLine": LINE, "endLine": LINE, "version": VERSION, "symbol": SYMBOL},
        get_v2,
        read_only=True,
        idempotent=True,
        one_of=TARGET_REQUIRED,
    ),
    ToolDefinition(
        "grepObjectSource",
        "Search an ABAP source on the server (regular expression, per line): only matching "
        "lines with numbers, the part they are in, optional context. truncated: continue "
        "with startLine=nextStartLine. package instead of objectUrl: every source of the "
        "package, hits (objectUrl, line, in, snippet) paged by offset=nextOffset.",
        {
            **TARGET,
            "package": {"type": "string", "minLength": 1, "maxLength": 30},
            "offset": {"type": "integer", "minimum": 0},
            "pattern": {"type": "string", "minLength": 1},
            "caseInsensitive": {"type": "boolean"},
            "contextLines": {"type": "integer", "minimum": 0, "maximum": 50},
            "maxMatches": {"type": "integer", "minimum": 1, "maximum": 1000},
            "startLine": LINE,
            "endLine": LINE,
        },
        grep,
        required=("pattern",),
        read_only=True,
        idempotent=True,
        one_of=(*TARGET_REQUIRED, ("package",)),
        fit=fit_grep,
    ),
    ToolDefinition(
        "setObjectSourceV2",
        "Replace lines startLine..endLine, or a named symbol, with content (endLine="
        "startLine-1 inserts; delete: true removes), or apply several patches, against token. "
        "Changes since that don't touch yours are kept (rebasedOver); else "
        "VERSION_CONFLICT, nothing written. Locks itself unless lockHandle is given. "
        "Returns the new token. A metadata object's source is its XML document (a message: "
        "one mc:messages element).",
        {
            **TARGET,
            "token": TOKEN,
            "startLine": LINE,
            "endLine": {"type": "integer", "minimum": 0},
            "content": CONTENT,
            "delete": DELETE,
            "symbol": SYMBOL,
            "patches": {"type": "array", "minItems": 1, "items": _PATCH},
            "lockHandle": LOCK,
            "transport": TRANSPORT,
            "skipConflictCheck": {"type": "boolean", "description": "Not recommended"},
            "rebase": REBASE,
        },
        set_v2,
        required=("token",),
        destructive=True,
        writes=True,
        one_of=TARGET_REQUIRED,
    ),
    ToolDefinition(
        "replaceInObjectSource",
        "Replace the single occurrence of oldString with newString (line endings do not "
        "matter). Zero or several occurrences are an error listing them. With token: found "
        "in its text; changes since that don't touch it are kept (rebasedOver).",
        {
            **TARGET,
            "oldString": {"type": "string", "minLength": 1},
            "newString": {"type": "string"},
            "token": TOKEN,
            "lockHandle": LOCK,
            "transport": TRANSPORT,
            "rebase": REBASE,
        },
        replace,
        required=("oldString", "newString"),
        destructive=True,
        writes=True,
        one_of=TARGET_REQUIRED,
    ),
    ToolDefinition(
        "getObjectSource",
        "V1: read a whole source (no token). Prefer getObjectSourceV2 for large sources.",
        {"objectSourceUrl": SOURCE, "version": VERSION},
        get_v1,
        required=("objectSourceUrl",),
        read_only=True,
        idempotent=True,
    ),
    ToolDefinition(
        "setObjectSource",
        "V1: replace a whole source without any version check (may overwrite others' "
        "changes). Prefer setObjectSourceV2.",
        {
            "objectSourceUrl": SOURCE,
            "source": {"type": "string"},
            "lockHandle": LOCK,
            "transport": TRANSPORT,
        },
        set_v1,
        required=("objectSourceUrl", "source"),
        destructive=True,
        idempotent=True,
        writes=True,
    ),
)
