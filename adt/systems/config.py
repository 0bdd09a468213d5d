"""Which SAP systems we talk to, and the settings of every face, from one loader.

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

import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from adt.errors import ConfigurationError
from adt.logon import BasicLogon, OAuthLogon
from adt.profile import ConnectionProfile, Secret, parse_verify
from adt.source.errors import AuthFailed, UnknownSystem
from adt.systems.logons import environment_entry, logon_method
from adt.systems.passwords import (
    KeyringGet,
    MissingPassword,
    key,
    password,
    system_keyring_get,
)
from adt.systems.settings import BridgeSettings, EditorSettings, SourceSettings, load_section
from adt.systems.team import Team, load_team


def default_config_path(env: Mapping[str, str] | None = None) -> Path:
    source = os.environ if env is None else env
    if source.get("ABAP_ADT_CONFIG"):
        return Path(source["ABAP_ADT_CONFIG"])
    if sys.platform == "win32" and source.get("APPDATA"):
        return Path(source["APPDATA"]) / "abap-adt" / "systems.toml"
    base = source.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "abap-adt" / "systems.toml"


def _verify(value: object) -> bool | str:
    if value is None:
        return True
    return value if isinstance(value, bool) else parse_verify(str(value))


def _profile(
    name: str,
    entry: Mapping[str, Any],
    env: Mapping[str, str],
    keyring_get: KeyringGet,
    *,
    allow_password: bool,
    origin: str,
) -> ConnectionProfile:
    if not isinstance(entry, Mapping):
        raise ConfigurationError(f"system {name!r} ({origin}) must be a table of settings")
    logon = logon_method(name, entry, env, keyring_get, origin)
    url = key(entry, "url", "baseUrl")
    if not url and isinstance(logon, OAuthLogon):
        url = logon.service_key.url  # the service key names the system
    user = key(entry, "user")
    if not url or not user:
        raise ConfigurationError(f"system {name!r} ({origin}) needs 'url' and 'user'")
    secret = ""
    if isinstance(logon, BasicLogon):
        secret = password(
            name, entry, env, keyring_get, allow_password=allow_password, origin=origin
        )
    return ConnectionProfile(
        base_url=str(url),
        user=str(user),
        password=Secret(secret),
        client=str(key(entry, "client") or "001"),
        language=str(key(entry, "language") or "EN"),
        verify=_verify(key(entry, "verify_tls", "verifyTls")),
        name=name,
        logon=logon,
    )


@dataclass
class SystemsConfig:
    """An ordered set of named systems."""

    profiles: dict[str, ConnectionProfile] = field(default_factory=dict)
    default: str | None = None
    unusable: dict[str, str] = field(default_factory=dict)
    """Systems of the file whose password is missing, with why: reported when used."""

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
        for candidate, reason in self.unusable.items():
            if candidate.lower() == chosen.lower():
                raise AuthFailed(
                    f"system {candidate!r} cannot be used: {reason}; fix it and restart",
                    system=candidate,
                )
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
        keyring_get: KeyringGet = system_keyring_get,
    ) -> SystemsConfig:
        """Collect systems from the editor, the config file and the environment."""
        return load_settings(
            init_options=init_options, env=env, config_file=config_file, keyring_get=keyring_get
        ).systems

    def _add_editor_systems(
        self, options: Mapping[str, Any], env: Mapping[str, str], keyring_get: KeyringGet
    ) -> None:
        for entry in options.get("systems") or []:
            name = str(entry.get("name") or "")
            if not name:
                raise ConfigurationError("every system in initializationOptions needs a name")
            profile = _profile(
                name, entry, env, keyring_get, allow_password=True, origin="initializationOptions"
            )
            self.add(name, profile)

    def _add_file_systems(
        self, file: ConfigFile, env: Mapping[str, str], keyring_get: KeyringGet
    ) -> None:
        systems = file.data.get("systems") or {}
        if not isinstance(systems, dict):
            raise ConfigurationError(f"{file.path}: [systems] must be a table of systems")
        for name, entry in systems.items():
            try:
                profile = _profile(
                    name, entry, env, keyring_get, allow_password=False, origin=str(file.path)
                )
            except MissingPassword as exc:
                if not self.profiles and not self.unusable and not file.data.get("default"):
                    raise  # the default system: nothing would work
                self.unusable[name] = str(exc)
                continue
            self.add(name, profile)

    def _add_env_system(self, env: Mapping[str, str], keyring_get: KeyringGet) -> None:
        if not env.get("ADT_URL"):
            return
        name = env.get("ADT_SYSTEM") or "default"
        if (env.get("ADT_LOGON") or "basic").strip().lower() == "basic":
            self.add(name, ConnectionProfile.from_env(env, name=name))
            return
        entry = environment_entry(env)
        self.add(
            name,
            _profile(name, entry, env, keyring_get, allow_password=False, origin="environment"),
        )


def refuse_if_others_may_write(path: Path) -> None:
    """Refuse, as ssh does, a configuration that another user could have changed: it says
    which systems to send passwords to and whose tokens the bridge accepts."""
    if sys.platform == "win32":
        return
    info = path.stat()
    if info.st_mode & 0o022:
        who = "everyone" if info.st_mode & 0o002 else "its group"
        raise ConfigurationError(
            f"{path} is writable by {who} (mode {info.st_mode & 0o777:o}): another user could "
            f"add a system or a team member; run: chmod go-w {path}"
        )
    if info.st_uid not in (os.getuid(), 0):
        raise ConfigurationError(
            f"{path} belongs to another user (uid {info.st_uid}): copy it to a file of your "
            "own, or run: chown $(id -un) " + str(path)
        )


@dataclass(frozen=True)
class ConfigFile:
    """The parsed ``systems.toml`` (empty when there is none)."""

    path: Path
    data: dict[str, Any]

    @classmethod
    def read(cls, path: Path) -> ConfigFile:
        if not path.is_file():
            return cls(path, {})
        import tomllib  # ~20 ms (it loads datetime): only when there is a file to read

        refuse_if_others_may_write(path)
        try:
            return cls(path, tomllib.loads(path.read_text(encoding="utf-8")))
        except tomllib.TOMLDecodeError as exc:
            raise ConfigurationError(f"{path}: {exc}") from exc
        except UnicodeDecodeError as exc:
            raise ConfigurationError(
                f"{path} is not UTF-8 text (byte {exc.start + 1}): save it as UTF-8"
            ) from exc
        except OSError as exc:
            raise ConfigurationError(f"cannot read {path}: {exc.strerror}") from exc

    def table(self, name: str) -> dict[str, Any] | None:
        table = self.data.get(name)
        if table is not None and not isinstance(table, dict):
            raise ConfigurationError(f"{self.path}: [{name}] must be a table")
        return table


@dataclass(frozen=True)
class Settings:
    """Everything a face is configured with: the systems and each concern's settings."""

    systems: SystemsConfig = field(default_factory=SystemsConfig)
    source: SourceSettings = field(default_factory=SourceSettings)
    editor: EditorSettings = field(default_factory=EditorSettings)
    bridge: BridgeSettings = field(default_factory=BridgeSettings)
    team: Team[SystemsConfig] = field(default_factory=Team)


