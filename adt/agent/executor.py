"""Run agent tools: validate the arguments, apply the write policy, call the source
operations, keep the answer within the response limit, and report every failure in the V2
error form. No MCP here: the MCP bridge and the language server's passthrough channel are both
thin faces over :class:`AgentTools`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from jsonschema import Draft202012Validator

from adt.agent.policy import WritePolicy
from adt.agent.schemas import BY_NAME, TOOLS, ToolDefinition
from adt.source import SourceService, WriteOutcome
from adt.source.errors import InvalidArgument, error_payload
from adt.source.lines import Patch, apply_patches, check_replacement, replace_unique
from adt.systems import Connections
from adt.text import to_canonical

DEFAULT_MAX_RESPONSE_CHARS = 80_000
_MAX_SEARCH_RESULTS = BY_NAME["searchObjects"].properties["maxResults"]["maximum"]
Build = Callable[[str], str]


class DocumentViews(Protocol):
    """An editor's view of open documents (the language server implements it): writes to an
    open document go through the editor so its unsaved edits are respected and it shows the
    result."""

    def view(self, system: str, object_url: str, include: str) -> Any | None: ...

    async def write_through(
        self,
        view: Any,
        token: str | None,
        build: Build,
        *,
        lock_handle: str | None,
        transport: str | None,
    ) -> WriteOutcome: ...

    def lock_owner(self, object_url: str) -> str | None: ...


@dataclass(frozen=True)
class ToolOutcome:
    ok: bool
    payload: dict[str, Any]

    @property
    def text(self) -> str:
        return json.dumps(self.payload, ensure_ascii=False)


def _size(payload: object) -> int:
    return len(json.dumps(payload, ensure_ascii=False))


@dataclass(frozen=True)
class _Call:
    """What one tool call runs with: who owns its locks, and its response limit."""

    owner: str
    limit: int


class AgentTools:
    """The twelve agent tools over a pool of systems."""

    def __init__(
        self,
        connections: Connections,
        *,
        policy: WritePolicy | None = None,
        views: DocumentViews | None = None,
        max_response_chars: int = DEFAULT_MAX_RESPONSE_CHARS,
    ) -> None:
        self.connections = connections
        self.policy = policy or WritePolicy()
        self.views = views
        self.max_response_chars = max_response_chars
        self._validators = {t.name: Draft202012Validator(t.input_schema) for t in TOOLS}
        self._handlers: dict[str, Callable[[SourceService, dict[str, Any], _Call], Awaitable[Any]]]
        self._handlers = {
            "getObjectSourceV2": self._get_v2,
            "grepObjectSource": self._grep,
            "setObjectSourceV2": self._set_v2,
            "replaceInObjectSource": self._replace,
            "getObjectSource": self._get_v1,
            "setObjectSource": self._set_v1,
            "lock": self._lock,
            "unLock": self._unlock,
            "objectStructure": self._structure,
            "searchObjects": self._search,
            "syntaxCheck": self._check,
            "activate": self._activate,
        }

    @property
    def definitions(self) -> tuple[ToolDefinition, ...]:
        return TOOLS

    async def call(
        self,
        name: str,
        arguments: Mapping[str, Any] | None,
        *,
        owner: str = "agent",
        max_response_chars: int | None = None,
    ) -> ToolOutcome:
        """Run one tool call; never raises for bad input or ADT failures.

        ``max_response_chars`` overrides this executor's response limit for this call (the
        MCP bridge sends its own limit with every call it passes to a language server)."""
        started = time.perf_counter()
        limit = max_response_chars if max_response_chars else self.max_response_chars
        try:
            payload = await self._run(name, dict(arguments or {}), _Call(owner, limit))
            ok = True
        except Exception as exc:
            payload, ok = error_payload(exc), False
        payload["executionTimeMs"] = round((time.perf_counter() - started) * 1000, 1)
        return ToolOutcome(ok, payload)

    async def _run(self, name: str, args: dict[str, Any], call: _Call) -> dict[str, Any]:
        tool = BY_NAME.get(name)
        if tool is None:
            raise InvalidArgument(
                f"unknown tool {name!r}; available: {', '.join(BY_NAME)}", tool=name
            )
        errors = sorted(self._validators[name].iter_errors(args), key=lambda e: list(e.path))
        if errors:
            messages = [
                f"{'/'.join(str(p) for p in e.path) or 'arguments'}: {e.message}" for e in errors
            ]
            raise InvalidArgument(f"{name}: {messages[0]}", errors=messages[:10])
        args.pop("workspace", None)  # routing happens before this point
        service = self.connections.service(args.pop("system", None))
        if tool.writes:
            await self._check_policy(tool, service, args)
        data = await self._handlers[name](service, args, call)
        return self._fit(name, {"status": "success", "data": data}, call.limit)

    async def _check_policy(
        self, tool: ToolDefinition, service: SourceService, args: dict[str, Any]
    ) -> None:
        if self.policy.read_only:
            self.policy.check(tool.name, "", "", "")
        if not self.policy.allow:
            return
        url = args.get("objectUrl") or args.get("objectSourceUrl")
        target = service.resolve(url).ref.object_url
        name, package = await service.object_identity(target)
        self.policy.check(tool.name, target, name, package)

    # --- shaping to the response limit ----------------------------------------------------

    def _fit(self, name: str, payload: dict[str, Any], limit: int) -> dict[str, Any]:
        if _size(payload) <= limit:
            return payload
        data = payload["data"]
        note = f"answer cut to the response limit of {limit} characters"
        if name == "grepObjectSource":
            self._keep_within(payload, "matches", limit)
            data["truncated"] = True
            data["matchCount"] = len(data["matches"])
            data.setdefault("notes", []).append(
                f"{note}; continue with startLine={data.get('nextStartLine')} or use fewer "
                "contextLines"
            )
        elif name == "searchObjects":
            found = len(data["results"])
            self._keep_within(payload, "results", limit)
            data["truncated"] = True
            data["count"] = len(data["results"])
            data.setdefault("notes", []).append(
                f"{note}: {data['count']} of {found} results shown; to see the others, narrow "
                "the query (a longer name prefix, or objectType) or lower maxResults"
            )
        if _size(payload) > limit:
            raise InvalidArgument(
                f"the answer would exceed the response limit of {limit} characters; narrow "
                "the request (fewer lines, fewer matches)",
                limit=limit,
            )
        return payload

    @staticmethod
    def _keep_within(payload: dict[str, Any], key: str, limit: int, reserve: int = 600) -> None:
        """Keep the leading items of ``payload["data"][key]`` that fit the limit (minus room
        for the note); a grep answer then continues at the first dropped match."""
        data = payload["data"]
        items: list[Any] = data[key]
        data[key] = []
        budget = limit - reserve - _size(payload)
        kept = 0
        for item in items:
            cost = _size(item) + 2
            if cost > budget:
                break
            budget -= cost
            kept += 1
        data[key] = items[:kept]
        if kept < len(items) and key == "matches":
            data["nextStartLine"] = items[kept]["lineNumber"]

    # --- reads ----------------------------------------------------------------------------

    async def _get_v2(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        budget = call.limit - 2_000
        while True:
            read = await service.get_source_v2(
                args.get("objectUrl"),
                object_source_url=args.get("objectSourceUrl"),
                include_type=args.get("includeType"),
                start_line=args.get("startLine"),
                end_line=args.get("endLine"),
                version=args.get("version"),
                max_chars=budget,
            )
            data = read.to_dict()
            if _size(data) <= call.limit - 200 or budget < 1_000:
                return data
            budget //= 2  # JSON escaping made the answer bigger than its text

    async def _grep(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        found = await service.grep(
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
        return found.to_dict()

    async def _get_v1(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        text = await service.get_source(args["objectSourceUrl"], version=args.get("version"))
        lines = text.split("\n") if text else []
        data: dict[str, Any] = {"source": text, "lineCount": len(lines)}
        budget = call.limit - 1_000
        if _size(data) > budget:
            kept: list[str] = []
            used = 0
            for line in lines:
                used += len(json.dumps(line, ensure_ascii=False))
                if used > budget:
                    break
                kept.append(line)
            data.update(
                source="\n".join(kept),
                truncated=True,
                nextStartLine=len(kept) + 1,
                notes=[
                    f"source cut after line {len(kept)} of {len(lines)} to fit the response "
                    f"limit; read the rest with getObjectSourceV2 startLine={len(kept) + 1}"
                ],
            )
        return data

    async def _structure(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        return await service.object_structure(args["objectUrl"])

    async def _search(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        wanted = int(args.get("maxResults", 50))
        found = await service.search(  # one more than asked: tells whether there are more
            args["query"], max_results=wanted + 1, object_type=args.get("objectType")
        )
        results = found[:wanted]
        data: dict[str, Any] = {"results": results, "count": len(results)}
        data["truncated"] = len(found) > wanted
        if data["truncated"]:
            data["notes"] = [
                f"more than {wanted} objects match {args['query']!r}; only the first {wanted} "
                "are shown. Narrow the query (a longer name prefix, e.g. ZCL_SALES_*, or "
                f"objectType) or raise maxResults (at most {_MAX_SEARCH_RESULTS})"
            ]
        return data

    async def _check(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        outcome = await service.check(
            args["objectUrl"], include_type=args.get("includeType"), text=args.get("content")
        )
        return outcome.to_dict()

    # --- writes ---------------------------------------------------------------------------

    def _view(self, service: SourceService, url: str | None, include: str | None) -> Any | None:
        if self.views is None:
            return None
        ref = service.resolve(url, None, include).ref
        return self.views.view(service.system, ref.object_url, ref.include)

    def _owner(self, object_url: str, owner: str) -> str:
        shared = self.views.lock_owner(object_url) if self.views else None
        return shared or owner

    async def _set_v2(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        url = args.get("objectUrl") or args.get("objectSourceUrl")
        if args.get("patches") is not None:
            if any(k in args for k in ("startLine", "endLine", "content")):
                raise InvalidArgument("pass either startLine/endLine/content or patches")
            patches = [
                Patch.from_content(p["startLine"], p["endLine"], p["content"])
                for p in args["patches"]
            ]
        elif all(k in args for k in ("startLine", "endLine", "content")):
            patches = [Patch.from_content(args["startLine"], args["endLine"], args["content"])]
        else:
            raise InvalidArgument(
                "setObjectSourceV2 needs startLine, endLine and content (or patches)"
            )
        skip = bool(args.get("skipConflictCheck", False))
        view = self._view(service, url, args.get("includeType"))
        object_url = service.resolve(url).ref.object_url
        if view is not None and self.views is not None:
            outcome = await self.views.write_through(
                view,
                None if skip else args["token"],
                lambda base: apply_patches(base, patches).text,
                lock_handle=args.get("lockHandle"),
                transport=args.get("transport"),
            )
        else:
            outcome = await service.set_source_v2(
                args.get("objectUrl"),
                object_source_url=args.get("objectSourceUrl"),
                include_type=args.get("includeType"),
                token=args["token"],
                patches=patches,
                lock_handle=args.get("lockHandle"),
                transport=args.get("transport"),
                skip_conflict_check=skip,
                owner=self._owner(object_url, call.owner),
            )
        return outcome.to_dict()

    async def _replace(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        old, new = args["oldString"], args["newString"]
        check_replacement(old, new)
        url = args.get("objectUrl") or args.get("objectSourceUrl")
        view = self._view(service, url, args.get("includeType"))
        object_url = service.resolve(url).ref.object_url
        if view is not None and self.views is not None:
            outcome = await self.views.write_through(
                view,
                args.get("token"),
                lambda base: replace_unique(base, old, new)[0],
                lock_handle=args.get("lockHandle"),
                transport=args.get("transport"),
            )
        else:
            outcome = await service.replace_in_source(
                args.get("objectUrl"),
                old_string=old,
                new_string=new,
                object_source_url=args.get("objectSourceUrl"),
                include_type=args.get("includeType"),
                token=args.get("token"),
                lock_handle=args.get("lockHandle"),
                transport=args.get("transport"),
                owner=self._owner(object_url, call.owner),
            )
        return outcome.to_dict()

    async def _set_v1(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        url, source = args["objectSourceUrl"], to_canonical(args["source"])
        view = self._view(service, url, None)
        object_url = service.resolve(url).ref.object_url
        if view is not None and self.views is not None:
            outcome = await self.views.write_through(
                view,
                None,
                lambda base: source,
                lock_handle=args.get("lockHandle"),
                transport=args.get("transport"),
            )
        else:
            outcome = await service.set_source(
                url,
                source=source,
                lock_handle=args.get("lockHandle"),
                transport=args.get("transport"),
                owner=self._owner(object_url, call.owner),
            )
        return outcome.to_dict()

    async def _lock(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        url = service.resolve(args["objectUrl"]).ref.object_url
        return (await service.lock(url, owner=self._owner(url, call.owner))).to_dict()

    async def _unlock(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        url = service.resolve(args["objectUrl"]).ref.object_url
        known = await service.unlock(
            url, args.get("lockHandle"), owner=self._owner(url, call.owner)
        )
        return {"objectUrl": url, "released": True, "tracked": known}

    async def _activate(self, service: SourceService, args: dict[str, Any], call: _Call) -> Any:
        return (await service.activate(args["objectUrl"])).to_dict()
