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
from collections.abc import AsyncIterator, Sequence
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
from adt.agent.channel import DEFAULT_CALL_TIMEOUT, DEFAULT_CONNECT_TIMEOUT
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
WILDCARD = ("0.0.0.0", "::", "")


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


def _seconds(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        seconds = float(value)
    except ValueError as exc:
        raise ConfigurationError(f"{name} must be a number of seconds, not {value!r}") from exc
    if seconds <= 0:
        raise ConfigurationError(f"{name} must be positive, not {value!r}")
    return seconds


def make_bridge(
    *,
    systems: SystemsConfig | None = None,
    policy: WritePolicy | None = None,
    passthrough: bool = True,
    connections: Connections | None = None,
    max_response_chars: int | None = None,
    channel_connect_timeout: float | None = None,
    channel_call_timeout: float | None = None,
) -> Server[Any]:
    """Build the bridge from the environment (or the given parts).

    The editor channel's time limits default to ``MCP_CHANNEL_CONNECT_TIMEOUT`` (2 s) and
    ``MCP_CHANNEL_CALL_TIMEOUT`` (120 s)."""
    rules = policy or WritePolicy.from_settings()
    pool = connections or Connections(
        systems if systems is not None else SystemsConfig.load(),
        source_config=SourceConfig.from_env(),
    )
    limit = max_response_chars or int(
        os.environ.get("MCP_MAX_RESPONSE_CHARS", DEFAULT_MAX_RESPONSE_CHARS)
    )
    local = AgentTools(pool, policy=rules, max_response_chars=limit)
    windows = None
    if passthrough:
        windows = Windows(
            connect_timeout=channel_connect_timeout
            or _seconds("MCP_CHANNEL_CONNECT_TIMEOUT", DEFAULT_CONNECT_TIMEOUT),
            call_timeout=channel_call_timeout
            or _seconds("MCP_CHANNEL_CALL_TIMEOUT", DEFAULT_CALL_TIMEOUT),
        )
    router = Router(local, rules, windows)
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


def _machine_names() -> list[str]:
    """This machine's host names and addresses, as clients on the network may call it."""
    names = [socket.gethostname(), socket.getfqdn()]
    for name in list(names):
        with contextlib.suppress(OSError):
            names += [str(info[4][0]) for info in socket.getaddrinfo(name, None)]
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # sends nothing: asks which address would be used
        names.append(str(probe.getsockname()[0]))
    return names


def allowed_hosts(host: str, extra: Sequence[str] = ()) -> list[str]:
    """The names a client may put in ``Host`` for a server bound to ``host``: the bind
    address itself; for a wildcard bind (0.0.0.0, ::) also loopback; for any non-loopback
    bind the machine's host names and addresses; and the ``extra`` names (--allowed-host)."""
    names: list[str] = []
    if host in WILDCARD or host in LOOPBACK:
        names += LOOPBACK
    if host not in WILDCARD:
        names.append(host)
    if host not in LOOPBACK:
        names += _machine_names()
    names += [name.strip() for name in extra if name.strip()]
    shown = [f"[{n}]" if ":" in n and not n.startswith("[") else n for n in names]
    return list(dict.fromkeys(n for n in shown if n))


def http_app(
    server: Server[Any],
    token: str,
    host: str = "127.0.0.1",
    extra_hosts: Sequence[str] = (),
) -> ASGIApp:
    """The streamable-HTTP app: bearer token, and Host/Origin checks against DNS rebinding.

    The SDK allows only loopback names for a loopback bind and checks nothing otherwise; we
    always check, against :func:`allowed_hosts` (a ``Host`` or ``Origin`` naming anything else
    gets 421 or 403)."""
    security = None
    if host not in LOOPBACK or extra_hosts:
        names = allowed_hosts(host, extra_hosts)
        security = TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=[p for n in names for p in (n, f"{n}:*")],
            allowed_origins=[
                p for n in names for s in ("http", "https") for p in (f"{s}://{n}", f"{s}://{n}:*")
            ],
        )
    app = server.streamable_http_app(
        stateless_http=True, json_response=True, host=host, transport_security=security
    )
    return BearerToken(app, token)


def _serve_http(server: Server[Any], host: str, port: int, extra_hosts: Sequence[str] = ()) -> int:
    configured = os.environ.get("MCP_HTTP_TOKEN", "").strip()  # empty counts as unset
    token = configured or secrets.token_urlsafe(32)
    try:
        sock = tcp_listener(host, port)
    except OSError as exc:
        print(f"abap-adt mcp: cannot listen on {host}:{port}: {exc}", file=sys.stderr)
        return 2
    shown = socket.gethostname() if host in WILDCARD else host
    shown = f"[{shown}]" if ":" in shown else shown
    url = f"http://{shown}:{sock.getsockname()[1]}/mcp"
    print(f"MCP server listening on {url}", flush=True)
    if not configured:
        print(f"Bearer token (generated; set MCP_HTTP_TOKEN to choose one): {token}", flush=True)
    if host not in LOOPBACK or extra_hosts:
        print(
            f"Accepted Host names: {', '.join(allowed_hosts(host, extra_hosts))} "
            "(add more with --allowed-host)",
            file=sys.stderr,
            flush=True,
        )
    config = uvicorn.Config(
        http_app(server, token, host, extra_hosts),
        log_level="warning",
        access_log=False,
        lifespan="on",
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
        return _serve_http(
            server,
            getattr(args, "host", "127.0.0.1"),
            getattr(args, "port", 0),
            list(getattr(args, "allowed_host", []) or []),
        )
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    anyio.run(_serve_stdio, server)
    return 0
