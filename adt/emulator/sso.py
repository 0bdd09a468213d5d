"""Browser single sign-on, SAML-like: the reentrance service SAP's tools open in the browser
(``/sap/bc/sec/reentrance?scenario=FTO1&redirect-url=…``) sends a browser without an
identity-provider session to a logon form (``/saml2/idp/sso``), which sets that session and
sends it back; the reentrance service then redirects to the tool's loopback URL with a
one-time-issued ticket, which the ADT pipeline accepts in the ``MYSAPSSO2`` request header,
as SAP's own tools send it (docs/protocol/logon.md).

No SAML assertion is exchanged and the ticket is an opaque random string (see
docs/emulator.md). Not thread-safe on its own: the caller holds the system lock."""

from __future__ import annotations

import hmac
import html
import json
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote, urlencode, urlsplit

from starlette.responses import Response

REENTRANCE_PATH = "/sap/bc/sec/reentrance"
IDP_PATH = "/saml2/idp/sso"
VIRTUAL_HOST_PATH = "/sap/public/bc/icf/virtualhost"
PATHS = (REENTRANCE_PATH, IDP_PATH, VIRTUAL_HOST_PATH)
IDP_COOKIE = "IDP_SESSION"
TICKET_HEADER = "MYSAPSSO2"
_LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


@dataclass
class Ticket:
    user: str
    expires_at: float


class SingleSignOn:
    """The identity provider's browser sessions and the logon tickets handed out."""

    def __init__(
        self,
        users: Mapping[str, str],
        clock: Callable[[], float],
        ticket_lifetime: float,
        *,
        ui_host: str | None = None,
    ) -> None:
        self.users = users
        self.ui_host = ui_host
        self.clock = clock
        self.ticket_lifetime = ticket_lifetime
        self.browser_sessions: dict[str, str] = {}
        self.tickets: dict[str, Ticket] = {}

    def user_of(self, ticket: str) -> str | None:
        held = self.tickets.get(ticket)
        if held is None or held.expires_at <= self.clock():
            return None
        return held.user

    def expire_tickets(self) -> None:
        for ticket in self.tickets.values():
            ticket.expires_at = self.clock()

    def handle(
        self,
        method: str,
        path: str,
        query: str,
        body: bytes,
        cookies: Mapping[str, str],
        host: str = "",
    ) -> Response:
        if path == VIRTUAL_HOST_PATH and method == "GET":
            return self._virtual_hosts(host)
        if path == REENTRANCE_PATH and self.ui_host and host.rsplit(":", 1)[0] != self.ui_host:
            return Response("Not Found", status_code=404)  # the browser's host serves it
        if path == REENTRANCE_PATH and method == "GET":
            return self._reentrance(query, cookies)
        if path == IDP_PATH and method == "GET":
            return self._form(dict(parse_qsl(query)).get("RelayState", ""))
        if path == IDP_PATH and method == "POST":
            return self._log_on(dict(parse_qsl(body.decode("utf-8", errors="replace"))))
        return Response("Not Found", status_code=404)

    def _virtual_hosts(self, host: str) -> Response:
        """The hosts of this system: ADT's (API) and the browser's (UI), or ``{}``."""
        if not self.ui_host:
            return Response("{}", media_type="application/json")
        port = host.rsplit(":", 1)[1] if ":" in host else ""
        ui = f"http://{self.ui_host}" + (f":{port}" if port else "")
        urls = {"relatedUrls": {"API": f"http://{host}", "UI": ui}}
        return Response(json.dumps(urls), media_type="application/json")

    def _reentrance(self, query: str, cookies: Mapping[str, str]) -> Response:
        params = dict(parse_qsl(query))
        target = params.get("redirect-url", "")
        parts = urlsplit(target)
        if parts.scheme != "http" or parts.netloc.rsplit(":", 1)[0] not in _LOOPBACK_HOSTS:
            return Response("redirect-url must be a loopback address", status_code=400)
        user = self.browser_sessions.get(cookies.get(IDP_COOKIE, ""))
        if user is None:  # to the identity provider first, then back here
            relay = quote(f"{REENTRANCE_PATH}?{query}", safe="")
            return Response(status_code=302, headers={"location": f"{IDP_PATH}?RelayState={relay}"})
        ticket = secrets.token_urlsafe(32)
        self.tickets[ticket] = Ticket(user, self.clock() + self.ticket_lifetime)
        separator = "&" if parts.query else "?"
        location = target + separator + urlencode({"reentrance-ticket": ticket})
        return Response(status_code=302, headers={"location": location})

    def _form(self, relay: str, message: str = "") -> Response:
        page = (
            "<!DOCTYPE html><html><head><title>Identity Provider</title></head><body>"
            f"<p>{html.escape(message)}</p>"
            f'<form method="post" action="{IDP_PATH}">'
            f'<input type="hidden" name="RelayState" value="{html.escape(relay)}">'
            '<input name="username"><input name="password" type="password">'
            "<button>Log On</button></form></body></html>"
        )
        return Response(page, media_type="text/html", status_code=401 if message else 200)

    def _log_on(self, form: Mapping[str, str]) -> Response:
        relay = form.get("RelayState", "")
        if not relay.startswith(REENTRANCE_PATH + "?"):  # never an open redirect
            return Response("RelayState must lead back to the reentrance service", status_code=400)
        user = form.get("username", "").upper()
        expected = self.users.get(user)
        if expected is None or not hmac.compare_digest(expected, form.get("password", "")):
            return self._form(relay, "Logon failed: wrong user or password")
        session = secrets.token_urlsafe(24)
        self.browser_sessions[session] = user
        return Response(
            status_code=302,
            headers={
                "location": relay,
                "set-cookie": f"{IDP_COOKIE}={session}; path=/; HttpOnly; SameSite=Lax",
            },
        )


__all__ = ["PATHS", "TICKET_HEADER", "SingleSignOn"]
