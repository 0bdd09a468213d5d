"""User and password in every request (HTTP basic authentication), the default method."""

from __future__ import annotations

import httpx

from adt.auth.base import Authenticator, offered_schemes
from adt.errors import AuthenticationError


class BasicAuthenticator(Authenticator):
    """Sends the profile's user and password; a 401 is final (SAP locks users after a few
    failed logons), and a system that switched basic authentication off is told apart."""

    def http_auth(self) -> httpx.Auth:
        return httpx.BasicAuth(self.profile.user, self.profile.password.reveal())

    def refused(self, response: httpx.Response) -> AuthenticationError:
        where = f"logon to {self.profile.base_url} as {self.profile.user} failed (HTTP 401)"
        schemes = offered_schemes(response)
        advice = 'configure logon = "certificate" or "oauth" for this system (docs/systems.md)'
        if schemes and not any(s.lower() == "basic" for s in schemes):
            return AuthenticationError(
                f"{where}: the system does not accept user and password (it offers "
                f"{', '.join(schemes)}); {advice}"
            )
        hint = "" if schemes else f"; if the system does not accept them at all, {advice}"
        return AuthenticationError(
            f"{where}: check the user and password (not retrying: failed logons lock SAP "
            f"users){hint}"
        )


__all__ = ["BasicAuthenticator"]
