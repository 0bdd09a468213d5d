"""Who sends a request: the ICF logon procedures the emulator offers (basic authentication,
X.509 client certificates mapped to users, OAuth bearer tokens) and the ``401`` that names
the ones it accepts, as the ``WWW-Authenticate`` headers of a real system do."""

from __future__ import annotations

import base64
import binascii
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field

from .oauth import OAuthServer
from .sso import SingleSignOn


@dataclass(frozen=True)
class LogonPolicy:
    """Which logon procedures the system accepts.

    ``basic``: user and password (switched off in many company landscapes).
    ``certificate_users``: certificate subject (``CN=…,O=…``) or its common name → user, as
    the rules of transaction CERTRULE map them; a certificate mapped to no user logs no one on.
    ``oauth_clients``: OAuth client id → secret; with any, ``/oauth/*`` serves tokens that
    the system accepts as bearer tokens. ``browser_sso``: the reentrance service and a
    SAML-like identity provider hand out logon tickets (``MYSAPSSO2``) valid for
    ``ticket_lifetime`` seconds. ``ui_host``: the browser's host differs from the ADT host
    (as on SAP BTP): ``/sap/public/bc/icf/virtualhost`` names it and only it serves the
    reentrance service; without it the lookup answers ``{}``, as on-premise systems do."""

    basic: bool = True
    certificate_users: Mapping[str, str] = field(default_factory=dict)
    oauth_clients: Mapping[str, str] = field(default_factory=dict)
    access_token_lifetime: float = 43_199.0
    browser_sso: bool = False
    ticket_lifetime: float = 28_800.0
    ui_host: str | None = None


@dataclass(frozen=True)
class Verdict:
    """``user`` when the request proves one; ``anonymous`` when it carries no credentials
    (a session cookie may then do); ``bearer_error`` for a refused bearer token."""

    user: str | None = None
    anonymous: bool = False
    bearer_error: str | None = None


def _basic_credentials(header: str) -> tuple[str, str] | None:
    try:
        decoded = base64.b64decode(header[6:].strip(), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    user, sep, password = decoded.partition(":")
    if not sep:
        return None
    return user.upper(), password


def common_name(subject: str) -> str | None:
    for part in subject.split(","):
        name, _, value = part.partition("=")
        if name.strip().upper() == "CN":
            return value.strip()
    return None


class Logon:
    """Applies a :class:`LogonPolicy` to the credentials of one request."""

    def __init__(
        self,
        policy: LogonPolicy,
        users: Mapping[str, str],
        oauth: OAuthServer | None,
        sso: SingleSignOn | None = None,
    ) -> None:
        self.policy = policy
        self.users = users
        self.oauth = oauth
        self.sso = sso

    def identify(
        self, authorization: str | None, certificate: str | None, ticket: str | None = None
    ) -> Verdict:
        if ticket is not None and self.sso is not None:
            user = self.sso.user_of(ticket)
            return Verdict(user=user) if user in self.users else Verdict()
        if authorization:
            scheme = authorization.split(" ", 1)[0].lower()
            if scheme == "basic":
                return self._basic(authorization)
            if scheme == "bearer":
                return self._bearer(authorization[7:].strip())
            return Verdict()
        if certificate is not None:
            user = self._certificate_user(certificate)
            if user is not None:
                return Verdict(user=user)
        return Verdict(anonymous=True)

    def _basic(self, header: str) -> Verdict:
        credentials = _basic_credentials(header) if self.policy.basic else None
        if credentials is None:
            return Verdict()
        user, password = credentials
        expected = self.users.get(user)
        if expected is None or not hmac.compare_digest(expected, password):
            return Verdict()
        return Verdict(user=user)

    def _bearer(self, token: str) -> Verdict:
        user = self.oauth.user_of(token) if self.oauth is not None else None
        if user is None or user not in self.users:
            return Verdict(bearer_error="invalid_token")
        return Verdict(user=user)

    def _certificate_user(self, subject: str) -> str | None:
        mapping = {k.upper(): v for k, v in self.policy.certificate_users.items()}
        user = mapping.get(subject.upper())
        if user is None:
            name = common_name(subject)
            user = mapping.get(name.upper()) if name else None
        return user.upper() if user and user.upper() in self.users else None

    def challenges(self, sid: str, client: str, verdict: Verdict | None) -> list[str]:
        """The ``WWW-Authenticate`` headers of a 401: the procedures this system offers."""
        offered = []
        if self.policy.basic:
            offered.append(f'Basic realm="SAP NetWeaver Application Server [{sid}/{client}]"')
        if self.oauth is not None:
            error = verdict.bearer_error if verdict is not None else None
            offered.append(f'Bearer realm="{sid}"' + (f', error="{error}"' if error else ""))
        return offered


__all__ = ["Logon", "LogonPolicy", "Verdict", "common_name"]
