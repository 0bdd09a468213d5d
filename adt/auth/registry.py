"""Which authenticator serves which logon method: one entry per method."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from adt.auth.base import Authenticator
from adt.auth.basic import BasicAuthenticator
from adt.auth.browser import BrowserAuthenticator
from adt.auth.certificate import CertificateAuthenticator
from adt.auth.oauth import OAuthAuthenticator
from adt.logon import BasicLogon, BrowserLogon, CertificateLogon, LogonMethod, OAuthLogon
from adt.profile import ConnectionProfile

Build = Callable[[ConnectionProfile, "httpx.AsyncBaseTransport | None"], Authenticator]

AUTHENTICATORS: dict[type[LogonMethod], Build] = {
    BasicLogon: lambda profile, transport: BasicAuthenticator(profile),
    CertificateLogon: lambda profile, transport: CertificateAuthenticator(profile),
    OAuthLogon: lambda profile, transport: OAuthAuthenticator(profile, transport=transport),
    BrowserLogon: lambda profile, transport: BrowserAuthenticator(profile),
}


def authenticator_for(
    profile: ConnectionProfile, transport: httpx.AsyncBaseTransport | None = None
) -> Authenticator:
    """The authenticator for the profile's logon method; ``transport`` replaces the network
    for the method's own requests too (an OAuth token endpoint on an in-process server)."""
    return AUTHENTICATORS[type(profile.logon)](profile, transport)


__all__ = ["AUTHENTICATORS", "authenticator_for"]