def load_settings(
    *,
    init_options: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    config_file: Path | None = None,
    keyring_get: KeyringGet = system_keyring_get,
) -> Settings:
    """Read the editor's options, the environment and the config file into one
    :class:`Settings`; raise :class:`ConfigurationError` naming the first bad key."""
    environ = os.environ if env is None else env
    options = init_options or {}
    file = ConfigFile.read(config_file if config_file is not None else default_config_path(environ))
    systems = SystemsConfig()
    systems._add_editor_systems(options, environ, keyring_get)
    systems._add_file_systems(file, environ, keyring_get)
    systems._add_env_system(environ, keyring_get)
    systems.default = options.get("default") or file.data.get("default") or None
    broken = {n.lower(): why for n, why in systems.unusable.items()}
    if systems.default is not None and systems.default.lower() in broken:
        raise ConfigurationError(broken[systems.default.lower()])  # the default: start no face
    if systems.default is not None:
        systems.get(systems.default)  # an unknown default is a configuration error
    name = str(file.path)
    return Settings(
        systems=systems,
        source=load_section(
            SourceSettings, options=options, env=environ, file=file.table("source"), file_name=name
        ),
        editor=load_section(
            EditorSettings, options=options, file=file.table("editor"), file_name=name
        ),
        bridge=load_section(BridgeSettings, env=environ, file=file.table("bridge"), file_name=name),
        team=load_team(
            file.table("team"),
            systems.profiles,
            environ,
            keyring_get,
            origin=name,
            build=lambda profiles: replace(systems, profiles=profiles),
        ),
    )
