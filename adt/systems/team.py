"""Team mode: one HTTP bridge serving several people, each as their own SAP user.

``systems.toml`` lists the members under ``[team.<name>]``; each has a bearer token (its
SHA-256 in the file, ``tokenSha256``, or the token in an environment variable, ``tokenEnv``)
and an SAP identity: ``user`` plus a password from ``passwordEnv`` or the keyring
(``keyring = true``: service ``abap-adt``, user ``<system>:<user>``), a client certificate of
their own, or their own OAuth or single sign-on logon remembered on the bridge's machine
(``abap-adt logon SYSTEM --member NAME``: the bridge never opens a browser), for every system
of the bridge; ``[team.<name>.systems.<SYSTEM>]`` overrides the identity for one system. A
member's calls run with their own :class:`Connections` (their own sessions, cache and
locks), so SAP's change log and locks name the real person and nothing one member's call
caches or holds serves another's.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from adt.errors import ConfigurationError
from adt.logon import BasicLogon, BrowserLogon, OAuthLogon, Remember
from adt.profile import ConnectionProfile, Secret
from adt.systems.logons import logon_method
from adt.systems.passwords import KeyringGet, password

#: The systems a member works on (``SystemsConfig``; generic so that this module does not
#: import ``config.py``, which imports it).
S = TypeVar("S")


_HEX = frozenset("0123456789abcdef")


def token_digest(token: str) -> str:
    """What the team file stores instead of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Member(Generic[S]):
    """One person: the digest of their bearer token and their systems, as themselves."""

    name: str
    token_sha256: str = dataclasses.field(repr=False)
    systems: S = dataclasses.field(repr=False)

    def owns(self, token: str) -> bool:
        """Whether ``token`` is this member's (compared in constant time)."""
        return hmac.compare_digest(token_digest(token), self.token_sha256)


@dataclass(frozen=True)
class Team(Generic[S]):
    members: tuple[Member[S], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.members)

    def member_for(self, token: str) -> Member[S] | None:
        """The member whose token this is (every digest is compared: no early exit)."""
        found = [m for m in self.members if m.owns(token)]
        return found[0] if found else None


def load_team(
    table: Mapping[str, Any] | None,
    profiles: Mapping[str, ConnectionProfile],
    env: Mapping[str, str],
    keyring_get: KeyringGet,
    *,
    origin: str,
    build: Callable[[dict[str, ConnectionProfile]], S],
) -> Team[S]:
    """The ``[team]`` table of ``systems.toml`` (none: no team mode). ``build`` makes a
    member's systems from their own profiles."""
    if not table:
        return Team()
    if not profiles:
        raise ConfigurationError(f"{origin}: [team] needs systems to work on ([systems.NAME])")
    members = [
        _member(name, entry, profiles, env, keyring_get, origin, build)
        for name, entry in table.items()
    ]
    digests = [m.token_sha256 for m in members]
    if len(set(digests)) != len(digests):
        raise ConfigurationError(f"{origin}: two team members have the same token")
    return Team(tuple(members))


def _member(
    name: str,
    entry: Any,
    profiles: Mapping[str, ConnectionProfile],
    env: Mapping[str, str],
    keyring_get: KeyringGet,
    origin: str,
    build: Callable[[dict[str, ConnectionProfile]], S],
) -> Member[S]:
    where = f"team member {name!r} in {origin}"
    if not isinstance(entry, Mapping):
        raise ConfigurationError(f"{where} must be a table")
    overrides = entry.get("systems") or {}
    if not isinstance(overrides, Mapping):
        raise ConfigurationError(f"{where}: 'systems' must be a table of systems")
    unknown = [s for s in overrides if s not in profiles]
    if unknown:
        raise ConfigurationError(f"{where} names unknown systems: {', '.join(unknown)}")
    mine = {
        system: _as_member(profile, {**entry, **overrides.get(system, {})}, env, keyring_get, where)
        for system, profile in profiles.items()
    }
    return Member(name, _digest(entry, env, where), build(mine))


def _digest(entry: Mapping[str, Any], env: Mapping[str, str], where: str) -> str:
    if "token" in entry:
        raise ConfigurationError(
            f'{where} has a clear-text token; store its tokenSha256 (python -c "import '
            'hashlib,sys; print(hashlib.sha256(sys.argv[1].encode()).hexdigest())" TOKEN) '
            "or name an environment variable with tokenEnv"
        )
    if "tokenSha256" in entry:
        digest = str(entry["tokenSha256"]).strip().lower()
        if len(digest) != 64 or not set(digest) <= _HEX:
            raise ConfigurationError(f"{where}: tokenSha256 must be 64 hexadecimal digits")
        return digest
    variable = entry.get("tokenEnv")
    if not variable:
        raise ConfigurationError(f"{where} needs tokenSha256 or tokenEnv")
    token = env.get(str(variable), "").strip()
    if len(token) < 32:
        raise ConfigurationError(
            f"{where}: the environment variable {variable} must hold a token of at least 32 "
            "characters"
        )
    return token_digest(token)


def _as_member(
    profile: ConnectionProfile,
    settings: Mapping[str, Any],
    env: Mapping[str, str],
    keyring_get: KeyringGet,
    where: str,
) -> ConnectionProfile:
    user = str(settings.get("user") or "").strip()
    if not user:
        raise ConfigurationError(f"{where} needs 'user' (the SAP user for {profile.name})")
    entry = {**settings, "user": user}
    try:
        # the member's own logon (never the system's: that may be the operator's certificate)
        logon = logon_method(profile.name, entry, env, keyring_get, where)
        if isinstance(logon, OAuthLogon | BrowserLogon) and logon.remember == Remember():
            raise ConfigurationError(
                f"logon = {logon.kind!r} of a member must be remembered on the bridge's machine "
                "(the bridge never opens a browser): remove remember_logon = false, or name a "
                "token_file"
            )
        secret = ""
        if isinstance(logon, BasicLogon):
            secret = password(
                profile.name, entry, env, keyring_get, allow_password=False, origin=where
            )
    except ConfigurationError as exc:
        raise ConfigurationError(f"{where}: {exc}") from exc
    return dataclasses.replace(profile, user=user, password=Secret(secret), logon=logon)


__all__ = ["Member", "Team", "load_team", "token_digest"]
