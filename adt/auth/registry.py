"""Which authenticator serves which logon method: one entry per method. Each method's
module loads when a profile uses it (OAuth's token flow and loopback server, the browser
logon and the certificate loader are a megabyte of code that basic logon never runs)."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from adt.auth.base import Authenticator
from adt.auth.basic import BasicAuthenticator
from adt.logon import BasicLogon, BrowserLogon, CertificateLogon, LogonMethod, OAuthLogon
from adt.profile import ConnectionProfile

Build = Callable[[ConnectionProfile, "httpx.AsyncBaseTransport | None"], Authenticator]


def _certificate(
    profile: ConnectionProfile, transport: httpx.AsyncBaseTransport | None
) -> Authenticator:
    from adt.auth.certificate import CertificateAuthenticator

    return CertificateAuthenticator(profile)


def _oauth(profile: ConnectionProfile, transport: httpx.AsyncBaseTransport | None) -> Authenticator:
    from adt.auth.oauth import OAuthAuthenticator

    return OAuthAuthenticator(profile, transport=transport)


def _browser(
    profile: ConnectionProfile, transport: httpx.AsyncBaseTransport | None
) -> Authenticator:
    from adt.auth.browser import BrowserAuthenticator

    return BrowserAuthenticator(profile)


AUTHENTICATORS: dict[type[LogonMethod], Build] = {
    BasicLogon: lambda profile, transport: BasicAuthenticator(profile),
    CertificateLogon: _certificate,
    OAuthLogon: _oauth,
    BrowserLogon: _browser,
}


def authenticator_for(
    profile: ConnectionProfile, transport: httpx.AsyncBaseTransport | None = None
) -> Authenticator:
    """The authenticator for the profile's logon method; ``transport`` replaces the network
    for the method's own requests too (an OAuth token endpoint on an in-process server)."""
    return AUTHENTICATORS[type(profile.logon)](profile, transport)


__all__ = ["AUTHENTICATORS", "authenticator_for"]
