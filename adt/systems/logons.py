"""How a configured system logs on: the ``logon`` key of a system entry (``basic``, the
default; ``certificate``; ``oauth``; ``browser``) and the keys each method reads, with errors
that name the key and where it came from. Shared by the editor's options, ``systems.toml``
and the environment (``ADT_LOGON`` and friends, translated to the same keys)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from adt.errors import ConfigurationError
from adt.logon import (
    BasicLogon,
    BrowserLogon,
    CertificateLogon,
    LogonMethod,
    OAuthLogon,
    Remember,
    ServiceKey,
)
from adt.secret import Secret
from adt.systems.passwords import KEYRING_SERVICE, KeyringGet, MissingPassword, key

Parser = Callable[[str, Mapping[str, Any], Mapping[str, str], KeyringGet, str], LogonMethod]

#: Environment variables of the one system ``ADT_URL`` names, and the entry keys they fill.
ENVIRONMENT_KEYS = {
    "ADT_LOGON": "logon",
    "ADT_CERTIFICATE": "certificate",
    "ADT_CERTIFICATE_KEY": "key",
    "ADT_SERVICE_KEY": "service_key",
    "ADT_TOKEN_FILE": "token_file",
}


def _path(name: str, entry: Mapping[str, Any], keys: tuple[str, ...], origin: str) -> Path | None:
    value = key(entry, *keys)
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise ConfigurationError(f"system {name!r} ({origin}): {keys[0]} must be a file path")
    return Path(value).expanduser()


def _passphrase(
    name: str, entry: Mapping[str, Any], env: Mapping[str, str], keyring_get: KeyringGet
) -> Secret | None:
    """A key's passphrase: from the variable ``passphrase_env`` names, or the keyring
    (service ``abap-adt``, user ``<system>:certificate``); never from the file."""
    if "passphrase" in entry:
        raise ConfigurationError(
            f"system {name!r} has a clear-text passphrase; remove it and use "
            'passphrase_env = "VARIABLE" or passphrase_keyring = true instead'
        )
    variable = key(entry, "passphrase_env", "passphraseEnv")
    if variable:
        value = env.get(str(variable))
        if value is None:
            raise MissingPassword(
                f"system {name!r}: environment variable {variable} (the key's passphrase) is "
                "not set"
            )
        return Secret(value)
    if key(entry, "passphrase_keyring", "passphraseKeyring"):
        stored = keyring_get(KEYRING_SERVICE, f"{name}:certificate")
        if stored is None:
            raise MissingPassword(
                f"system {name!r}: no passphrase in the keyring for service "
                f"{KEYRING_SERVICE!r}, user {name}:certificate"
            )
        return Secret(stored)
    return None


def _remember(name: str, entry: Mapping[str, Any], origin: str) -> Remember:
    """Where a browser logon is remembered: the OS keyring unless ``remember_logon = false``,
    else (or without a keyring) the ``token_file`` if one is named; never in this file."""
    wanted = key(entry, "remember_logon", "rememberLogon")
    if wanted is None:
        wanted = True
    if not isinstance(wanted, bool):
        raise ConfigurationError(
            f"system {name!r} ({origin}): remember_logon must be true or false, not {wanted!r}"
        )
    file = _path(name, entry, ("token_file", "tokenFile"), origin)
    return Remember(keyring=wanted, file=file if wanted else None)


def _basic(
    name: str, entry: Mapping[str, Any], env: Mapping[str, str], kr: KeyringGet, origin: str
) -> LogonMethod:
    return BasicLogon()


def _certificate(
    name: str, entry: Mapping[str, Any], env: Mapping[str, str], kr: KeyringGet, origin: str
) -> LogonMethod:
    certificate = _path(name, entry, ("certificate",), origin)
    if certificate is None:
        raise ConfigurationError(
            f"system {name!r} ({origin}) logs on with a certificate but names no "
            "'certificate' file (PEM or PKCS#12)"
        )
    return CertificateLogon(
        certificate=certificate,
        key=_path(name, entry, ("key",), origin),
        passphrase=_passphrase(name, entry, env, kr),
    )


def _oauth(
    name: str, entry: Mapping[str, Any], env: Mapping[str, str], kr: KeyringGet, origin: str
) -> LogonMethod:
    path = _path(name, entry, ("service_key", "serviceKey"), origin)
    if path is None:
        raise ConfigurationError(
            f"system {name!r} ({origin}) logs on with OAuth but names no 'service_key' file"
        )
    try:
        service_key = ServiceKey.read(path)
    except ConfigurationError as exc:  # like a missing password: this system alone is unusable
        raise MissingPassword(f"system {name!r}: {exc}") from None
    return OAuthLogon(service_key=service_key, remember=_remember(name, entry, origin))


def _browser(
    name: str, entry: Mapping[str, Any], env: Mapping[str, str], kr: KeyringGet, origin: str
) -> LogonMethod:
    path = key(entry, "login_path", "loginPath")
    remember = _remember(name, entry, origin)
    if path is None:
        return BrowserLogon(remember=remember)
    if not isinstance(path, str) or not path.startswith("/") or "//" in path:
        raise ConfigurationError(
            f"system {name!r} ({origin}): login_path must be a path like /sap/bc/sec/reentrance"
        )
    return BrowserLogon(login_path=path, remember=remember)


PARSERS: dict[str, Parser] = {
    "basic": _basic,
    "certificate": _certificate,
    "oauth": _oauth,
    "browser": _browser,
}


def logon_method(
    name: str,
    entry: Mapping[str, Any],
    env: Mapping[str, str],
    keyring_get: KeyringGet,
    origin: str,
) -> LogonMethod:
    """The logon method of one system entry (``basic`` when it names none)."""
    chosen = str(key(entry, "logon") or "basic").strip().lower()
    parser = PARSERS.get(chosen)
    if parser is None:
        raise ConfigurationError(
            f"system {name!r} ({origin}): logon must be one of {', '.join(PARSERS)}, not {chosen!r}"
        )
    return parser(name, entry, env, keyring_get, origin)


def environment_entry(env: Mapping[str, str]) -> dict[str, Any]:
    """The system entry the ``ADT_*`` variables describe (passwords and passphrases stay in
    the environment: the entry names their variables)."""
    entry: dict[str, Any] = {"url": env.get("ADT_URL"), "user": env.get("ADT_USER")}
    entry.update({k: env[v] for v, k in ENVIRONMENT_KEYS.items() if env.get(v)})
    if "ADT_PASSWORD" in env:
        entry["password_env"] = "ADT_PASSWORD"
    if "ADT_CERTIFICATE_PASSPHRASE" in env:
        entry["passphrase_env"] = "ADT_CERTIFICATE_PASSPHRASE"
    for optional, name in (("ADT_CLIENT", "client"), ("ADT_LANGUAGE", "language")):
        if env.get(optional):
            entry[name] = env[optional]
    if "ADT_VERIFY_TLS" in env:
        entry["verify_tls"] = env["ADT_VERIFY_TLS"]
    return entry


__all__ = ["ENVIRONMENT_KEYS", "PARSERS", "environment_entry", "logon_method"]
