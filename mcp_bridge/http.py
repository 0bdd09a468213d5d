"""The MCP bridge over streamable HTTP: bearer token, Host/Origin checks, loopback by default.

A server others can reach must also survive them: the connection limits (a short wait for
the request head, connections per client address, a cap that makes room by closing
connections that sent nothing, a minimum body rate) are :mod:`mcp_bridge.guard`'s.
Binding to a non-loopback address needs TLS (``--tls-cert``/``--tls-key``) or an explicit
``--insecure-http``, and a chosen token must be at least 32 characters long.
"""

from __future__ import annotations

import contextlib
import hmac
import logging
import os
import secrets
import signal
import socket
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import uvicorn
from mcp.server import Server
from mcp.server.transport_security import TransportSecuritySettings
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from adt.heap import freeze_startup_objects
from adt.net import tcp_listener
from mcp_bridge.guard import ConnectionLimits, guarded_protocol
from mcp_bridge.jsonrpc import RequestIdCheck
from mcp_bridge.team import MEMBER_KEY, LiveTeam

log = logging.getLogger("mcp_bridge.http")
LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")


MIN_TOKEN_LENGTH = 32


@dataclass(frozen=True)
class HttpOptions:
    host: str = "127.0.0.1"
    port: int = 0
    extra_hosts: tuple[str, ...] = ()
    tls_cert: str | None = None
    tls_key: str | None = None
    insecure_http: bool = False
    header_timeout: float = 5.0
    idle_timeout: float = 30.0
    max_connections: int = 256
    max_connections_per_client: int = 32
    min_body_rate: int = 4096

    @property
    def loopback(self) -> bool:
        return self.host in LOOPBACK

    @property
    def tls(self) -> bool:
        return self.tls_cert is not None


def exposure_problem(options: HttpOptions, configured_token: str) -> str | None:
    """Why the server must not start this way (None: it may)."""
    if not 0 <= options.port <= 65535:
        return f"--port must be between 0 and 65535, not {options.port}"
    if configured_token and len(configured_token) < MIN_TOKEN_LENGTH:
        return (
            f"MCP_HTTP_TOKEN is {len(configured_token)} characters long; use at least "
            f"{MIN_TOKEN_LENGTH}, e.g. from: python -c 'import secrets; "
            "print(secrets.token_urlsafe(32))'"
        )
    if bool(options.tls_cert) != bool(options.tls_key):
        return "--tls-cert and --tls-key go together"
    if options.tls_cert and options.tls_key:
        unusable = _certificate_problem(options.tls_cert, options.tls_key)
        if unusable is not None:
            return unusable
    if not options.loopback and not options.tls and not options.insecure_http:
        return (
            f"--host {options.host} makes the bridge reachable from the network, where plain "
            "HTTP shows the bearer token to anyone on the way: pass --tls-cert and --tls-key, "
            "or --insecure-http if the network is yours"
        )
    return None


def _certificate_problem(cert: str, key: str) -> str | None:
    """Why the certificate and key cannot serve HTTPS (None: they can), checked before
    listening so a typo is a message, not a traceback from deep inside uvicorn."""
    import ssl

    missing = [
        f"{flag} {path}"
        for flag, path in (("--tls-cert", cert), ("--tls-key", key))
        if not os.path.isfile(path)
    ]
    if missing:
        return f"{' and '.join(missing)}: no such file"
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert, key)
    except ssl.SSLError as exc:  # before OSError, of which it is a kind
        return (
            f"--tls-cert {cert} and --tls-key {key} are not a PEM certificate and its private "
            f"key ({exc.reason or exc})"
        )
    except OSError as exc:
        return f"cannot read --tls-cert {cert} or --tls-key {key}: {exc.strerror}"
    return None


