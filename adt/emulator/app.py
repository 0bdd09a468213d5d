"""The request pipeline: faults → auth → security session → context → CSRF → resource.

The order follows the layers of a real system: ICM (dead contexts, stateless hops)
answers before ICF (logon, CSRF), and only then does the ADT resource run.  Every
response, errors included, carries the session cookies.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import httpx
from starlette.applications import Starlette
from starlette.datastructures import Headers, QueryParams
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route

from . import documents, errors
from .calls import Call, error_response, respond
from .faults import FaultInjector
from .logon import Logon, LogonPolicy, Verdict
from .oauth import OAuthServer
from .routes import Resources
from .sessions import Context, SecuritySession
from .sso import PATHS as SSO_PATHS
from .sso import TICKET_HEADER
from .state import RequestLogEntry, SystemState
from .tls import client_certificate_name

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

ADMIN_PREFIX = "/__emulator__/"
OAUTH_PREFIX = "/oauth/"
LOGOFF_PATH = "/sap/public/bc/icf/logoff"
MUTATING = {"POST", "PUT", "DELETE", "PATCH"}
CONTEXT_COOKIE = "sap-contextid"
CONTEXT_PATHS = ("/sap/", "/sap/bc/", "/sap/bc/adt/")
DELETED_EXPIRES = "Thu, 01-Jan-1970 00:00:01 GMT"
NO_CONTEXT = ("", "0")


class DropConnection(httpx.RemoteProtocolError):
    """Raised after the response has started: the connection closes without an answer.

    Over a socket uvicorn closes the connection; through ``httpx.ASGITransport`` the
    exception itself reaches the caller, and it is an ``httpx.TransportError`` there.
    """

    def __init__(self) -> None:
        super().__init__("emulator dropped the connection (fault injection)")


class _HideDrops(logging.Filter):
    """Keeps uvicorn from logging injected drops as application errors."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, DropConnection)


logging.getLogger("uvicorn.error").addFilter(_HideDrops())
logger = logging.getLogger("adt.emulator")


class _Exchange:
    """Per-request bookkeeping: cookies and headers to add, who asked."""

    def __init__(self) -> None:
        self.cookies: list[str] = []
        self.headers: dict[str, str] = {}
        self.user: str | None = None
        self.context_id: str | None = None

    def finish(self, response: Response) -> Response:
        for key, value in self.headers.items():
            response.headers[key] = value
        for cookie in self.cookies:
            response.raw_headers.append((b"set-cookie", cookie.encode("latin-1")))
        response.headers["sap-server"] = "true"
        return response


def _usercontext_client(cookie: str | None) -> str | None:
    if not cookie:
        return None
    for item in cookie.split("&"):
        key, _, value = item.partition("=")
        if key.strip().lower() == "sap-client" and value:
            return value.strip()
    return None


