"""The MCP bridge: the agent tools of :mod:`adt.agent` as MCP tools, over stdio or HTTP.

A thin face on the official ``mcp`` SDK's low-level server: our hand-written tool schemas (so
the advertised list stays small), structured JSON results with the execution time, and errors
in the V2 design's JSON form with ``isError``. Start it with ``abap-adt mcp``; see
docs/mcp.md.
"""

from __future__ import annotations

import argparse
import contextlib
import hmac
import logging
import os
import secrets
import socket
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import uvicorn
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.server.transport_security import TransportSecuritySettings
from mcp.types import (
    CallToolRequestParams,
    CallToolResult,
    ListToolsResult,
    PaginatedRequestParams,
    TextContent,
    Tool,
    ToolAnnotations,
)
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from adt._net import tcp_listener
from adt.agent import TOOLS, AgentTools, WritePolicy
from adt.agent.executor import DEFAULT_MAX_RESPONSE_CHARS
from adt.errors import ConfigurationError
from adt.source import SourceConfig
from adt.systems import Connections, SystemsConfig
from mcp_bridge.router import Router, Windows

log = logging.getLogger("mcp_bridge")

INSTRUCTIONS = (
    "Edit ABAP sources on SAP systems. Read only the lines you need (getObjectSourceV2, "
    "grepObjectSource), then write line patches with setObjectSourceV2 and the token you read: "
    "a stale token is refused instead of overwriting someone's change. Writes lock and unlock "
    "by themselves. Activate after writing."
)
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def tool_list() -> list[Tool]:
    return [
        Tool(
            name=tool.name,
            description=tool.description,
            input_schema=tool.input_schema,
            annotations=ToolAnnotations(
                read_only_hint=tool.read_only,
                destructive_hint=tool.destructive if not tool.read_only else None,
                idempotent_hint=tool.idempotent,
                open_world_hint=False,
            ),
        )
        for tool in TOOLS
    ]


def build_server(router: Router, connections: Connections) -> Server[Any]:
    """The MCP server object (used by every transport and by in-memory tests)."""

    @contextlib.asynccontextmanager
    async def lifespan(server: Server[Any]) -> AsyncIterator[None]:
        try:
            yield None
        finally:  # release every lock this bridge took, end its sessions
            await router.close()
            await connections.close()

    async def list_tools(
        ctx: ServerRequestContext[Any], params: PaginatedRequestParams | None
    ) -> ListToolsResult:
        return ListToolsResult(tools=tool_list())

    async def call_tool(
        ctx: ServerRequestContext[Any], params: CallToolRequestParams
    ) -> CallToolResult:
        outcome = await router.call(params.name, dict(params.arguments or {}))
        return CallToolResult(
            content=[TextContent(type="text", text=outcome.text)],
            structured_content=outcome.payload,
            is_error=not outcome.ok,
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
    *,
    systems: SystemsConfig | None = None,
    policy: WritePolicy | None = None,
    passthrough: bool = True,
    connections: Connections | None = None,
    max_response_chars: int | None = None,
) -> Server[Any]:
    """Build the bridge from the environment (or the given parts)."""
    rules = policy or WritePolicy.from_settings()
    pool = connections or Connections(
        systems if systems is not None else SystemsConfig.load(),
        source_config=SourceConfig.from_env(),
    )
    limit = max_response_chars or int(
        os.environ.get("MCP_MAX_RESPONSE_CHARS", DEFAULT_MAX_RESPONSE_CHARS)
    )
    local = AgentTools(pool, policy=rules, max_response_chars=limit)
    router = Router(local, rules, Windows() if passthrough else None)
    return build_server(router, pool)


class BearerToken:
    """401 unless ``Authorization: Bearer <token>`` (compared in constant time)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            header = dict(scope["headers"]).get(b"authorization", b"")
            scheme, _, value = header.partition(b" ")
            if scheme.lower() != b"bearer" or not hmac.compare_digest(value.strip(), self.token):
                response = JSONResponse(
                    {"error": "a bearer token is required (Authorization: Bearer <token>)"},
                    status_code=401,
                    headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def http_app(server: Server[Any], token: str, host: str = "127.0.0.1") -> ASGIApp:
    """The streamable-HTTP app: bearer token, and Host/Origin checks against DNS rebinding."""
    security = None
    if host not in LOOPBACK:
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=[f"{host}:*"],
            allowed_origins=[f"http://{host}:*", f"https://{host}:*"],
        )
    app = server.streamable_http_app(
        stateless_http=True, json_response=True, host=host, transport_security=security
    )
    return BearerToken(app, token)


def _serve_http(server: Server[Any], host: str, port: int) -> int:
    token = os.environ.get("MCP_HTTP_TOKEN") or secrets.token_urlsafe(32)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        sock = tcp_listener(host, port)
    except OSError as exc:
        print(f"abap-adt mcp: cannot listen on {host}:{port}: {exc}", file=sys.stderr)
        return 2
    shown = f"[{host}]" if family == socket.AF_INET6 else host
    url = f"http://{shown}:{sock.getsockname()[1]}/mcp"
    print(f"MCP server listening on {url}", flush=True)
    if "MCP_HTTP_TOKEN" not in os.environ:
        print(f"Bearer token (generated; set MCP_HTTP_TOKEN to choose one): {token}", flush=True)
    config = uvicorn.Config(
        http_app(server, token, host), log_level="warning", access_log=False, lifespan="on"
    )
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[sock])
    sock.close()
    return 0


async def _serve_stdio(server: Server[Any]) -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def run_from_args(args: argparse.Namespace | None = None) -> int:
    """``abap-adt mcp``: stdio by default, ``--transport http`` for streamable HTTP."""
    logging.basicConfig(
        level=os.environ.get("ABAP_ADT_LOG_LEVEL", "WARNING"),
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    transport = getattr(args, "transport", "stdio")
    try:
        server = make_bridge(
            policy=WritePolicy.from_settings(
                read_only=bool(getattr(args, "read_only", False)),
                allow=list(getattr(args, "allow", []) or []),
            ),
            passthrough=not getattr(args, "no_passthrough", False),
        )
    except ConfigurationError as exc:
        print(f"abap-adt mcp: {exc}", file=sys.stderr)
        return 2
    if transport == "http":
        return _serve_http(server, getattr(args, "host", "127.0.0.1"), getattr(args, "port", 0))
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    anyio.run(_serve_stdio, server)
    return 0
