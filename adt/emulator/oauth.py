"""An OAuth 2.0 authorization server in the manner of SAP BTP's XSUAA: ``/oauth/authorize``
(a login form, then a redirect with a one-time code) and ``/oauth/token`` (the code with its
PKCE verifier, or a refresh token, for a bearer token the ADT pipeline accepts).

Tokens are opaque random strings, not signed JWTs (see docs/emulator.md). Not thread-safe on
its own: the caller holds the system lock."""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode, urlsplit

from starlette.responses import JSONResponse, Response

AUTHORIZE_PATH = "/oauth/authorize"
TOKEN_PATH = "/oauth/token"
CODE_LIFETIME = 600.0
_LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "[::1]")


@dataclass
class Grant:
    """A code, access or refresh token: whose, for which client, until when."""

    user: str
    client_id: str
    expires_at: float
    redirect_uri: str = ""
    challenge: str = ""


def _s256(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def _loopback(uri: str) -> bool:
    """XSUAA accepts the redirect URIs its ``xs-security.json`` lists; a client on the
    user's machine registers the loopback (``http://localhost:*/**``)."""
    parts = urlsplit(uri)
    return parts.scheme == "http" and parts.netloc.rsplit(":", 1)[0] in _LOOPBACK_HOSTS


class OAuthServer:
    """Clients (id → secret), the users who may log on, and the grants handed out."""

    def __init__(
        self,
        clients: Mapping[str, str],
        users: Mapping[str, str],
        clock: Callable[[], float],
        *,
        access_lifetime: float = 43_199.0,
        refresh_lifetime: float = 2_592_000.0,
    ) -> None:
        self.clients = dict(clients)
        self.users = users
        self.clock = clock
        self.access_lifetime = access_lifetime
        self.refresh_lifetime = refresh_lifetime
        self.codes: dict[str, Grant] = {}
        self.access: dict[str, Grant] = {}
        self.refresh: dict[str, Grant] = {}
        self.token_requests = 0

    # --- what the ADT pipeline asks -----------------------------------------------------

    def user_of(self, token: str) -> str | None:
        """The user a live access token stands for, else None (unknown, expired)."""
        grant = self.access.get(token)
        if grant is None or grant.expires_at <= self.clock():
            return None
        return grant.user

    def expire_access_tokens(self) -> None:
        for grant in self.access.values():
            grant.expires_at = self.clock()

    def expire_refresh_tokens(self) -> None:
        for grant in self.refresh.values():
            grant.expires_at = self.clock()

    def revoke_refresh_tokens(self) -> None:
        self.refresh.clear()

    # --- endpoints ----------------------------------------------------------------------

    def handle(self, method: str, path: str, query: str, body: bytes, auth: str | None) -> Response:
        params = dict(parse_qsl(query))
        form = dict(parse_qsl(body.decode("utf-8", errors="replace")))
        if path == AUTHORIZE_PATH and method == "GET":
            return self._authorize_page(params)
        if path == AUTHORIZE_PATH and method == "POST":
            return self._log_on(form)
        if path == TOKEN_PATH and method == "POST":
            self.token_requests += 1
            return self._token(form, auth)
        return Response("Not Found", status_code=404)

    def _request_error(self, params: Mapping[str, str]) -> str | None:
        """What is wrong with an authorization request (never redirected: an unchecked
        redirect URI would send the answer anywhere)."""
        if params.get("client_id") not in self.clients:
            return "unknown client_id"
        if params.get("response_type") != "code":
            return "response_type must be code"
        if not _loopback(params.get("redirect_uri", "")):
            return "redirect_uri is not registered for this client"
        if not params.get("code_challenge") or params.get("code_challenge_method") != "S256":
            return "PKCE with code_challenge_method S256 is required"
        return None

    def _authorize_page(self, params: Mapping[str, str], message: str = "") -> Response:
        error = self._request_error(params)
        if error is not None:
            return Response(f"Bad authorization request: {error}", status_code=400)
        hidden = "".join(
            f'<input type="hidden" name="{html.escape(k)}" value="{html.escape(v)}">'
            for k, v in params.items()
            if k not in ("username", "password", "decision")
        )
        page = (
            "<!DOCTYPE html><html><head><title>Log On</title></head><body>"
            f"<p>{html.escape(message)}</p>"
            f'<form method="post" action="{AUTHORIZE_PATH}">{hidden}'
            '<input name="username"><input name="password" type="password">'
            '<button name="decision" value="allow">Log On</button>'
            '<button name="decision" value="deny">Cancel</button></form></body></html>'
        )
        return Response(page, media_type="text/html", status_code=401 if message else 200)

    def _log_on(self, form: Mapping[str, str]) -> Response:
        if self._request_error(form) is not None:
            return self._authorize_page(form)
        back = {"state": form.get("state", "")}
        if form.get("decision") == "deny":
            return self._redirect(form["redirect_uri"], {"error": "access_denied", **back})
        user = form.get("username", "").upper()
        expected = self.users.get(user)
        if expected is None or not hmac.compare_digest(expected, form.get("password", "")):
            return self._authorize_page(form, "Logon failed: wrong user or password")
        code = secrets.token_urlsafe(24)
        self.codes[code] = Grant(
            user,
            form["client_id"],
            self.clock() + CODE_LIFETIME,
            redirect_uri=form["redirect_uri"],
            challenge=form["code_challenge"],
        )
        return self._redirect(form["redirect_uri"], {"code": code, **back})

    @staticmethod
    def _redirect(uri: str, params: Mapping[str, str]) -> Response:
        separator = "&" if "?" in uri else "?"
        return Response(status_code=302, headers={"location": uri + separator + urlencode(params)})

    def _client(self, form: Mapping[str, str], auth: str | None) -> str | None:
        """The client a token request authenticates as (basic, or in the form)."""
        client_id, secret = form.get("client_id", ""), form.get("client_secret", "")
        if auth and auth[:6].lower() == "basic ":
            try:
                decoded = base64.b64decode(auth[6:].strip(), validate=True).decode("utf-8")
            except ValueError:
                return None
            client_id, _, secret = decoded.partition(":")
        expected = self.clients.get(client_id)
        if expected is None or not hmac.compare_digest(expected, secret):
            return None
        return client_id

    def _token(self, form: Mapping[str, str], auth: str | None) -> Response:
        client_id = self._client(form, auth)
        if client_id is None:
            return _error(401, "invalid_client", "Bad credentials")
        grant_type = form.get("grant_type")
        if grant_type == "authorization_code":
            grant = self._redeem_code(form, client_id)
        elif grant_type == "refresh_token":
            grant = self._live(self.refresh, form.get("refresh_token", ""), client_id)
        else:
            return _error(400, "unsupported_grant_type", f"grant_type {grant_type!r}")
        if grant is None:
            return _error(400, "invalid_grant", "The grant is invalid, expired or revoked")
        return self._issue(grant, client_id, form.get("refresh_token"))

    def _redeem_code(self, form: Mapping[str, str], client_id: str) -> Grant | None:
        grant = self.codes.pop(form.get("code", ""), None)  # a code works once
        if grant is None or grant.client_id != client_id or grant.expires_at <= self.clock():
            return None
        if grant.redirect_uri != form.get("redirect_uri"):
            return None
        verifier = form.get("code_verifier", "")
        if not hmac.compare_digest(_s256(verifier), grant.challenge):
            return None
        return grant

    def _live(self, table: dict[str, Grant], token: str, client_id: str) -> Grant | None:
        grant = table.get(token)
        if grant is None or grant.client_id != client_id or grant.expires_at <= self.clock():
            return None
        return grant

    def _issue(self, grant: Grant, client_id: str, refresh: str | None) -> Response:
        now = self.clock()
        access = secrets.token_urlsafe(32)
        self.access[access] = Grant(grant.user, client_id, now + self.access_lifetime)
        if refresh is None:  # a refresh keeps its refresh token, as XSUAA's default does
            refresh = secrets.token_urlsafe(32)
            self.refresh[refresh] = Grant(grant.user, client_id, now + self.refresh_lifetime)
        return JSONResponse(
            {
                "access_token": access,
                "token_type": "bearer",
                "expires_in": int(self.access_lifetime),
                "refresh_token": refresh,
                "scope": "openid",
                "jti": secrets.token_hex(16),
            },
            headers={"cache-control": "no-store"},
        )


def _error(status: int, error: str, description: str) -> Response:
    return JSONResponse(
        {"error": error, "error_description": description},
        status_code=status,
        headers={"cache-control": "no-store"},
    )


__all__ = ["AUTHORIZE_PATH", "TOKEN_PATH", "OAuthServer"]
