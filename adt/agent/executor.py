"""Run agent tools: validate the arguments, apply the write policy, call the tool's handler,
keep the answer within the response limit, and report every failure in the V2 error form.
No MCP here: the MCP bridge and the language server's passthrough channel are both thin faces
over :class:`AgentTools`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adt.agent.fitting import dumps, size
from adt.agent.policy import WritePolicy
from adt.agent.registry import WORDS, DocumentViews, ToolCall, ToolDefinition
from adt.agent.tools import BY_NAME, TOOLS
from adt.errors import InvalidObjectUrlError
from adt.metering import metered
from adt.source.errors import InvalidArgument, error_payload
from adt.systems import Connections
from adt.urls import object_url

if TYPE_CHECKING:
    from adt.source import SourceService

DEFAULT_MAX_RESPONSE_CHARS = 80_000


@dataclass(frozen=True)
class ToolOutcome:
    ok: bool
    payload: dict[str, Any]

    @property
    def text(self) -> str:
        return dumps(self.payload)


class AgentTools:
    """The agent tools over a pool of systems."""

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
        self._validators: dict[str, Any] = {}

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
        with metered() as meter:
            try:
                payload = await self._run(name, dict(arguments or {}), owner, limit)
                ok = True
            except Exception as exc:
                payload, ok = error_payload(exc, WORDS), False
        payload["executionTimeMs"] = round((time.perf_counter() - started) * 1000, 1)
        payload["adtRequests"] = meter.requests
        return ToolOutcome(ok, payload)

    async def _run(self, name: str, args: dict[str, Any], owner: str, limit: int) -> dict[str, Any]:
        tool = BY_NAME.get(name)
        if tool is None:
            raise InvalidArgument(
                f"unknown tool {name!r}; available: {', '.join(BY_NAME)}", tool=name
            )
        self._validate(tool, args)
        args.pop("workspace", None)  # routing happens before this point
        system = args.pop("system", None)
        service = self.connections.service(system)
        named_objects(args)
        if tool.changes(args):
            await self._check_policy(tool, service, args)
        call = ToolCall(
            service,
            owner,
            limit,
            self.views,
            lambda: self.connections.workbench(system),
            self.policy.data_preview,
            lambda url: self._check_object(tool, service, url),
            lambda url, name, package: self._check_new(tool, url, name, package),
        )
        data = await tool.handler(call, args)
        return _fit(tool, {"status": "success", "data": data}, limit)

    def _validate(self, tool: ToolDefinition, args: dict[str, Any]) -> None:
        validator = self._validators.get(tool.name)
        if validator is None:  # built on first use: listing the tools needs no validator
            from jsonschema import Draft202012Validator

            validator = self._validators[tool.name] = Draft202012Validator(tool.input_schema)
        errors = sorted(validator.iter_errors(args), key=lambda e: list(e.path))
        if errors:
            messages = [
                f"{'/'.join(str(p) for p in e.path) or 'arguments'}: {e.message}" for e in errors
            ]
            raise InvalidArgument(f"{tool.name}: {messages[0]}", errors=messages[:10])

    async def _check_policy(
        self, tool: ToolDefinition, service: SourceService, args: dict[str, Any]
    ) -> None:
        if self.policy.read_only:
            self.policy.check(tool.name, "", "", "")
        if not self.policy.restricts:
            return
        known = tool.policy_target(args) if tool.policy_target is not None else None
        if known is not None:
            self.policy.check(tool.name, *known)
            return
        url = args.get("objectUrl") or args.get("objectSourceUrl")
        if url is None and tool.checks_each_write:
            return
        await self._check_object(tool, service, url)

    async def _check_new(self, tool: ToolDefinition, url: str, name: str, package: str) -> None:
        """The write policy for an object that does not exist yet."""
        self.policy.check(tool.name, url, name, package)

    async def _check_object(
        self, tool: ToolDefinition, service: SourceService, url: str | None
    ) -> None:
        """The write policy for one object (any URL of it)."""
        if self.policy.read_only:
            self.policy.check(tool.name, "", "", "")
        if not self.policy.restricts:
            return
        target = service.resolve(url).ref.object_url
        name, package = await service.object_identity(target)
        self.policy.check(tool.name, target, name, package)


def _named(value: str) -> str:
    if value.startswith("/"):
        return value
    kind, _, name = value.partition(":")
    try:
        return object_url(kind.strip(), name.strip())
    except InvalidObjectUrlError as exc:
        raise InvalidArgument(
            f"{value!r} is neither an object URL nor TYPE:NAME (e.g. DDLS:/DMO/I_TRAVEL_M): {exc}"
        ) from exc


def named_objects(args: dict[str, Any]) -> None:
    """Objects given as ``TYPE:NAME`` (``DDLS:/DMO/I_TRAVEL_M``, ``TABL:ZTRIP``) become their
    object URLs, through the kinds registry, before a tool sees them."""
    if isinstance(args.get("objectUrl"), str):
        args["objectUrl"] = _named(args["objectUrl"])
    if isinstance(args.get("also"), list):
        args["also"] = [_named(v) for v in args["also"] if isinstance(v, str)]


def _fit(tool: ToolDefinition, payload: dict[str, Any], limit: int) -> dict[str, Any]:
    """The answer within ``limit``: shrunk by the tool where it can say how to go on,
    refused otherwise."""
    if size(payload) <= limit:
        return payload
    if tool.fit is not None:
        tool.fit(payload, limit)
    if size(payload) > limit:
        raise InvalidArgument(
            f"the answer would exceed the response limit of {limit} characters; narrow the "
            "request (fewer lines, fewer matches)",
            limit=limit,
        )
    return payload
