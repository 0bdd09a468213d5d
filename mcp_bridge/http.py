"""The MCP bridge over streamable HTTP: bearer token, Host/Origin checks, loopback by default."""

from __future__ import annotations

import contextlib
import hmac
import os
import secrets
import socket
import sys
from collections.abc import Sequence
from typing import Any

import uvicorn
from mcp.server import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from adt.net import tcp_listener

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")


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


def serve_http(server: Server[Any], host: str, port: int, extra_hosts: Sequence[str] = ()) -> int:
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
