"""Where a password comes from: clear text (an editor's own options only), an environment
variable, or the OS keyring — never from the configuration file itself. Shared by the systems
and the team members of ``systems.toml``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from adt.errors import ConfigurationError

KEYRING_SERVICE = "abap-adt"


class MissingPassword(ConfigurationError):
    """The named password source holds nothing (an unset variable, an empty keyring entry):
    a problem of that one system, which a face can report when the system is used."""


KeyringGet = Callable[[str, str], "str | None"]


def system_keyring_get(service: str, user: str) -> str | None:
    try:
        import keyring  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:
        raise ConfigurationError(
            "a system asks for its password from the keyring, but the 'keyring' package is not "
            "installed: pip install keyring"
        ) from exc
    value = keyring.get_password(service, user)
    return value if isinstance(value, str) else None


def key(entry: Mapping[str, Any], *names: str) -> Any:
    for name in names:
        if name in entry:
            return entry[name]
    return None


def password(
    name: str,
    entry: Mapping[str, Any],
    env: Mapping[str, str],
    keyring_get: KeyringGet,
    *,
    allow_password: bool,
    origin: str,
) -> str:
    """The password of a system entry: clear text (editors only), an environment variable,
    or the keyring; never from the config file itself."""
    if "password" in entry:
        if not allow_password:
            raise ConfigurationError(
                f"system {name!r} in {origin} has a clear-text password; remove it and use "
                'password_env = "VARIABLE" or keyring = true instead'
            )
        return str(entry["password"])
    env_name = key(entry, "password_env", "passwordEnv")
    if env_name:
        password = env.get(str(env_name))
        if password is None:
            raise MissingPassword(
                f"system {name!r}: environment variable {env_name} (its password) is not set"
            )
        return password
    if key(entry, "keyring"):
        user = key(entry, "user")
        stored = keyring_get(KEYRING_SERVICE, f"{name}:{user}")
        if stored is None:
            raise MissingPassword(
                f"system {name!r}: no password in the keyring for service {KEYRING_SERVICE!r}, "
                f"user {name}:{user}"
            )
        return stored
    raise ConfigurationError(
        f"system {name!r} ({origin}) has no password source: set password_env or keyring"
    )


__all__ = [
    "KEYRING_SERVICE",
    "KeyringGet",
    "MissingPassword",
    "key",
    "password",
    "system_keyring_get",
]
