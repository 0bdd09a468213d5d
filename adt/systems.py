"""Which SAP systems we talk to, and one connection pool over them.

Systems come from three places, in this order (the first one is the default unless a
``default`` is named):

1. the editor's ``initializationOptions`` (``{"systems": [...], "default": "A4H"}``);
2. the configuration file ``systems.toml`` in the user's config directory
   (``$ABAP_ADT_CONFIG``, else ``$XDG_CONFIG_HOME/abap-adt/``, else ``~/.config/abap-adt/``);
3. the ``ADT_*`` environment variables, for a single system named ``$ADT_SYSTEM`` (or
   ``default``).

Passwords never come from the file: an entry names an environment variable
(``password_env``) or asks the OS keyring (``keyring = true``, service ``abap-adt``, user
``<system>:<user>``). See docs/systems.md.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from adt.client import AdtClient
from adt.errors import ConfigurationError
from adt.profile import ConnectionProfile, Secret, parse_verify
from adt.source import SourceConfig, SourceService
from adt.source.errors import UnknownSystem

KEYRING_SERVICE = "abap-adt"
KeyringGet = Callable[[str, str], str | None]


def default_config_path(env: Mapping[str, str] | None = None) -> Path:
    source = os.environ if env is None else env
    if source.get("ABAP_ADT_CONFIG"):
        return Path(source["ABAP_ADT_CONFIG"])
    if sys.platform == "win32" and source.get("APPDATA"):
        return Path(source["APPDATA"]) / "abap-adt" / "systems.toml"
    base = source.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "abap-adt" / "systems.toml"


def _system_keyring_get(service: str, user: str) -> str | None:
    try:
        import keyring  # type: ignore[import-not-found, unused-ignore]
    except ImportError as exc:
        raise ConfigurationError(
            "a system asks for its password from the keyring, but the 'keyring' package is not "
            "installed: pip install keyring"
        ) from exc
    value = keyring.get_password(service, user)
    return value if isinstance(value, str) else None


def _verify(value: object) -> bool | str:
    if value is None:
        return True
    return value if isinstance(value, bool) else parse_verify(str(value))


def _key(entry: Mapping[str, Any], *names: str) -> Any:
    for name in names:
        if name in entry:
            return entry[name]
    return None


def _profile(
    name: str,
    entry: Mapping[str, Any],
    env: Mapping[str, str],
    keyring_get: KeyringGet,
    *,
    allow_password: bool,
    origin: str,
) -> ConnectionProfile:
    url = _key(entry, "url", "baseUrl")
    user = _key(entry, "user")
    if not url or not user:
        raise ConfigurationError(f"system {name!r} ({origin}) needs 'url' and 'user'")
    password: str | None = None
    if "password" in entry:
        if not allow_password:
            raise ConfigurationError(
                f"system {name!r} in {origin} has a clear-text password; remove it and use "
                'password_env = "VARIABLE" or keyring = true instead'
            )
        password = str(entry["password"])
    env_name = _key(entry, "password_env", "passwordEnv")
    if password is None and env_name:
        password = env.get(str(env_name))
        if password is None:
            raise ConfigurationError(
                f"system {name!r}: environment variable {env_name} (its password) is not set"
            )
    if password is None and _key(entry, "keyring"):
        password = keyring_get(KEYRING_SERVICE, f"{name}:{user}")
        if password is None:
            raise ConfigurationError(
                f"system {name!r}: no password in the keyring for service {KEYRING_SERVICE!r}, "
                f"user {name}:{user}"
            )
    if password is None:
        raise ConfigurationError(
            f"system {name!r} ({origin}) has no password source: set password_env or keyring"
        )
    verify = _key(entry, "verify_tls", "verifyTls")
    return ConnectionProfile(
        base_url=str(url),
        user=str(user),
        password=Secret(password),
        client=str(_key(entry, "client") or "001"),
        language=str(_key(entry, "language") or "EN"),
        verify=_verify(verify),
        name=name,
    )


@dataclass
class SystemsConfig:
    """An ordered set of named systems."""

    profiles: dict[str, ConnectionProfile] = field(default_factory=dict)
    default: str | None = None

    @property
    def names(self) -> list[str]:
        return list(self.profiles)

    def get(self, name: str | None = None) -> ConnectionProfile:
        """The named system, or the default. Unknown names list the available ones."""
        if not self.profiles:
            raise UnknownSystem(
                "no SAP system is configured: set ADT_URL/ADT_USER/ADT_PASSWORD or write "
                f"{default_config_path()}",
                available=[],
            )
        chosen = name or self.default or self.names[0]
        for candidate, profile in self.profiles.items():
            if candidate.lower() == chosen.lower():
                return profile
        raise UnknownSystem(
            f"unknown system {chosen!r}; available: {', '.join(self.names)}",
            system=chosen,
            available=self.names,
        )

    def add(self, name: str, profile: ConnectionProfile) -> None:
        if name not in self.profiles:
            self.profiles[name] = profile

    @classmethod
    def load(
        cls,
        *,
        init_options: Mapping[str, Any] | None = None,
        env: Mapping[str, str] | None = None,
        config_file: Path | None = None,
        keyring_get: KeyringGet = _system_keyring_get,
    ) -> SystemsConfig:
        """Collect systems from the editor, the config file and the environment."""
        environ = os.environ if env is None else env
        config = cls()
        options = init_options or {}
        for entry in options.get("systems") or []:
            name = str(entry.get("name") or "")
            if not name:
                raise ConfigurationError("every system in initializationOptions needs a name")
            config.add(
                name,
                _profile(
                    name,
                    entry,
                    environ,
                    keyring_get,
                    allow_password=True,
                    origin="initializationOptions",
                ),
            )
        path = config_file if config_file is not None else default_config_path(environ)
        file_default = None
        if path.is_file():
            try:
                data = tomllib.loads(path.read_text(encoding="utf-8"))
            except tomllib.TOMLDecodeError as exc:
                raise ConfigurationError(f"{path}: {exc}") from exc
            file_default = data.get("default")
            for name, entry in (data.get("systems") or {}).items():
                config.add(
                    name,
                    _profile(
                        name, entry, environ, keyring_get, allow_password=False, origin=str(path)
                    ),
                )
        if environ.get("ADT_URL"):
            name = environ.get("ADT_SYSTEM") or "default"
            config.add(name, ConnectionProfile.from_env(environ, name=name))
        config.default = options.get("default") or file_default or None
        if config.default is not None:
            config.get(config.default)  # an unknown default is a configuration error
        return config


ClientFactory = Callable[[ConnectionProfile], AdtClient]


class Connections:
    """One :class:`AdtClient` and :class:`SourceService` per system, created on first use."""

    def __init__(
        self,
        systems: SystemsConfig,
        *,
        source_config: SourceConfig | None = None,
        client_factory: ClientFactory = AdtClient,
    ) -> None:
        self.systems = systems
        self.source_config = source_config or SourceConfig.from_env()
        self._client_factory = client_factory
        self._services: dict[str, SourceService] = {}

    def service(self, system: str | None = None) -> SourceService:
        profile = self.systems.get(system)
        name = profile.name or profile.system_id
        service = self._services.get(name)
        if service is None:
            service = SourceService(
                self._client_factory(profile), system=name, config=self.source_config
            )
            self._services[name] = service
            with contextlib.suppress(RuntimeError):  # no running loop: nothing to clean up yet
                service.start()
        return service

    def open_services(self) -> list[SourceService]:
        return list(self._services.values())

    async def close(self) -> None:
        for service in self._services.values():
            await service.close()
            await service.client.close()
        self._services.clear()
