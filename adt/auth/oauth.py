"""OAuth 2.0 bearer tokens for the SAP BTP ABAP environment.

The first request logs on in the user's browser (authorization code with PKCE, loopback
redirect); later ones carry the access token, refreshed shortly before it expires. A token
the system refuses anyway (expired early, revoked) is refreshed and the very request sent
once more **in the same session** — its cookies unchanged, so a stateful context and its
locks stay, as after a CSRF token expiry. When the refresh token itself is refused, the user
logs on in the browser again (shown, never silent) and the session still keeps its cookies.
The refresh token is remembered where the logon's ``remember`` says (the OS keyring, a
0600 file, or nowhere: :mod:`adt.auth.vault`), so the next start refreshes instead of
opening the browser. Tokens never appear in logs or errors."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncGenerator, Generator

import httpx

from adt.auth.base import Authenticator, offered_schemes
from adt.auth.loopback import LoopbackReceiver, log_on_in_browser
from adt.auth.oauth_server import AuthorizationServer, Clock, GrantRefused, Pkce, Tokens
from adt.auth.vault import SafeVault, vault_for
from adt.errors import AuthenticationError
from adt.logon import OAuthLogon
from adt.profile import ConnectionProfile
from adt.secret import Secret

log = logging.getLogger("adt.auth")

#: Refresh this long before the access token expires (at most half its lifetime).
REFRESH_MARGIN = 60.0


class _BearerFlow(httpx.Auth):
    """httpx's auth flow: the token on the request; after a refusal, one renewal and resend."""

    def __init__(self, owner: OAuthAuthenticator) -> None:
        self._owner = owner

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response]:
        raise RuntimeError("the OAuth logon works with the async client only")

    async def async_auth_flow(
        self, request: httpx.Request
    ) -> AsyncGenerator[httpx.Request, httpx.Response]:
        token = await self._owner.access_token()
        request.headers["Authorization"] = f"Bearer {token}"
        response = yield request
        if response.status_code == 401 and "Bearer" in offered_schemes(response):
            token = await self._owner.renew(token)
            request.headers["Authorization"] = f"Bearer {token}"
            yield request


class OAuthAuthenticator(Authenticator):
    """Holds one client's tokens; both sessions of the client share them."""

    def __init__(
        self,
        profile: ConnectionProfile,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        super().__init__(profile)
        if not isinstance(profile.logon, OAuthLogon):
            raise TypeError("an OAuthAuthenticator needs an OAuthLogon")
        self.method = profile.logon
        self._clock = clock
        self._http = httpx.AsyncClient(
            transport=transport, verify=self.tls(), timeout=profile.read_timeout
        )
        self.server = AuthorizationServer(self.method.service_key, self._http, clock)
        self._tokens: Tokens | None = None
        self._lifetime = 0.0
        self._lock = asyncio.Lock()
        self._vault = SafeVault(vault_for(self.method.remember), profile.system_id)
        key = self.method.service_key
        self._vault_key = f"{profile.system_id}:{profile.user}:oauth:{key.client_id}@{key.uaa_url}"
        self.logons = 0
        """Browser logons so far (the first one included)."""

    def http_auth(self) -> httpx.Auth:
        return _BearerFlow(self)

    def refused(self, response: httpx.Response) -> AuthenticationError:
        return AuthenticationError(
            f"{self.profile.base_url} refused a fresh OAuth token (HTTP 401): the user of "
            f"the service key's client {self.method.service_key.client_id} may lack the "
            "developer role in this system"
        )

    async def aclose(self) -> None:
        self._tokens = None
        await self._http.aclose()

    # --- tokens -------------------------------------------------------------------------

    async def access_token(self) -> str:
        """A token good for the next request: logs on or refreshes first when needed."""
        async with self._lock:
            tokens = self._tokens
            if tokens is None:
                tokens = await self._first_tokens()
            elif tokens.expires_at - self._margin() <= self._clock():
                tokens = await self._renew(tokens)
            return tokens.access.reveal()

    async def renew(self, refused: str) -> str:
        """After the system refused ``refused``: a new token (one renewal however many
        requests were refused with the same token at once)."""
        async with self._lock:
            tokens = self._tokens
            if tokens is None:
                tokens = await self._first_tokens()
            elif tokens.access.reveal() == refused:
                tokens = await self._renew(tokens)
            return tokens.access.reveal()

    def _margin(self) -> float:
        return min(REFRESH_MARGIN, self._lifetime / 2)

    def _keep(self, tokens: Tokens) -> Tokens:
        self._tokens = tokens
        self._lifetime = max(0.0, tokens.expires_at - self._clock())
        if tokens.refresh is not None:
            self._vault.save(self._vault_key, tokens.refresh.reveal())
        return tokens

    async def _first_tokens(self) -> Tokens:
        """Tokens from the remembered refresh token, else from a browser logon."""
        remembered = self._vault.load(self._vault_key)
        if remembered is None:
            return await self._log_on()
        return await self._renew(
            Tokens(access=Secret(""), expires_at=0.0, refresh=Secret(remembered))
        )

    async def _renew(self, tokens: Tokens) -> Tokens:
        if tokens.refresh is not None:
            try:
                return self._keep(await self.server.refresh(tokens.refresh))
            except GrantRefused:
                log.warning(
                    "the refresh token for %s was refused; logging on in the browser again",
                    self.profile.system_id,
                )
                self._vault.forget(self._vault_key)
        self._tokens = None
        return await self._log_on()

    async def _log_on(self) -> Tokens:
        """The authorization-code flow in the user's browser, answered on the loopback."""
        pkce = Pkce()
        redirect = ""

        def authorize_url(receiver: LoopbackReceiver) -> str:
            nonlocal redirect
            redirect = receiver.redirect_uri
            return self.server.authorize_url(redirect, receiver.state, pkce)

        async def exchange(answer: dict[str, str]) -> Tokens:
            if "code" not in answer:
                reason = answer.get("error_description") or answer.get("error") or "no code"
                raise AuthenticationError(
                    f"logon to {self.profile.system_id} in the browser was refused: {reason}"
                )
            tokens = await self.server.exchange(answer["code"], pkce, redirect)
            self.logons += 1
            return self._keep(tokens)

        return await log_on_in_browser(
            authorize_url,
            exchange,
            self.method.open_browser,
            within=self.method.login_timeout,
            system=self.profile.system_id,
        )


__all__ = ["REFRESH_MARGIN", "OAuthAuthenticator"]
