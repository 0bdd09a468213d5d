"""The one interface every logon method implements, as the sessions of a client use it.

A client builds one authenticator and shares it between its stateless and stateful
sessions, so a token refreshed by one serves the other, and a refusal stops both."""

from __future__ import annotations

import ssl
from abc import ABC, abstractmethod
from functools import cache

import httpx

from adt.errors import AuthenticationError, ConfigurationError
from adt.profile import ConnectionProfile


def server_trust(verify: bool | str) -> ssl.SSLContext:
    """The TLS context that checks the server: the system's CAs, a CA bundle at the path
    ``verify``, or no check at all (``False``)."""
    if verify is False:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context
    try:
        return ssl.create_default_context(cafile=verify if isinstance(verify, str) else None)
    except (OSError, ssl.SSLError) as exc:
        raise ConfigurationError(
            f"cannot use the CA bundle {verify!r} for TLS verification: {exc}"
        ) from exc


@cache
def default_trust() -> ssl.SSLContext:
    """httpx's own default check (certifi's CAs, or ``SSL_CERT_FILE``/``SSL_CERT_DIR``),
    built once per process: given ``verify=True`` every client parses the CA bundle again
    (0.8 MB each, two sessions per system). Nothing is ever loaded into it."""
    return httpx.create_ssl_context()


class Authenticator(ABC):
    """How the requests of one client prove who sends them."""

    def __init__(self, profile: ConnectionProfile) -> None:
        self.profile = profile

    def tls(self) -> ssl.SSLContext | bool:
        """What httpx's ``verify`` gets: the server check, and for mutual TLS our certificate."""
        if self.profile.verify is True:
            return default_trust()
        if isinstance(self.profile.verify, bool):
            return self.profile.verify
        return server_trust(self.profile.verify)

    @abstractmethod
    def http_auth(self) -> httpx.Auth | None:
        """The httpx auth flow that adds our credentials to each request (None: the TLS
        layer carries them)."""

    @abstractmethod
    def refused(self, response: httpx.Response) -> AuthenticationError:
        """The error for a 401 that the flow could not cure, in the user's words."""

    def transport_refusal(
        self, exc: httpx.TransportError, *, first_contact: bool
    ) -> AuthenticationError | None:
        """The error for a connection the server broke off because of our credentials (a
        refused client certificate), or None for an ordinary network error.
        ``first_contact``: the system never answered this client yet."""
        if "CERTIFICATE_REQUIRED" in str(exc).upper():
            return AuthenticationError(
                f"{self.profile.base_url} asks for a client certificate (TLS alert certificate "
                'required): configure logon = "certificate" for this system (docs/systems.md)'
            )
        return None

    def stops_retrying(self) -> bool:
        """Whether, after a refusal, the client must not send these credentials again
        (a password: failed logons lock SAP users)."""
        return True

    async def aclose(self) -> None:
        """Release what the method holds (an OAuth client's connections)."""
        return None


def offered_schemes(response: httpx.Response) -> list[str]:
    """The authentication schemes a 401 offers (``Basic``, ``Bearer``, ``Negotiate`` …)."""
    schemes = []
    for header in response.headers.get_list("www-authenticate"):
        scheme = header.strip().split(" ", 1)[0].split(",", 1)[0]
        if scheme:
            schemes.append(scheme)
    return schemes


__all__ = ["Authenticator", "offered_schemes", "server_trust"]
