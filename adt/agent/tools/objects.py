"""Object tools: structure, search by name, syntax check, activation, and explicit locks."""

from __future__ import annotations

from typing import Any

from adt.agent.fitting import cut_note, keep_within
from adt.agent.registry import INCLUDE, OBJECT, ToolCall, ToolDefinition
from adt.agent.tools.quality import fit_quality, run_quality
from adt.kinds import KINDS
from adt.source.errors import InvalidArgument, PreviewRefused

MAX_SEARCH_RESULTS = 200


async def structure(call: ToolCall, args: dict[str, Any]) -> Any:
    if "rows" in args:
        return await preview(call, args)
    if "columns" in args or "where" in args:
        raise InvalidArgument("columns and where narrow a data preview: pass rows too")
    data: dict[str, Any] = (await call.service.object_structure(args["objectUrl"])).to_dict()
    kind = KINDS.for_url(data["objectUrl"])
    if kind is not None and not kind.source_based:  # a metadata object: its facts, compact
        data["fields"] = (await call.service.client.dictionary.read(data["objectUrl"])).fields
    return data


async def preview(call: ToolCall, args: dict[str, Any]) -> Any:
    """The rows of a table or CDS entity: only on a bridge started with
    ``--allow-data-preview`` (business data is not source code)."""
    from adt.areas.datapreview import PreviewQueryError, entity_of_url, select

    url = call.service.resolve(args["objectUrl"]).ref.object_url
    if not call.data_preview:
        raise PreviewRefused(
            "data preview is off for agents; start the bridge with --allow-data-preview",
            objectUrl=url,
        )
    try:
        entity = entity_of_url(url)
        sql = select(entity, list(args.get("columns", [])), args.get("where", ""))
    except PreviewQueryError as exc:
        raise InvalidArgument(str(exc)) from exc
    found = await call.service.client.datapreview.table(entity, rows=args["rows"], sql=sql)
    return {
        "entity": entity,
        "columns": [c.name for c in found.columns],
        "keys": [c.name for c in found.columns if c.key],
        "rows": [list(r.values()) for r in found.rows],
        "totalRows": found.total_rows,
    }


async def search(call: ToolCall, args: dict[str, Any]) -> Any:
    wanted = int(args.get("maxResults", 50))
    found = await call.service.search(  # one more than asked: tells whether there are more
        args["query"], max_results=wanted + 1, object_type=args.get("objectType")
    )
    results = [hit.to_dict() for hit in found[:wanted]]
    data: dict[str, Any] = {"results": results, "count": len(results)}
    data["truncated"] = len(found) > wanted
    if data["truncated"]:
        data["notes"] = [
            f"more than {wanted} objects match {args['query']!r}; only the first {wanted} "
            "are shown. Narrow the query (a longer name prefix, e.g. ZCL_SALES_*, or "
            f"objectType) or raise maxResults (at most {MAX_SEARCH_RESULTS})"
        ]
    return data


def fit_search(payload: dict[str, Any], limit: int) -> None:
    data = payload["data"]
    found = len(data["results"])
    keep_within(payload, "results", limit)
    data["truncated"] = True
    data["count"] = len(data["results"])
    data.setdefault("notes", []).append(
        f"{cut_note(limit)}: {data['count']} of {found} results shown; to see the others, "
        "narrow the query (a longer name prefix, or objectType) or lower maxResults"
    )


async def check(call: ToolCall, args: dict[str, Any]) -> Any:
    kind = args.get("kind", "syntax")
    if kind != "syntax":
        return await run_quality(call, args)
    if "objectUrl" not in args:
        raise InvalidArgument("the syntax check needs objectUrl")
    if any(k in args for k in ("package", "variant", "offset", "limit")):
        raise InvalidArgument("package, variant, offset and limit are for kind unit or atc")
    outcome = await call.service.check(
        args["objectUrl"], include_type=args.get("includeType"), text=args.get("content")
    )
    return outcome.to_dict()


