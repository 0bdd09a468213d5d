"""The one interface every logon method implements, as the sessions of a client use it.

A client builds one authenticator and shares it between its stateless and stateful
sessions, so a token refreshed by one serves the other, and a refusal stops both."""

from __future__ import annotations

import os
import ssl
import sys
import threading
from abc import ABC, abstractmethod
from functools import cache
from typing import Any

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


class _TrustOnFirstUse(ssl.SSLContext):
    """httpx's default check (certifi's CAs, or ``SSL_CERT_FILE``/``SSL_CERT_DIR``) with the
    CA bundle loaded when the first TLS connection starts: every connection is checked as
    before, and a server spoken to over plain HTTP (a local trial system, the emulator)
    never costs the parsed bundle (1.3 MB). ``wrap_bio`` and ``wrap_socket`` are the only
    ways a context starts a TLS connection."""

    _loaded = False

    def _load(self) -> None:
        with _LOADING:
            if self._loaded:
                return
            if os.environ.get("SSL_CERT_FILE"):
                self.load_verify_locations(cafile=os.environ["SSL_CERT_FILE"])
            elif os.environ.get("SSL_CERT_DIR"):
                self.load_verify_locations(capath=os.environ["SSL_CERT_DIR"])
            else:
                import certifi  # httpx's own CA bundle

                self.load_verify_locations(cafile=certifi.where())
            self._loaded = True

    def wrap_socket(self, *args: Any, **kwargs: Any) -> ssl.SSLSocket:
        self._load()
        return super().wrap_socket(*args, **kwargs)

    def wrap_bio(self, *args: Any, **kwargs: Any) -> ssl.SSLObject:
        self._load()
        return super().wrap_bio(*args, **kwargs)


_LOADING = threading.Lock()


@cache
def default_trust() -> ssl.SSLContext:
    """httpx's own default check, built once per process: given ``verify=True`` every client
    parses the CA bundle again (0.8 MB each, two sessions per system). Nothing but the CAs
    is ever loaded into it, with the first TLS connection (:class:`_TrustOnFirstUse`)."""
    context = _TrustOnFirstUse(ssl.PROTOCOL_TLS_CLIENT)  # host names and chains checked
    if sys.version_info >= (3, 13):  # as ssl.create_default_context sets them there
        context.verify_flags |= ssl.VERIFY_X509_PARTIAL_CHAIN | ssl.VERIFY_X509_STRICT
    keylog = os.environ.get("SSLKEYLOGFILE")
    if keylog and not sys.flags.ignore_environment:
        context.keylog_filename = keylog
    return context


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