class Pipeline:
    """Runs one ADT request against the state; synchronous, under the state lock."""

    def __init__(self, state: SystemState, logon: Logon) -> None:
        self.state = state
        self.logon = logon
        self.resources = Resources(state)

    @property
    def session_cookie(self) -> str:
        return f"SAP_SESSIONID_{self.state.sid}_{self.state.client}"

    def _context_deletion(self) -> list[str]:
        return [
            f"{CONTEXT_COOKIE}=0; expires={DELETED_EXPIRES}; path={path}" for path in CONTEXT_PATHS
        ]

    def process(self, request: Request, path: str, body: bytes, ex: _Exchange) -> Response:
        headers, cookies = request.headers, request.cookies
        client = self._client(request, ex)
        if path == LOGOFF_PATH:
            return self._logoff(cookies, ex)
        verdict = self.logon.identify(
            headers.get("authorization"),
            client_certificate_name(request.scope),
            headers.get(TICKET_HEADER),
        )
        session = self._authenticate(verdict, cookies, client)
        if session is None:
            return self._logon_failed(client, verdict)
        ex.user = session.user
        ex.cookies.append(f"{self.session_cookie}={session.id}; path=/; HttpOnly")
        self.state.expire_idle()
        stateful = (headers.get("x-sap-adt-sessiontype") or "").strip().lower() == "stateful"
        context, dead = self._known_context(cookies, session)
        if dead:
            return self._session_timed_out(ex)
        if context is not None and not stateful:
            # The stateless hop ends the context before the logon layer looks at the request,
            # so a refused stateless request (a bad CSRF token) ends it all the same.
            self.state.end_context(context.id)
            ex.cookies += self._context_deletion()
            context = None
        refusal = self._csrf(request.method.upper(), headers, session, ex)
        if refusal is not None:
            return refusal
        if context is None and stateful:
            context = self.state.sessions.open_context(session.user, session.id)
            ex.cookies += [f"{CONTEXT_COOKIE}={context.id}; path={p}" for p in CONTEXT_PATHS]
        if context is not None:
            context.last_used = self.state.sessions.clock()
            ex.context_id = context.id
        return self._run(request, path, body, session, context)

    def _client(self, request: Request, ex: _Exchange) -> str:
        """The SAP client of a request, and the ``sap-usercontext`` cookie naming it."""
        query = request.query_params
        client = (
            query.get("sap-client")
            or request.headers.get("sap-client")
            or _usercontext_client(request.cookies.get("sap-usercontext"))
            or self.state.client
        )
        language = query.get("sap-language")
        usercontext = f"sap-client={client}"
        if language:
            usercontext = f"sap-language={language}&{usercontext}"
        ex.cookies.append(f"sap-usercontext={usercontext}; path=/")
        return client

    def _logon_failed(self, client: str, verdict: Verdict) -> Response:
        response = respond(
            documents.logon_failed_page(self.state.sid, client),
            status=401,
            content_type="text/html; charset=utf-8",
        )
        for challenge in self.logon.challenges(self.state.sid, self.state.client, verdict):
            response.raw_headers.append((b"www-authenticate", challenge.encode("latin-1")))
        return response

    def _known_context(
        self, cookies: dict[str, str], session: SecuritySession
    ) -> tuple[Context | None, bool]:
        """The live context the request names (None for none), and whether it names a dead
        one."""
        context_id = cookies.get(CONTEXT_COOKIE)
        if context_id is None or context_id.strip() in NO_CONTEXT:
            # ``0`` is the value of our own deletion cookie; clients that ignore ``expires``
            # (abap-adt-api) send it back, and real systems read it as "no context".
            return None, False
        context = self.state.sessions.contexts.get(context_id)
        if context is None or context.session_id != session.id:
            return None, True
        return context, False

    def _session_timed_out(self, ex: _Exchange) -> Response:
        ex.cookies += self._context_deletion()
        ex.headers["x-sap-icm-err-id"] = "ICMENOSESSION"
        ex.headers["sap-err-id"] = "ICMENOSESSION"
        return respond(
            documents.session_timed_out_page(),
            status=400,
            content_type="text/html; charset=utf-8",
        )

    def _csrf(
        self, method: str, headers: Headers, session: SecuritySession, ex: _Exchange
    ) -> Response | None:
        """Refuse a change without the session's token; hand out the token on a fetch."""
        if method in MUTATING:
            sent = headers.get("x-csrf-token")
            if session.csrf_token is None or sent != session.csrf_token:
                ex.headers["x-csrf-token"] = "Required"
                return respond(
                    "CSRF token validation failed",
                    status=403,
                    content_type="text/plain; charset=utf-8",
                )
        elif (headers.get("x-csrf-token") or "").lower() == "fetch":
            ex.headers["x-csrf-token"] = self.state.sessions.token_for(session)
        return None

    def _run(
        self,
        request: Request,
        path: str,
        body: bytes,
        session: SecuritySession,
        context: Context | None,
    ) -> Response:
        method = request.method.upper()
        call = Call(
            method="GET" if method == "HEAD" else method,
            path=path,
            query=request.query_params,
            headers=request.headers,
            body=body,
            user=session.user,
            session=session,
            context=context,
        )
        try:
            response = self.resources.dispatch(call)
        except errors.AdtException as error:
            return error_response(error)
        except Exception:  # an emulator bug must still answer like a server
            logger.exception("unexpected error in %s %s", method, path)
            return error_response(
                errors.AdtException(500, "ExceptionInternalError", "Internal error in the emulator")
            )
        if method == "HEAD":
            response.body = b""
            response.headers["content-length"] = "0"
        return response

    def _authenticate(
        self, verdict: Verdict, cookies: dict[str, str], client: str
    ) -> SecuritySession | None:
        """The security session of a request: the one its cookie names when it carries no
        credentials or those of the same user (a fresh token keeps the session and its
        contexts), else a new one; None when it proves no one."""
        sessions = self.state.sessions
        existing = sessions.find_session(cookies.get(self.session_cookie))
        if client != self.state.client:
            return None
        if verdict.user is None:
            return existing if verdict.anonymous else None
        if existing is not None and existing.user == verdict.user and existing.client == client:
            return existing
        return sessions.open_session(verdict.user, client)

    def _logoff(self, cookies: dict[str, str], ex: _Exchange) -> Response:
        session_id = cookies.get(self.session_cookie)
        if session_id is not None:
            self.state.close_session(session_id)
        ex.cookies.append(f"{self.session_cookie}=; expires={DELETED_EXPIRES}; path=/")
        ex.cookies += self._context_deletion()
        return respond()


