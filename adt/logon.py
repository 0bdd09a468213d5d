"""How a system wants us to log on, as configuration: which method, which files, which
variables. Plain values without I/O, so reading ``systems.toml`` loads no HTTP library; the
authenticators that act on them are in :mod:`adt.auth`."""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

from adt.errors import AuthenticationError, ConfigurationError
from adt.secret import Secret


class LogonPrompt(ABC):
    """How a face shows a browser logon to its user when it can do more than open a URL:
    an editor shows the URL with a progress the user can cancel, and the outcome after.

    The logon calls :meth:`show` once and waits for the system's answer on the loopback
    meanwhile; :meth:`show` may return at once or keep waiting (it is cancelled when the
    answer comes). Raising :class:`~adt.errors.AuthenticationError` from it ends the logon
    with that error (the user cancelled). :meth:`ended` follows every :meth:`show`."""

    @abstractmethod
    async def show(self, system: str, url: str) -> None:
        """Show ``url``, the logon page of ``system``, to the user."""

    def ended(self, system: str, error: str | None) -> None:
        """The logon shown for ``system`` ended: ``error`` is None when it worked, else why
        not, in the user's words (never a secret)."""
        return None


#: Shows the user a URL to open (a browser logon): ``webbrowser.open`` unless a face says how,
#: with a plain callable or a :class:`LogonPrompt`. Raising
#: :class:`~adt.errors.AuthenticationError` refuses the logon at once.
OpenBrowser = Callable[[str], object] | LogonPrompt


class RefuseBrowserLogon(LogonPrompt):
    """A prompt for a face that must not start a browser logon (an MCP bridge serving others
    over HTTP would open the browser on its own machine, for someone else): the request
    fails at once with ``reason``, which tells the user how to log on instead; ``{system}``
    in it is replaced with the system's name."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    async def show(self, system: str, url: str) -> None:
        raise AuthenticationError(self.reason.replace("{system}", system))


@dataclass(frozen=True)
class Remember:
    """Where a browser logon's renewable secret (the OAuth refresh token, the logon ticket)
    is kept between runs, so the next start needs no browser: the OS keyring (``keyring``,
    when the ``keyring`` package is installed and has a backend), else a file the user named
    (``file``, readable only by them), else nowhere (memory only, the default)."""

    keyring: bool = False
    file: Path | None = None


@dataclass(frozen=True)
class BasicLogon:
    """User and password in every request (HTTP basic authentication over TLS)."""

    kind: ClassVar[str] = "basic"


@dataclass(frozen=True)
class CertificateLogon:
    """An X.509 client certificate (mutual TLS); the system maps its subject to the user.

    ``certificate`` is a PEM file (the certificate, its chain and possibly the key) or a
    PKCS#12 bundle (``.p12``/``.pfx``); ``key`` a separate PEM key; ``passphrase`` unlocks an
    encrypted key or the bundle."""

    kind: ClassVar[str] = "certificate"
    certificate: Path
    key: Path | None = None
    passphrase: Secret | None = field(default=None, repr=False)

    @property
    def is_pkcs12(self) -> bool:
        return self.certificate.suffix.lower() in (".p12", ".pfx")


def _url(value: object, what: str, origin: str) -> str:
    parts = urlsplit(str(value))
    if parts.scheme not in ("http", "https") or not parts.hostname or "@" in parts.netloc:
        raise ConfigurationError(f"{origin}: {what} must be an https:// URL, not {value!r}")
    return str(value).rstrip("/")


@dataclass(frozen=True)
class ServiceKey:
    """What the OAuth logon needs of an SAP BTP service key: the system's URL and its
    authorization server (XSUAA) with our client's id and secret."""

    url: str
    uaa_url: str
    client_id: str
    client_secret: Secret = field(repr=False)

    @classmethod
    def from_json(cls, data: Mapping[str, Any], origin: str) -> ServiceKey:
        """Read the fields ``url``, ``uaa.url``, ``uaa.clientid`` and ``uaa.clientsecret``;
        a missing one is named in the error."""
        uaa = data.get("uaa")
        if not isinstance(uaa, Mapping):
            raise ConfigurationError(f"{origin}: the service key has no 'uaa' object")
        missing = [f"uaa.{k}" for k in ("url", "clientid", "clientsecret") if not uaa.get(k)]
        if not data.get("url"):
            missing.insert(0, "url")
        if missing:
            raise ConfigurationError(f"{origin}: the service key lacks {', '.join(missing)}")
        return cls(
            url=_url(data["url"], "url", origin),
            uaa_url=_url(uaa["url"], "uaa.url", origin),
            client_id=str(uaa["clientid"]),
            client_secret=Secret(str(uaa["clientsecret"])),
        )

    @classmethod
    def read(cls, path: Path) -> ServiceKey:
        """The service key in the JSON file at ``path`` (as the BTP cockpit downloads it)."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ConfigurationError(f"service key file {path} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigurationError(f"cannot read the service key file {path}: {exc}") from None
        except json.JSONDecodeError as exc:
            # the position only: the message of a JSON error may quote the secret
            raise ConfigurationError(
                f"service key file {path} is not JSON (line {exc.lineno}, column {exc.colno})"
            ) from None
        if not isinstance(data, Mapping):
            raise ConfigurationError(f"service key file {path} must hold a JSON object")
        return cls.from_json(data, str(path))


@dataclass(frozen=True)
class OAuthLogon:
    """OAuth 2.0 for the SAP BTP ABAP environment: the authorization-code flow with PKCE in
    the user's browser, a loopback redirect, then bearer tokens refreshed before they expire.

    ``open_browser`` shows the authorization URL (default: the system browser)."""

    kind: ClassVar[str] = "oauth"
    service_key: ServiceKey
    open_browser: OpenBrowser | None = field(default=None, compare=False, repr=False)
    login_timeout: float = 300.0
    remember: Remember = field(default_factory=Remember)


@dataclass(frozen=True)
class BrowserLogon:
    """Single sign-on through the user's browser: the system's logon page (and through it
    the company's identity provider, SAML 2.0 or SPNEGO) ends in a reentrance ticket
    redirected to a loopback listener; the ticket then logs the sessions on.

    ``login_path`` is the system's reentrance service; ``open_browser`` shows the URL."""

    kind: ClassVar[str] = "browser"
    login_path: str = "/sap/bc/sec/reentrance"
    open_browser: OpenBrowser | None = field(default=None, compare=False, repr=False)
    login_timeout: float = 300.0
    remember: Remember = field(default_factory=Remember)


LogonMethod = BasicLogon | CertificateLogon | OAuthLogon | BrowserLogon

__all__ = [
    "BasicLogon",
    "BrowserLogon",
    "CertificateLogon",
    "LogonMethod",
    "LogonPrompt",
    "OAuthLogon",
    "OpenBrowser",
    "RefuseBrowserLogon",
    "Remember",
    "ServiceKey",
]
