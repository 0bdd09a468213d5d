"""Talking to the authorization server of a service key (XSUAA): the authorization URL with
PKCE (RFC 7636), the code exchange and the refresh (RFC 6749 §4.1, §6)."""

from __future__ import annotations

import base64
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlencode

import httpx

from adt.errors import AuthenticationError
from adt.logon import ServiceKey
from adt.secret import Secret

Clock = Callable[[], float]


class GrantRefused(AuthenticationError):
    """The authorization server refused a code or refresh token (expired, revoked, used)."""


@dataclass(frozen=True)
class Pkce:
    """A one-time code verifier and its S256 challenge."""

    verifier: str = field(default_factory=lambda: secrets.token_urlsafe(64), repr=False)

    @property
    def challenge(self) -> str:
        digest = hashlib.sha256(self.verifier.encode("ascii")).digest()
        return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


@dataclass(frozen=True)
class Tokens:
    """An access token, when it expires (on our clock) and the token that renews it."""

    access: Secret = field(repr=False)
    expires_at: float
    refresh: Secret | None = field(default=None, repr=False)


class AuthorizationServer:
    """The service key's UAA: ``/oauth/authorize`` and ``/oauth/token``."""

    def __init__(
        self, key: ServiceKey, http: httpx.AsyncClient, clock: Clock = time.monotonic
    ) -> None:
        self.key = key
        self._http = http
        self._clock = clock

    def authorize_url(self, redirect_uri: str, state: str, pkce: Pkce) -> str:
        query = urlencode(
            {
                "response_type": "code",
                "client_id": self.key.client_id,
                "redirect_uri": redirect_uri,
                "state": state,
                "code_challenge": pkce.challenge,
                "code_challenge_method": "S256",
            }
        )
        return f"{self.key.uaa_url}/oauth/authorize?{query}"

    async def exchange(self, code: str, pkce: Pkce, redirect_uri: str) -> Tokens:
        """The tokens for an authorization code (the verifier proves we asked for it)."""
        return await self._token(
            {
                "grant_type": "authorization_code",
                "code": code,
                "redirect_uri": redirect_uri,
                "code_verifier": pkce.verifier,
            },
            "the authorization code",
        )

    async def refresh(self, refresh_token: Secret) -> Tokens:
        return await self._token(
            {"grant_type": "refresh_token", "refresh_token": refresh_token.reveal()},
            "the refresh token",
        )

    async def _token(self, form: dict[str, str], what: str) -> Tokens:
        started = self._clock()
        url = f"{self.key.uaa_url}/oauth/token"
        try:
            response = await self._http.post(
                url,
                data=form,
                auth=(self.key.client_id, self.key.client_secret.reveal()),
                headers={"Accept": "application/json"},
            )
        except httpx.TransportError as exc:
            raise AuthenticationError(
                f"cannot reach the authorization server {self.key.uaa_url}: {type(exc).__name__}"
            ) from None
        body = _json(response)
        if response.status_code in (400, 401):
            error = str(body.get("error") or f"HTTP {response.status_code}")
            if error == "invalid_client" or response.status_code == 401:
                raise AuthenticationError(
                    f"the authorization server {self.key.uaa_url} refused the client "
                    f"{self.key.client_id} ({error}): check the service key's clientid and "
                    "clientsecret"
                )
            raise GrantRefused(
                f"the authorization server {self.key.uaa_url} refused {what} ({error}): it "
                "expired or was revoked"
            )
        access = body.get("access_token")
        if response.status_code != 200 or not isinstance(access, str):
            raise AuthenticationError(
                f"the authorization server {self.key.uaa_url} answered HTTP "
                f"{response.status_code} without an access token"
            )
        lifetime = body.get("expires_in")
        refresh = body.get("refresh_token")
        return Tokens(
            access=Secret(access),
            expires_at=started + (float(lifetime) if isinstance(lifetime, int | float) else 300.0),
            refresh=Secret(refresh) if isinstance(refresh, str) else None,
        )


def _json(response: httpx.Response) -> dict[str, object]:
    try:
        data = response.json()
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


__all__ = ["AuthorizationServer", "GrantRefused", "Pkce", "Tokens"]
