"""One ADT session: its own cookie jar, CSRF token and session type.

The client keeps two of these. The *stateless* one carries every read and never holds a
stateful context. The *stateful* one carries lock windows only, and every request it sends
says ``X-sap-adt-sessiontype: stateful``; so no request ever ends the context that owns our
locks by accident (protocol doc §1.5, §8.1).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

import httpx

from adt import _xml, logs
from adt._cookies import CookieJar
from adt.auth.base import Authenticator
from adt.auth.registry import authenticator_for
from adt.errors import (
    AdtTransportError,
    AuthenticationError,
    CsrfTokenError,
    ServerErrorInfo,
    SessionTimedOutError,
    error_for,
)
from adt.metering import count_request
from adt.profile import ConnectionProfile

log = logging.getLogger("adt.http")
logs.install()  # the HTTP libraries print response headers (cookies!) at DEBUG

CSRF_PATHS = ("/sap/bc/adt/core/discovery", "/sap/bc/adt/discovery")
LOGOFF_PATH = "/sap/public/bc/icf/logoff"
_SESSION_END_PATH = "/sap/bc/adt/compatibility/graph"
_MUTATING = frozenset({"POST", "PUT", "DELETE", "PATCH"})
_IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS"})
_RETRY_STATUSES = frozenset({502, 503, 504})


def _dropped(exc: httpx.TransportError) -> bool:
    """A connection that closed without an answer (neither refused nor timed out)."""
    return not isinstance(exc, (httpx.ConnectError, httpx.TimeoutException))


_DEAD_MARKERS = ("session timed out", "session not found", "session no longer exists")

Sleep = Callable[[float], Awaitable[None]]


class AuthGuard:
    """Shared by both sessions of a client: after one refusal, stop sending the same
    credentials (a password: failed logons lock SAP users)."""

    def __init__(self) -> None:
        self.failed_status: int | None = None

    def check(self) -> None:
        if self.failed_status is not None:
            raise AuthenticationError(
                "logon failed earlier with these credentials; not trying again, because "
                "repeated failed logons lock the SAP user. Correct the user, password or logon "
                "method in the system's settings, then restart the language server or the "
                "MCP bridge: it logs on again then."
            )


@dataclass(frozen=True)
class _Request:
    method: str
    path: str
    params: Mapping[str, str] | None
    headers: Mapping[str, str] | None
    content: bytes | None
    idempotent: bool = False

    @property
    def mutating(self) -> bool:
        return self.method in _MUTATING


class Reach:
    """Whether the system answered lately, shared by a client's sessions: once it refused
    connections through every retry, neither session waits through the retries again
    until one of them gets an answer."""

    def __init__(self) -> None:
        self.reached = False


class AdtSession:
    """Sends requests for one ADT session and turns failures into typed errors."""

    def __init__(
        self,
        profile: ConnectionProfile,
        *,
        stateful: bool,
        auth_guard: AuthGuard,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
        reach: Reach | None = None,
        authenticator: Authenticator | None = None,
    ) -> None:
        self.profile = profile
        self.stateful = stateful
        self.cookies = CookieJar()
        self.request_count = 0
        self.locks: dict[str, str] = {}
        self.orphaned: Callable[[AdtSession], None] | None = None
        self._transport = transport
        self._auth_guard = auth_guard
        self._sleep = sleep
        self._csrf: str | None = None
        self._csrf_path = CSRF_PATHS[0]
        self._csrf_lock = asyncio.Lock()
        # The first request of a fresh session goes alone, so that a burst of requests (an
        # editor opening several documents) logs on once, not once per request: several
        # security sessions would hand out tokens that the others' cookies refuse.
        self._logon = asyncio.Lock()
        self._answered = False
        self._serial = asyncio.Lock() if stateful else None
        self._reach = reach or Reach()  # has the system answered (and not gone down since)?
        self.authenticator = authenticator or authenticator_for(profile, transport)
        self._http = httpx.AsyncClient(
            base_url=profile.base_url,
            auth=self.authenticator.http_auth(),
            verify=self.authenticator.tls(),
            timeout=httpx.Timeout(profile.read_timeout, connect=profile.connect_timeout),
            transport=transport,
            follow_redirects=False,
        )

    @property
    def kind(self) -> str:
        return "stateful" if self.stateful else "stateless"

    @property
    def has_context(self) -> bool:
        return self.cookies.get("sap-contextid") is not None

    async def aclose(self) -> None:
        await self._http.aclose()

    # --- public entry ---------------------------------------------------------------------

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        content: bytes | None = None,
        idempotent: bool = False,
    ) -> httpx.Response:
        """Send one ADT request; return the 2xx response or raise a typed error.

        GET and HEAD are retried after network errors and 502/503/504; so is any request
        the caller declares ``idempotent`` (an UNLOCK, which SAP answers 200 whatever
        happened)."""
        self._auth_guard.check()
        request = _Request(method.upper(), path, params, headers, content, idempotent)
        if self._serial is None:
            return await self._request(request)
        async with self._serial:  # one request at a time per stateful context (§8.13)
            return await self._request(request)

    async def end_context(self, *, may_hold_locks: bool = False) -> None:
        """End our stateful context on the server (its locks go with it) and forget cookies.

        When the server could not be told and the context holds locks (or may: a lock whose
        answer was lost), the context is handed to ``orphaned`` (the client's release
        journal), which keeps ending it in the background; this session starts afresh."""
        if self.has_context and (self.locks or may_hold_locks) and self.orphaned is not None:
            if not await self.try_end():
                self.orphaned(self._detach())
            self._forget()
            return
        if self.has_context:
            with contextlib.suppress(httpx.HTTPError):
                await self._send(
                    "GET",
                    _SESSION_END_PATH,
                    None,
                    {"Accept": "*/*"},
                    None,
                    session_type="stateless",
                )
        await self.logoff()

    async def try_end(self) -> bool:
        """Ask the server to end this session's context, then log off; whether it said yes
        to either (SAP drops the enqueues of a context that ends)."""
        ended = False
        for path, session_type in ((_SESSION_END_PATH, "stateless"), (LOGOFF_PATH, None)):
            with contextlib.suppress(httpx.HTTPError):
                response = await self._send(
                    "GET", path, None, {"Accept": "*/*"}, None, session_type=session_type
                )
                ended = ended or response.status_code < 400
        return ended

    def _detach(self) -> AdtSession:
        """A session that takes over this one's context (cookies and locks); this one forgets
        them and starts afresh at its next request."""
        heir = AdtSession(
            self.profile,
            stateful=True,
            auth_guard=self._auth_guard,
            transport=self._transport,
            sleep=self._sleep,
            authenticator=self.authenticator,
        )
        heir.cookies.update_from(self.cookies)
        heir._answered = self._answered
        heir.locks = dict(self.locks)
        self._forget()
        return heir

    async def logoff(self) -> None:
        if self.cookies.names():
            with contextlib.suppress(httpx.HTTPError):
                await self._send("GET", LOGOFF_PATH, None, {"Accept": "*/*"}, None)
        self._forget()

    def _forget(self) -> None:
        self._reset()
        self.locks.clear()

    # --- internals ------------------------------------------------------------------------

    async def _request(self, request: _Request) -> httpx.Response:
        if request.mutating and self._csrf is None:
            await self._fetch_csrf()
        response = await self._send_with_retries(request)
        if self._is_csrf_failure(response) and request.mutating:
            response = await self._after_csrf_failure(request, response)
        if self._is_session_death(response):
            self._raise_if_locks_lost(response, request.method, request.path)
            # No locks depended on the dead context: starting afresh is safe.
            self._reset()
            if request.mutating:
                await self._fetch_csrf()
            response = await self._send_with_retries(request)
            if self._is_session_death(response):
                self._reset()
                raise SessionTimedOutError(
                    self._info(response, request.method, request.path),
                    "The server keeps answering 'Session timed out' for a fresh session; "
                    "check the system's session settings.",
                )
        if response.status_code == 401:
            raise self._logon_failed(response)
        if response.status_code >= 400:
            raise error_for(self._info(response, request.method, request.path))
        return response

    async def _after_csrf_failure(
        self, request: _Request, response: httpx.Response
    ) -> httpx.Response:
        """The token expired: fetch a new one in this very session (the same cookies, so a
        stateful context and its locks stay) and send the request once more. A context that
        died meanwhile shows in the fetch, and its locks are reported lost, never re-taken
        silently."""
        self._csrf = None
        await self._fetch_csrf()
        response = await self._send_with_retries(request)
        if self._is_csrf_failure(response):
            raise CsrfTokenError(
                self._info(response, request.method, request.path),
                "The server refused the CSRF token it had just handed out. Try again; if "
                "it happens again, check the system's logon and cookie settings (Secure "
                "cookies over plain http?).",
            )
        return response

    async def _send_with_retries(self, request: _Request) -> httpx.Response:
        retried = request.method in _IDEMPOTENT or request.idempotent
        delays = self.profile.retry_delays if retried else ()
        method, path = request.method, request.path
        attempt = 0
        resent = False  # a dropped connection's first retry goes at once
        while True:
            try:
                response = await self._send(
                    method, path, request.params, request.headers, request.content
                )
            except httpx.TransportError as exc:
                refusal = self.authenticator.transport_refusal(
                    exc, first_contact=not self._reach.reached
                )
                if refusal is not None:  # the TLS layer refused our certificate
                    raise refusal from None
                # A system never reached (nobody listens, the name does not resolve) is
                # reported at once; one that answered before may be restarting: retry.
                refused = isinstance(exc, httpx.ConnectError)
                unreachable = refused and not self._reach.reached
                if delays and not resent and _dropped(exc):
                    # a kept-alive connection the server closed as the request went out:
                    # a new connection answers at once, as a browser would resend
                    resent = True
                    log.info("resending %s %s: the connection was closed", method, path)
                    continue
                if attempt >= len(delays) or unreachable:
                    down = refused or bool(delays)
                    if down:
                        # refused, or failing through every retry: the system is down, and
                        # the next requests (a save sends several) fail at once instead of
                        # waiting through the retries again, until one gets an answer
                        self._reach.reached = False
                    raise AdtTransportError(
                        f"{method} {path} on {self.profile.base_url} failed: "
                        f"{type(exc).__name__}: {exc or 'no answer'}"
                        + ("" if retried else " (not retried: not idempotent)"),
                        system_down=down,
                    ) from exc
            else:
                if response.status_code not in _RETRY_STATUSES or attempt >= len(delays):
                    return response
            log.info("retrying %s %s in %.1fs", method, path, delays[attempt])
            await self._sleep(delays[attempt])
            attempt += 1

    async def _send(
        self,
        method: str,
        path: str,
        params: Mapping[str, str] | None,
        headers: Mapping[str, str] | None,
        content: bytes | None,
        *,
        session_type: str | None = None,
    ) -> httpx.Response:
        """One request on the wire; until the system has answered this session once, one at
        a time (the first answer brings the cookies every later request goes with)."""
        if not self._answered:
            async with self._logon:
                if not self._answered:
                    response = await self._exchange(
                        method, path, params, headers, content, session_type
                    )
                    self._answered = True
                    return response
        return await self._exchange(method, path, params, headers, content, session_type)

    async def _exchange(
        self,
        method: str,
        path: str,
        params: Mapping[str, str] | None,
        headers: Mapping[str, str] | None,
        content: bytes | None,
        session_type: str | None,
    ) -> httpx.Response:
        merged: dict[str, str] = {
            "Accept": "*/*",
            "Cache-Control": "no-cache",
            "X-sap-adt-sessiontype": session_type or self.kind,
        }
        if headers:
            merged.update(headers)
        if self._csrf is not None:
            merged.setdefault("x-csrf-token", self._csrf)
        elif method in ("GET", "HEAD"):
            merged.setdefault("x-csrf-token", "fetch")  # piggy-back the token on a read
        cookie_header = self.cookies.header()
        if cookie_header:
            merged["Cookie"] = cookie_header
        query = {"sap-client": self.profile.client, "sap-language": self.profile.language}
        if params:
            query.update(params)
        request = self._http.build_request(
            method, path, params=query, headers=merged, content=content
        )
        started = time.perf_counter()
        self.request_count += 1
        response = await self._http.send(request)
        await response.aread()
        count_request(len(content or b""), len(response.content))
        self._reach.reached = True
        self._http.cookies.clear()  # we keep our own jar; see CookieJar
        self.cookies.update(response.headers.get_list("set-cookie"))
        token = response.headers.get("x-csrf-token")
        if token and token.lower() != "required":
            self._csrf = token
        log.debug(
            "%s %s [%s] -> %d in %.0f ms",
            method,
            path,
            merged["X-sap-adt-sessiontype"],
            response.status_code,
            (time.perf_counter() - started) * 1000,
        )
        return response

    async def _fetch_csrf(self) -> None:
        async with self._csrf_lock:
            if self._csrf is not None:
                return
            for path in (self._csrf_path, *[p for p in CSRF_PATHS if p != self._csrf_path]):
                fetch = _Request(
                    "GET",
                    path,
                    None,
                    {"x-csrf-token": "fetch", "Accept": "application/atomsvc+xml, */*"},
                    None,
                )
                response = await self._send_with_retries(fetch)
                if response.status_code == 401:
                    raise self._logon_failed(response)
                if response.status_code == 404:
                    continue
                if self._is_session_death(response):
                    self._raise_if_locks_lost(response, "GET", path)
                    self._reset()
                    response = await self._send_with_retries(fetch)
                if self._csrf is not None:
                    self._csrf_path = path
                    return
                if response.status_code >= 400:
                    raise error_for(self._info(response, "GET", path))
                raise CsrfTokenError(
                    self._info(response, "GET", path),
                    "the server answered the CSRF fetch without a token",
                )
            raise CsrfTokenError(
                ServerErrorInfo(404, method="GET", path=CSRF_PATHS[0]),
                "neither /sap/bc/adt/core/discovery nor /sap/bc/adt/discovery exists",
            )

    def _reset(self) -> None:
        """Forget the session: every cookie (the context one lives at several paths) and token."""
        self.cookies.clear()
        self._csrf = None
        self._answered = False

    def _raise_if_locks_lost(self, response: httpx.Response, method: str, path: str) -> None:
        if not self.locks:
            return
        lost = sorted(self.locks)
        self._reset()
        self.locks.clear()
        raise SessionTimedOutError(
            self._info(response, method, path),
            f"The stateful ABAP session ended and released its locks on {', '.join(lost)}. "
            "Lock again and re-read before writing.",
        )

    @staticmethod
    def _is_csrf_failure(response: httpx.Response) -> bool:
        return (
            response.status_code == 403
            and response.headers.get("x-csrf-token", "").lower() == "required"
        )

    @staticmethod
    def _is_session_death(response: httpx.Response) -> bool:
        if response.status_code != 400:
            return False
        for header in ("x-sap-icm-err-id", "sap-err-id"):
            if response.headers.get(header, "").upper() == "ICMENOSESSION":
                return True
        reason = response.reason_phrase.lower()
        if any(marker in reason for marker in _DEAD_MARKERS):
            return True
        if "xml" in response.headers.get("content-type", ""):
            return False  # an exc:exception 400 is a bad request, not a dead session
        head = response.content[:2000].decode("utf-8", errors="replace").lower()
        return any(marker in head for marker in _DEAD_MARKERS)

    def _logon_failed(self, response: httpx.Response) -> AuthenticationError:
        """A 401 the logon method could not cure: remembered, so this client never sends
        the same credentials again."""
        refusal = self.authenticator.refused(response)
        if self.authenticator.stops_retrying():
            self._auth_guard.failed_status = 401
        return refusal

    @staticmethod
    def _info(response: httpx.Response, method: str, path: str) -> ServerErrorInfo:
        info = _xml.parse_error(
            response.status_code, response.content, response.headers.get("content-type", "")
        )
        info.method = method
        info.path = path
        return info
