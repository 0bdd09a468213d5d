"""Connection profile: where a system is and how to log on, with the password kept out of sight."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

from adt.errors import ConfigurationError
from adt.logon import BasicLogon, LogonMethod
from adt.secret import Secret as Secret  # re-exported: where it always was

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def parse_verify(raw: str) -> bool | str:
    lowered = raw.strip().lower()
    if lowered in _TRUE or lowered == "":
        return True
    if lowered in _FALSE:
        return False
    return raw.strip()  # a path to a CA bundle


@dataclass(frozen=True)
class ConnectionProfile:
    """Everything needed to talk to one SAP system.

    ``logon`` says how to prove who we are (:mod:`adt.auth`): user and password unless
    a certificate or OAuth is configured; ``user`` is the SAP user either way (the one
    a certificate or token maps to), used for transports and as the responsible.

    ``verify`` is ``True`` (the default), ``False`` (only for a system you trust on a network
    you trust) or the path of a CA bundle. ``retry_delays`` are the backoff pauses, in seconds,
    between attempts of an idempotent request after a network error or a 502/503/504.
    """

    base_url: str
    user: str
    password: Secret = field(repr=False)
    client: str = "001"
    language: str = "EN"
    verify: bool | str = True
    connect_timeout: float = 10.0
    read_timeout: float = 60.0
    retry_delays: tuple[float, ...] = (1.0, 2.0, 4.0)
    name: str = ""
    logon: LogonMethod = field(default_factory=BasicLogon)

    def __post_init__(self) -> None:
        parts = urlsplit(self.base_url)
        if "@" in parts.netloc:  # checked first: the message must not repeat a password
            raise ConfigurationError(
                "the base URL contains user information: put the user and password in the "
                "profile, not in the URL"
            )
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ConfigurationError(
                f"base URL {self.base_url!r} must look like https://host:port (no path needed)"
            )
        if not self.user:
            raise ConfigurationError("a user is required")
        if not isinstance(self.password, Secret):
            object.__setattr__(self, "password", Secret(str(self.password)))
        object.__setattr__(self, "base_url", self.base_url.rstrip("/"))

    @property
    def system_id(self) -> str:
        """A name for this system: the configured name, else host:port."""
        if self.name:
            return self.name
        parts = urlsplit(self.base_url)
        return parts.netloc

    @property
    def identity(self) -> dict[str, str]:
        """What makes two profiles the same system and the same person: the URL, the SAP
        client and the user (the name alone is only a label)."""
        return {"url": self.base_url.lower(), "client": self.client, "user": self.user.upper()}

    def with_options(self, **changes: object) -> ConnectionProfile:
        """A copy with some fields changed (validated again)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, name: str = "") -> ConnectionProfile:
        """Build a profile from ``ADT_URL``, ``ADT_USER``, ``ADT_PASSWORD``, ``ADT_CLIENT``,
        ``ADT_LANGUAGE`` and ``ADT_VERIFY_TLS`` (true/false or a CA bundle path)."""
        source = os.environ if env is None else env
        missing = [key for key in ("ADT_URL", "ADT_USER", "ADT_PASSWORD") if not source.get(key)]
        if missing:
            raise ConfigurationError(f"missing environment variables: {', '.join(missing)}")
        return cls(
            base_url=source["ADT_URL"],
            user=source["ADT_USER"],
            password=Secret(source["ADT_PASSWORD"]),
            client=source.get("ADT_CLIENT") or "001",
            language=source.get("ADT_LANGUAGE") or "EN",
            verify=parse_verify(source.get("ADT_VERIFY_TLS", "")),
            name=name or source.get("ADT_SYSTEM", ""),
        )