class Gate:
    """401 unless ``Authorization: Bearer <token>`` (compared in constant time) names the
    bridge's token or, in team mode, a member's (who is then ``scope["state"]["member"]``);
    405 for a GET, which would open a server-sent event stream that this stateless,
    JSON-answering server never writes to."""

    def __init__(self, app: ASGIApp, token: str, team: LiveTeam | None = None) -> None:
        self.app = app
        self.token = token.encode()
        self.team = team if team else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            refusal = self._refusal(scope)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)

    def _known(self, scope: Scope, presented: bytes) -> bool:
        if self.team is None:
            return hmac.compare_digest(presented, self.token)
        member = self.team().member_for(presented.decode("utf-8", "replace"))
        if member is None:
            return False
        scope.setdefault("state", {})[MEMBER_KEY] = member.name
        return True

    def _refusal(self, scope: Scope) -> JSONResponse | None:
        header = dict(scope["headers"]).get(b"authorization", b"")
        scheme, _, value = header.partition(b" ")
        value = value.strip()
        # A token shorter than any we issue is refused before it is hashed or compared:
        # "Bearer" alone, or a guess, costs the server nothing.
        if (
            scheme.lower() != b"bearer"
            or len(value) < MIN_TOKEN_LENGTH
            or not self._known(scope, value)
        ):
            return JSONResponse(
                {"error": "a bearer token is required (Authorization: Bearer <token>)"},
                status_code=401,
                headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
            )
        if scope["method"] == "GET":
            return JSONResponse(
                {"error": "this server answers POST requests with JSON; it offers no stream"},
                status_code=405,
                headers={"Allow": "POST"},
            )
        return None


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
    team: LiveTeam | None = None,
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
    return Gate(RequestIdCheck(app), token, team)


def serve_http(server: Server[Any], options: HttpOptions, *, team: LiveTeam | None = None) -> int:
    configured = os.environ.get("MCP_HTTP_TOKEN", "").strip()  # empty counts as unset
    problem = exposure_problem(options, configured)
    if problem is not None:
        print(f"abap-adt mcp: {problem}", file=sys.stderr)
        return 2
    if team and configured:
        print(
            "abap-adt mcp: team mode: every member has their own token ([team] in the "
            "configuration); MCP_HTTP_TOKEN is not used",
            file=sys.stderr,
        )
    token = configured or secrets.token_urlsafe(32)
    try:
        sock = tcp_listener(options.host, options.port)
    except OSError as exc:
        print(
            f"abap-adt mcp: cannot listen on {options.host}:{options.port}: {exc}", file=sys.stderr
        )
        return 2
    _announce(options, sock.getsockname()[1], token, generated=not configured, team=team)
    app = http_app(server, token, options.host, options.extra_hosts, team)
    _load_what_calls_need()
    freeze_startup_objects()
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="on",
        http=guarded_protocol(
            ConnectionLimits(
                header_timeout=options.header_timeout,
                max_connections=options.max_connections,
                max_per_client=options.max_connections_per_client,
                min_body_rate=options.min_body_rate,
            )
        ),
        timeout_keep_alive=int(options.idle_timeout),
        ssl_certfile=options.tls_cert,
        ssl_keyfile=options.tls_key,
    )
    if team and hasattr(signal, "SIGHUP"):  # revoked or rotated tokens without a restart
        signal.signal(signal.SIGHUP, team.request_reload)
    with contextlib.suppress(KeyboardInterrupt):
        uvicorn.Server(config).run(sockets=[sock])
    sock.close()
    return 0


def _load_what_calls_need() -> None:
    """An HTTP bridge runs long and serves many: load what every call needs (the tool
    executor, the ADT client) before the start-up objects are frozen, so that full garbage
    collections walk neither (stdio loads them at the first call instead: start-up counts
    there)."""
    from adt import AdtClient  # noqa: F401  (public name, loaded on first use)
    from adt.agent import executor  # noqa: F401


def _announce(
    options: HttpOptions, port: int, token: str, *, generated: bool, team: LiveTeam | None
) -> None:
    host = options.host
    shown = socket.gethostname() if host in WILDCARD else host
    shown = f"[{shown}]" if ":" in shown else shown
    scheme = "https" if options.tls else "http"
    print(f"MCP server listening on {scheme}://{shown}:{port}/mcp", flush=True)
    if team:
        members = team().members
        names = ", ".join(m.name for m in members)
        print(f"Team mode: {len(members)} members ({names}), each with their token")
    elif generated:
        print(f"Bearer token (generated; set MCP_HTTP_TOKEN to choose one): {token}", flush=True)
    if not options.loopback:
        names = ", ".join(allowed_hosts(host, options.extra_hosts))
        print(f"Accepted Host names: {names} (add more with --allowed-host)", file=sys.stderr)
    if not options.loopback and not options.tls:
        print(
            "WARNING: serving plain HTTP on a network address (--insecure-http): the bearer "
            "token and every answer travel unencrypted.",
            file=sys.stderr,
            flush=True,
        )