async def activate(call: ToolCall, args: dict[str, Any]) -> Any:
    """A refusal names the inactive objects the object builds on (not yet in ``also``), so
    that the agent can activate them together with the next call."""
    also = [call.service.resolve(url).ref.object_url for url in args.get("also", ())]
    outcome = await call.service.activate(args["objectUrl"], also)
    data: dict[str, Any] = outcome.to_dict()
    if outcome.success:
        return data
    under = await call.workbench.dependencies.inactive_under(outcome.object_url)
    waiting = [entry.object_url for entry in under if entry.object_url not in also]
    if waiting:
        data["inactiveDependencies"] = waiting
        data["notes"] = [
            "it builds on inactive objects: activate again with also: inactiveDependencies "
            "(in the same run, in dependency order)"
        ]
    return data


async def lock(call: ToolCall, args: dict[str, Any]) -> Any:
    """The lock belongs to this agent's connection: its writes use it, and it is released
    when the agent goes away (or unLocks)."""
    url = call.service.resolve(args["objectUrl"]).ref.object_url
    return (await call.service.lock(url, owner=call.owner)).to_dict()


async def unlock(call: ToolCall, args: dict[str, Any]) -> Any:
    url = call.service.resolve(args["objectUrl"]).ref.object_url
    known = await call.service.unlock(url, args.get("lockHandle"), owner=call.owner)
    return {"objectUrl": url, "released": True, "tracked": known}


TOOLS = (
    ToolDefinition(
        "lock",
        "Lock an object for several writes (writes without lockHandle lock themselves); "
        "returns lockHandle and transport info. Release with unLock.",
        {"objectUrl": OBJECT},
        lock,
        required=("objectUrl",),
        idempotent=True,
        writes=True,
    ),
    ToolDefinition(
        "unLock",
        "Release a lock taken with lock.",
        {"objectUrl": OBJECT, "lockHandle": {"type": "string", "description": "From lock"}},
        unlock,
        required=("objectUrl",),
        idempotent=True,
    ),
    ToolDefinition(
        "objectStructure",
        "Metadata: name, type, package, stamps, class includes. rows: the data of a table or "
        "CDS entity instead (bridge flag --allow-data-preview); columns, where narrow it.",
        {
            "objectUrl": OBJECT,
            "rows": {"type": "integer", "minimum": 1, "maximum": 500},
            "columns": {"type": "array", "items": {"type": "string"}},
            "where": {"type": "string"},
        },
        structure,
        required=("objectUrl",),
        read_only=True,
        idempotent=True,
    ),
    ToolDefinition(
        "searchObjects",
        "Find objects by name (* wildcard), e.g. ZCL_*; optional type: CLAS, DDLS, BDEF, TABL...",
        {
            "query": {"type": "string", "minLength": 1},
            "objectType": {"type": "string"},
            "maxResults": {"type": "integer", "minimum": 1, "maximum": MAX_SEARCH_RESULTS},
        },
        search,
        required=("query",),
        read_only=True,
        idempotent=True,
        fit=fit_search,
    ),
    ToolDefinition(
        "syntaxCheck",
        "Check code. kind syntax (default): syntax check of the stored source or of content "
        "(unsaved text of one part), findings with lines. kind unit: ABAP Unit (objectUrl or "
        "package): counts, failures with positions. kind atc: ATC (optional variant), "
        "findings by priority. Long lists: offset/limit.",
        {
            "objectUrl": OBJECT,
            "includeType": INCLUDE,
            "content": {"type": "string"},
            "kind": {"type": "string", "enum": ["syntax", "unit", "atc"]},
            "package": {"type": "string", "minLength": 1, "maxLength": 30},
            "variant": {"type": "string", "minLength": 1, "maxLength": 30},
            "offset": {"type": "integer", "minimum": 0},
            "limit": {"type": "integer", "minimum": 1, "maximum": 500},
        },
        check,
        one_of=(("objectUrl",), ("package",)),
        read_only=True,
        idempotent=True,
        fit=fit_quality,
    ),
    ToolDefinition(
        "activate",
        "Activate an object after writing (unlock first), with also: inactive objects it "
        "builds on (a refusal lists them: inactiveDependencies). Returns whether activated "
        "and errors with lines.",
        {"objectUrl": OBJECT, "also": {"type": "array", "items": {"type": "string"}}},
        activate,
        required=("objectUrl",),
        idempotent=True,
        writes=True,
    ),
)