class EmulatorASGI:
    """The ASGI endpoint: fault injection and logging around the pipeline."""

    def __init__(
        self,
        state: SystemState,
        faults: FaultInjector,
        admin: Callable[[Request, str], Awaitable[Response]] | None,
        logon: Logon,
    ) -> None:
        self.state = state
        self.faults = faults
        self.admin = admin
        self.oauth = logon.oauth
        self.sso = logon.sso
        self.pipeline = Pipeline(state, logon)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive)
        raw = scope.get("raw_path") or scope["path"].encode("utf-8")
        path = raw.decode("latin-1").split("?", 1)[0]
        method = request.method.upper()
        if self.admin is not None and path.startswith(ADMIN_PREFIX):
            response = await self.admin(request, path)
            await response(scope, receive, send)
            return
        query = scope.get("query_string", b"").decode("latin-1")
        if self.oauth is not None and path.startswith(OAUTH_PREFIX):
            await self._authorization_server(self.oauth, request, path, query, scope, send)
            return
        if self.sso is not None and path in SSO_PATHS:
            body = await request.body()
            with self.state.lock:
                host = request.headers.get("host", "")
                response = self.sso.handle(method, path, query, body, request.cookies, host)
            await response(scope, receive, send)
            return
        session_type = request.headers.get("x-sap-adt-sessiontype")
        decision = self.faults.decide(method, path)
        if decision.latency:
            await asyncio.sleep(decision.latency)
        if decision.drop:
            self._log(method, path, query, 0, session_type, None, None)
            await send(
                {
                    "type": "http.response.start",
                    "status": 200,
                    "headers": [(b"content-length", b"64")],
                }
            )
            raise DropConnection()
        if decision.fail_status is not None:
            self._log(method, path, query, decision.fail_status, session_type, None, None)
            response = respond(
                f"<html><body><h1>{decision.fail_status} Service Error</h1></body></html>",
                status=decision.fail_status,
                content_type="text/html; charset=utf-8",
            )
            await response(scope, receive, send)
            return
        try:
            body = await request.body()
        except ClientDisconnect:  # the caller went away mid-request: nothing to process
            self._log(method, path, query, 499, session_type, None, None)
            return
        ex = _Exchange()
        with self.state.lock:
            response = ex.finish(self.pipeline.process(request, path, body, ex))
            self.state.changed.notify_all()
        self._log(method, path, query, response.status_code, session_type, ex.user, ex.context_id)
        await response(scope, receive, send)

    async def _authorization_server(
        self, oauth: OAuthServer, request: Request, path: str, query: str, scope: Scope, send: Send
    ) -> None:
        """The OAuth endpoints (the UAA beside the system; not in the ADT request log)."""
        body = await request.body()
        with self.state.lock:
            response = oauth.handle(
                request.method.upper(), path, query, body, request.headers.get("authorization")
            )
        await response(scope, request.receive, send)

    def _log(
        self,
        method: str,
        path: str,
        query: str,
        status: int,
        session_type: str | None,
        user: str | None,
        context_id: str | None,
    ) -> None:
        self.state.log(RequestLogEntry(method, path, query, status, session_type, user, context_id))


def build_app(
    state: SystemState,
    faults: FaultInjector,
    admin: Callable[[Request, str], Awaitable[Response]] | None = None,
    logon: Logon | None = None,
) -> Starlette:
    """The Starlette application: every path goes to the emulator endpoint."""
    logon = logon or Logon(LogonPolicy(), state.users, None)
    endpoint = EmulatorASGI(state, faults, admin, logon)
    return Starlette(routes=[Route("/{path:path}", endpoint)])


__all__ = ["DropConnection", "EmulatorASGI", "Pipeline", "QueryParams", "build_app"]
