"""A scripted SAP for ``httpx.MockTransport``: real response shapes, one injected fault at a time.

The emulator is the faithful server; this is the scalpel. Each test queues exactly the
failure it is about (a 403 CSRF, a dead context, a 503) and then inspects every request the
client sent.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

EXC = (
    '<?xml version="1.0" encoding="utf-8"?><exc:exception '
    'xmlns:exc="http://www.sap.com/abapxml/types/communicationframework">'
    '<namespace id="com.sap.adt"/><type id="{type}"/><message lang="EN">{msg}</message>'
    '<localizedMessage lang="EN">{msg}</localizedMessage><properties>{props}</properties>'
    "</exc:exception>"
)
LOCK_BODY = (
    '<?xml version="1.0" encoding="utf-8"?><asx:abap version="1.0" '
    'xmlns:asx="http://www.sap.com/abapxml"><asx:values><DATA><LOCK_HANDLE>{handle}'
    "</LOCK_HANDLE><CORRNR/><CORRUSER/><CORRTEXT/><IS_LOCAL>X</IS_LOCAL><IS_LINK_UP/>"
    "<MODIFICATION_SUPPORT>NoModification</MODIFICATION_SUPPORT><SCOPE_MESSAGES/></DATA>"
    "</asx:values></asx:abap>"
)
PROGRAM_METADATA = (
    '<?xml version="1.0" encoding="utf-8"?><program:abapProgram '
    'abapsource:sourceUri="source/main" adtcore:name="ZTEST" adtcore:type="PROG/P" '
    'adtcore:changedAt="2026-07-31T15:09:42Z" adtcore:version="active" '
    'adtcore:changedBy="DEVELOPER" '
    'adtcore:description="Test" xmlns:program="http://www.sap.com/adt/programs/programs" '
    'xmlns:abapsource="http://www.sap.com/adt/abapsource" xmlns:adtcore="http://www.sap.com/adt/core">'
    '<adtcore:packageRef adtcore:uri="/sap/bc/adt/packages/%24tmp" adtcore:type="DEVC/K" '
    'adtcore:name="$TMP"/></program:abapProgram>'
)
CLEAN_CHECK = (
    '<?xml version="1.0" encoding="utf-8"?><chkrun:checkRunReports '
    'xmlns:chkrun="http://www.sap.com/adt/checkrun"><chkrun:checkReport '
    'chkrun:reporter="abapCheckRun" chkrun:triggeringUri="/x" chkrun:status="processed" '
    'chkrun:statusText="checked"/></chkrun:checkRunReports>'
)
DELETE_CONTEXT = "sap-contextid=0; expires=Thu, 01-Jan-1970 00:00:01 GMT; path=/sap/bc/adt"


def exc(status: int, type_id: str, msg: str, **props: str) -> httpx.Response:
    entries = "".join(f'<entry key="{k.replace("_", "-")}">{v}</entry>' for k, v in props.items())
    body = EXC.format(type=type_id, msg=msg, props=entries)
    return httpx.Response(status, headers={"content-type": "application/xml"}, text=body)


def session_timed_out() -> httpx.Response:
    return httpx.Response(
        400,
        headers=[
            ("x-sap-icm-err-id", "ICMENOSESSION"),
            ("sap-err-id", "ICMENOSESSION"),
            ("content-type", "text/html"),
            ("set-cookie", DELETE_CONTEXT),
            ("set-cookie", "sap-contextid=0; expires=Thu, 01-Jan-1970 00:00:01 GMT; path=/sap/"),
        ],
        text="<html><body>Session timed out</body></html>",
    )


def csrf_required() -> httpx.Response:
    return httpx.Response(
        403,
        headers={"x-csrf-token": "Required", "content-type": "text/plain; charset=utf-8"},
        text="CSRF token validation failed",
    )


@dataclass
class Seen:
    method: str
    path: str
    params: dict[str, str]
    headers: httpx.Headers
    body: bytes

    @property
    def session_type(self) -> str:
        return self.headers.get("x-sap-adt-sessiontype", "")

    @property
    def cookies(self) -> dict[str, str]:
        pairs = [p.strip().split("=", 1) for p in self.headers.get("cookie", "").split(";") if p]
        return {k: v for k, v in pairs}


Handler = Callable[[Seen], httpx.Response | None]


@dataclass
class FakeSap:
    """Answers like SAP for the happy path; ``script`` entries override one request each."""

    source: str = "REPORT ztest.\r\nWRITE 'x'."
    seen: list[Seen] = field(default_factory=list)
    script: list[tuple[str, str, Handler]] = field(default_factory=list)
    tokens: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    contexts: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    sessions: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    session_tokens: dict[str, str] = field(default_factory=dict)
    token: str = ""  # the token issued last

    def transport(self) -> httpx.MockTransport:
        return httpx.MockTransport(self._handle)

    def once(self, method: str, path_part: str, handler: Handler) -> None:
        """The next request matching ``method`` and containing ``path_part`` gets ``handler``."""
        self.script.append((method, path_part, handler))

    def requests(self, method: str | None = None, path_part: str = "") -> list[Seen]:
        return [
            s for s in self.seen if (method is None or s.method == method) and path_part in s.path
        ]

    def _handle(self, request: httpx.Request) -> httpx.Response:
        seen = Seen(
            request.method,
            request.url.path,
            dict(request.url.params),
            request.headers,
            request.content,
        )
        self.seen.append(seen)
        for index, (method, part, handler) in enumerate(self.script):
            if method == seen.method and part in seen.path:
                del self.script[index]
                response = handler(seen)
                if response is not None:
                    return response
                break
        return self._default(seen)

    def _default(self, seen: Seen) -> httpx.Response:
        headers: list[tuple[str, str]] = []
        session = seen.cookies.get("SAP_SESSIONID_A4H_001")
        if session is None:
            session = f"secret-session-{next(self.sessions)}"
            headers.append(("set-cookie", f"SAP_SESSIONID_A4H_001={session}; path=/"))
            headers.append(("set-cookie", "sap-usercontext=sap-client=001; path=/"))
        if seen.session_type == "stateful" and "sap-contextid" not in seen.cookies:
            ctx = f"SID:ANON:ctx{next(self.contexts)}"
            for path in ("/sap/", "/sap/bc/", "/sap/bc/adt/"):
                headers.append(("set-cookie", f"sap-contextid={ctx}; path={path}"))
        if seen.headers.get("x-csrf-token", "").lower() == "fetch" and seen.method == "GET":
            self.token = f"tok{next(self.tokens)}AAAAAAAAAAAAAAAAA=="
            self.session_tokens[session] = self.token
            headers.append(("x-csrf-token", self.token))
        elif seen.method in ("POST", "PUT", "DELETE") and (
            seen.headers.get("x-csrf-token") != self.session_tokens.get(session)
        ):
            return csrf_required()
        if seen.params.get("_action") == "LOCK":
            headers.append(
                (
                    "content-type",
                    "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.lock.Result",
                )
            )
            return httpx.Response(200, headers=headers, text=LOCK_BODY.format(handle="A" * 40))
        if seen.method == "GET" and seen.path.endswith("/source/main"):
            headers += [
                ("content-type", "text/plain; charset=utf-8"),
                ("etag", "202607311509420011"),
                ("last-modified", "Fri, 31 Jul 2026 15:09:42 GMT"),
            ]
            return httpx.Response(200, headers=headers, text=self.source)
        if seen.method == "GET" and seen.path.count("/") == 6:  # /sap/bc/adt/<a>/<b>/<name>
            headers.append(("content-type", "application/vnd.sap.adt.programs.programs.v2+xml"))
            return httpx.Response(200, headers=headers, text=PROGRAM_METADATA)
        if seen.method == "POST" and seen.path.endswith("/checkruns"):
            return httpx.Response(200, headers=headers, text=CLEAN_CHECK)
        if seen.method == "PUT":
            self.source = seen.body.decode()
            headers += [
                ("etag", "202607311509430001"),
                ("last-modified", "Fri, 31 Jul 2026 15:09:43 GMT"),
            ]
        return httpx.Response(200, headers=headers)
