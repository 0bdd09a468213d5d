"""The MCP bridge: the agent tools of :mod:`adt.agent` as MCP tools, over stdio or HTTP.

A thin face on the official ``mcp`` SDK's low-level server: our hand-written tool schemas (so
the advertised list stays small), structured JSON results with the execution time, and errors
in the V2 design's JSON form with ``isError``. Start it with ``abap-adt mcp``; see
docs/mcp.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

import anyio
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ContentBlock,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
    ToolAnnotations,
)

from adt import logs
from adt.agent import TOOLS, AgentTools, WritePolicy
from adt.errors import ConfigurationError
from adt.heap import freeze_when_settled
from adt.logon import OpenBrowser
from adt.systems import (
    BridgeSettings,
    Connections,
    Settings,
    default_config_path,
    load_settings,
)
from mcp_bridge.jsonrpc import CheckedStdin
from mcp_bridge.logons import StdioLogons, http_refusal
from mcp_bridge.router import Router, Windows
from mcp_bridge.team import MEMBER_KEY, LiveTeam, Routers, member_router_factory

if TYPE_CHECKING:
    from mcp_bridge.http import HttpOptions

log = logging.getLogger("mcp_bridge")

INSTRUCTIONS = (
    "Edit ABAP sources on SAP systems. Read only the lines you need (getObjectSourceV2, "
    "grepObjectSource), then write line patches with setObjectSourceV2 and the token you read: "
    "changes others made since that do not touch yours are kept, touching ones are refused - "
    "never overwritten. Writes lock and unlock "
    "by themselves. Activate after writing. Every tool takes system (a configured SAP "
    "system; default: the bridge's) and workspace (the editor window to route to). objectUrl "
    "is a URL or TYPE:NAME (CLAS:ZCL_X, DDLS:/DMO/I_X); includeType names a class part."
)


def tool_list() -> list[Tool]:
    return [
        Tool(
            name=tool.name,
            description=tool.description,
            input_schema=tool.input_schema,
            annotations=ToolAnnotations(  # a hint equal to MCP's default is left out
                read_only_hint=tool.read_only or None,
                destructive_hint=tool.destructive if not tool.read_only else None,
                idempotent_hint=tool.idempotent or None,
                open_world_hint=False,
            ),
        )
        for tool in TOOLS
    ]


def _member(ctx: ServerRequestContext[Any]) -> str | None:
    """The team member the HTTP gate recognised for this request (None: no team)."""
    request = getattr(ctx, "request", None)
    scope = getattr(request, "scope", None) or {}
    state = scope.get("state") or {}
    member = state.get(MEMBER_KEY)
    return member if isinstance(member, str) else None


def build_server(routers: Routers, *, text_content: bool = True) -> Server[Any]:
    """The MCP server object (used by every transport and by in-memory tests).

    Every answer carries its JSON as ``structuredContent`` and, as the MCP specification
    recommends for clients that read only text, once more as a text block; ``text_content``
    off (setting ``textContent``) leaves the copy out for clients that read structured
    content."""
    tools = tool_list()

    @contextlib.asynccontextmanager
    async def lifespan(server: Server[Any]) -> AsyncIterator[None]:
        try:
            yield None
        finally:  # release every lock this bridge took, end its sessions
            await routers.close()

    async def list_tools(
        ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        return ListToolsResult(tools=tools)

    async def call_tool(
        ctx: ServerRequestContext[Any], params: CallToolRequestParams
    ) -> CallToolResult:
        outcome = await routers.call(_member(ctx), params.name, dict(params.arguments or {}))
        blocks: list[ContentBlock] = (
            [TextContent(type="text", text=outcome.text)] if text_content else []
        )
        return CallToolResult(
            content=blocks, structured_content=outcome.payload, is_error=not outcome.ok
        )

    return Server(
        "abap-adt",
        version="0.1.0",
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


def make_bridge(
    settings: Settings | None = None,
    *,
    policy: WritePolicy | None = None,
    passthrough: bool = True,
    connections: Connections | None = None,
    max_response_chars: int | None = None,
    channel_connect_timeout: float | None = None,
    channel_call_timeout: float | None = None,
    team: LiveTeam | None = None,
    open_browser: OpenBrowser | None = None,
) -> Server[Any]:
    """Build the bridge from ``settings`` (default: everything at its default, no systems);
    the keyword arguments override single parts (tests, benchmarks). ``open_browser`` shows
    a browser logon (:mod:`mcp_bridge.logons`: the local user's over stdio, a refusal over
    HTTP)."""
    config = settings or Settings()
    bridge = config.bridge
    rules = policy or WritePolicy.from_settings(bridge)
    pool = connections or Connections(
        config.systems, source_config=config.source.to_config(), open_browser=open_browser
    )
    local = AgentTools(
        pool, policy=rules, max_response_chars=max_response_chars or bridge.max_response_chars
    )
    windows = None
    if passthrough and not config.team:
        windows = Windows(
            connect_timeout=channel_connect_timeout or bridge.channel_connect_timeout,
            call_timeout=channel_call_timeout or bridge.channel_call_timeout,
        )
    team = team or (LiveTeam(config.team) if config.team else None)
    routers = Routers(
        Router(local, rules, None if team else windows),
        team,
        member_router=member_router_factory(pool, rules, local.max_response_chars),
    )
    return build_server(routers, text_content=bridge.text_content)


async def _serve_stdio(server: Server[Any]) -> None:
    freeze_when_settled(asyncio.get_running_loop())  # see adt.heap
    stdin = CheckedStdin()  # a request with an invalid id is answered, not dropped
    async with stdio_server(stdin=stdin) as (read, write):  # type: ignore[arg-type]
        stdin.answer = write
        await server.run(read, write, server.create_initialization_options())


def http_options(args: argparse.Namespace | None, bridge: BridgeSettings) -> HttpOptions:
    from mcp_bridge.http import HttpOptions

    return HttpOptions(
        header_timeout=bridge.http_header_timeout,
        idle_timeout=bridge.http_idle_timeout,
        max_connections=bridge.http_max_connections,
        max_connections_per_client=bridge.http_max_connections_per_client,
        min_body_rate=bridge.http_min_body_rate,
        host=getattr(args, "host", "127.0.0.1"),
        port=getattr(args, "port", 0),
        extra_hosts=tuple(getattr(args, "allowed_host", []) or []),
        tls_cert=getattr(args, "tls_cert", None),
        tls_key=getattr(args, "tls_key", None),
        insecure_http=bool(getattr(args, "insecure_http", False)),
    )


def _live_team(settings: Settings) -> LiveTeam | None:
    """The team of the configuration file, read again when it changes (none: no team)."""
    if not settings.team:
        return None
    return LiveTeam(settings.team, default_config_path(), lambda: load_settings().team)


def run_from_args(args: argparse.Namespace | None = None) -> int:
    """``abap-adt mcp``: stdio by default, ``--transport http`` for streamable HTTP."""
    transport = getattr(args, "transport", "stdio")
    try:
        logs.configure(
            logs.level_named(os.environ.get("ABAP_ADT_LOG_LEVEL", "WARNING")),
            logging.StreamHandler(sys.stderr),
            "%(levelname)s %(name)s: %(message)s",
        )
        settings = load_settings()
        team = _live_team(settings)
        server = make_bridge(
            settings,
            policy=WritePolicy.from_settings(
                settings.bridge,
                read_only=bool(getattr(args, "read_only", False)),
                allow=list(getattr(args, "allow", []) or []),
                allow_objects=list(getattr(args, "allow_object", []) or []),
                data_preview=bool(getattr(args, "allow_data_preview", False)),
            ),
            passthrough=not getattr(args, "no_passthrough", False),
            team=team,
            open_browser=http_refusal() if transport == "http" else StdioLogons(),
        )
    except ConfigurationError as exc:
        print(f"abap-adt mcp: {exc}", file=sys.stderr)
        return 2
    if settings.team and transport != "http":
        print(
            "abap-adt mcp: [team] in the configuration applies to --transport http only; "
            "over stdio the bridge works as the configured systems' users",
            file=sys.stderr,
        )
    if transport == "http":
        from mcp_bridge.http import serve_http  # uvicorn and starlette only for HTTP

        return serve_http(server, http_options(args, settings.bridge), team=team)
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    anyio.run(_serve_stdio, server)
    return 0
