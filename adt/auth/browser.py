"""Single sign-on through the user's browser, as SAP's own tools do it: the browser opens the
system's reentrance service, which sends the user through the company's logon (SAML 2.0,
SPNEGO, a logon form) and redirects to our loopback listener with a reentrance ticket. The
ticket (never logged) then travels in the ``MYSAPSSO2`` request header, as SAP's own tools
send it, beside each session's own cookies.

The ticket is remembered where the logon's ``remember`` says (:mod:`adt.auth.vault`), so
the next start tries it before opening the browser. A ticket the system refuses (expired) is
forgotten and renewed through the browser — shown to the user,
never silent — and the same request sent once more with the same session cookies, so a
stateful context and its locks stay."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Generator
from urllib.parse import urlencode, urlsplit

import httpx

from adt.auth.base import Authenticator
from adt.auth.loopback import LoopbackReceiver, log_on_in_browser
from adt.auth.vault import SafeVault, vault_for
from adt.errors import AuthenticationError
from adt.logon import BrowserLogon
from adt.profile import ConnectionProfile
from adt.secret import Secret

#: The request header that carries the ticket, as SAP's own tools send it
#: (docs/protocol/logon.md); the session's cookies travel beside it unchanged.
TICKET_HEADER = "MYSAPSSO2"
TICKET_PARAMETER = "reentrance-ticket"
VIRTUAL_HOST_PATH = "/sap/public/bc/icf/virtualhost"


class _TicketFlow(httpx.Auth):
    """Adds the ticket header; after a 401, one renewal in the browser and one resend."""

    def __init__(self, owner: BrowserAuthenticator) -> None:
        self._owner = owner

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response]:
        raise RuntimeError("the browser logon works with the async client only")

    async def async_auth_flow(
        self, request: httpx.Request
    ) -> AsyncGenerator[httpx.Request, httpx.Response]:
        ticket = await self._owner.ticket()
        request.headers[TICKET_HEADER] = ticket
        response = yield request
        if response.status_code == 401:
            request.headers[TICKET_HEADER] = await self._owner.renew(ticket)
            yield request


class BrowserAuthenticator(Authenticator):
    """Holds one client's ticket; both sessions of the client share it."""

    def __init__(self, profile: ConnectionProfile) -> None:
        super().__init__(profile)
        if not isinstance(profile.logon, BrowserLogon):
            raise TypeError("a BrowserAuthenticator needs a BrowserLogon")
        self.method = profile.logon
        self._ticket: Secret | None = None
        self._lock = asyncio.Lock()
        self._vault = SafeVault(vault_for(self.method.remember), profile.system_id)
        self._vault_key = f"{profile.system_id}:{profile.user}:ticket@{profile.base_url}"
        self.logons = 0
        """Browser logons so far (the first one included)."""

    def http_auth(self) -> httpx.Auth:
        return _TicketFlow(self)

    def refused(self, response: httpx.Response) -> AuthenticationError:
        return AuthenticationError(
            f"{self.profile.base_url} refused the ticket of a fresh browser logon (HTTP 401): "
            "the user you logged on as may lack developer authorizations in this system"
        )

    async def aclose(self) -> None:
        self._ticket = None

    async def ticket(self) -> str:
        async with self._lock:
            if self._ticket is None:
                remembered = self._vault.load(self._vault_key)
                self._ticket = Secret(remembered) if remembered else await self._log_on()
            return self._ticket.reveal()

    async def renew(self, refused: str) -> str:
        """A new ticket after the system refused ``refused`` (one logon for all requests
        refused with it at once)."""
        async with self._lock:
            if self._ticket is None or self._ticket.reveal() == refused:
                self._vault.forget(self._vault_key)
                self._ticket = await self._log_on()
            return self._ticket.reveal()

    async def _browser_origin(self) -> str:
        """Where the browser logs on: the UI host the system names at
        ``/sap/public/bc/icf/virtualhost`` (SAP BTP: not the ADT host), else the system's own
        URL (on-premise systems answer ``{}``), as SAP's tools do (docs/protocol/logon.md)."""
        base = self.profile.base_url
        try:
            async with httpx.AsyncClient(
                verify=self.tls(), timeout=self.profile.connect_timeout
            ) as web:
                answer = await web.get(
                    base + VIRTUAL_HOST_PATH, headers={"Accept": "application/json"}
                )
            hosts = answer.json() if answer.status_code == 200 else {}
        except (httpx.HTTPError, ValueError):
            return base
        related = hosts.get("relatedUrls") if isinstance(hosts, dict) else None
        ui = urlsplit(str(related.get("UI") or "")) if isinstance(related, dict) else None
        if ui is None or ui.scheme not in ("http", "https") or not ui.hostname or "@" in ui.netloc:
            return base
        return f"{ui.scheme}://{ui.netloc}"

    async def _log_on(self) -> Secret:
        origin = await self._browser_origin()

        def reentrance_url(receiver: LoopbackReceiver) -> str:
            # the state in the path: the system appends the ticket to this URL as it is
            query = urlencode(
                {"scenario": "FTO1", "redirect-url": receiver.redirect_uri_with_state}
            )
            return f"{origin}{self.method.login_path}?{query}"

        async def take_ticket(answer: dict[str, str]) -> Secret:
            ticket = answer.get(TICKET_PARAMETER)
            if not ticket:
                reason = answer.get("error_description") or answer.get("error") or "no ticket"
                raise AuthenticationError(
                    f"logon to {self.profile.system_id} in the browser was refused: {reason}"
                )
            self.logons += 1
            self._vault.save(self._vault_key, ticket)
            return Secret(ticket)

        return await log_on_in_browser(
            reentrance_url,
            take_ticket,
            self.method.open_browser,
            within=self.method.login_timeout,
            system=self.profile.system_id,
        )


__all__ = ["TICKET_HEADER", "TICKET_PARAMETER", "BrowserAuthenticator"]
