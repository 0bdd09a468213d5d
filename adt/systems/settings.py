"""One typed settings model for every face: source operations, editor and bridge behaviour.

Each setting has one camelCase key (what editors send in ``initializationOptions`` and
``didChangeConfiguration``, and what the config file's ``[source]``, ``[editor]`` and
``[bridge]`` tables use) and, where the V2 design or the project named one, an environment
variable. Sources, strongest first: the editor's options, the environment, the config file,
the default. A bad value is a :class:`~adt.errors.ConfigurationError` that names the key and
where the value came from, so every face can show it as it is.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from typing import Any, TypeVar

import attrs

from adt.errors import ConfigurationError
from adt.source.config import SourceConfig

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}

S = TypeVar("S")


class LockMode(enum.StrEnum):
    """``onSave`` locks only for the save burst; ``onEdit`` locks at the first change (Eclipse
    style) and releases when the document is clean again or closed."""

    ON_SAVE = "onSave"
    ON_EDIT = "onEdit"


class MergeOnSave(enum.StrEnum):
    """``ask``: a save over a newer server version is a conflict the user resolves; ``auto``:
    it is rebased over the colleague's change when their lines and the user's (one line of
    context around) are apart (:mod:`adt.source.rebase`), and asked about only when they meet."""

    ASK = "ask"
    AUTO = "auto"


def setting(default: Any, key: str, *, env: str = "", minimum: float | None = None) -> Any:
    """An attrs field that knows its camelCase key, its environment variable and its bound."""
    return attrs.field(default=default, metadata={"key": key, "env": env, "minimum": minimum})


@attrs.frozen
class SourceSettings:
    """How the source operations cache and check (docs/source-operations.md)."""

    cache_ttl: int = setting(300_000, "cacheTtl", env="MCP_CACHE_TTL", minimum=0)
    cache_size: int = setting(100, "cacheSize", env="MCP_CACHE_SIZE", minimum=1)
    cache_cleanup_interval: int = setting(
        60_000, "cacheCleanupInterval", env="MCP_CACHE_CLEANUP_INTERVAL", minimum=1
    )
    conflict_check: bool = setting(True, "conflictCheck", env="MCP_ENABLE_CONFLICT_CHECK")
    max_matches: int = setting(100, "maxMatches", env="MCP_MAX_MATCHES", minimum=1)
    strict_cache: bool = setting(False, "strictCache", env="MCP_STRICT_CACHE")
    shared_store: str = setting("", "sharedStore", env="MCP_SHARED_STORE")

    def to_config(self, **overrides: Any) -> SourceConfig:
        return SourceConfig(
            cache_ttl_ms=self.cache_ttl,
            cache_size=self.cache_size,
            cleanup_interval_ms=self.cache_cleanup_interval,
            conflict_check=self.conflict_check,
            max_matches=self.max_matches,
            strict_cache=self.strict_cache,
            shared_store=self.shared_store,
            **overrides,
        )


@attrs.frozen
class EditorSettings:
    """How the language server behaves for the editor (docs/lsp.md).

    ``poll_interval``: seconds between checks for remote changes of open documents (0: off).
    ``check_delay``: debounce of the syntax check while typing (``onEdit`` mode).
    ``save_on_did_save``: also save on ``textDocument/didSave``.
    ``ask_on_conflict``: after a save conflict, ask through ``window/showMessageRequest``.
    ``merge_on_save``: ``auto`` rebases a save over a colleague's change that does not touch
    the user's lines; ``ask`` treats every newer server version as a conflict.
    ``agent_channel``: let agents pass their calls through this server (MCP passthrough).
    ``default_transport``: the request a change goes into when the system asks for one
    (empty: ask the user).
    ``inlay_hints``: show the parameter a positional call argument goes to (off: none)."""

    lock_mode: LockMode = setting(LockMode.ON_SAVE, "lockMode")
    poll_interval: float = setting(30.0, "pollInterval", minimum=0)
    check_delay: float = setting(0.5, "checkDelay", minimum=0)
    save_on_did_save: bool = setting(False, "saveOnDidSave")
    ask_on_conflict: bool = setting(True, "askOnConflict")
    merge_on_save: MergeOnSave = setting(MergeOnSave.ASK, "mergeOnSave")
    agent_channel: bool = setting(True, "agentChannel")
    default_transport: str = setting("", "defaultTransport")
    inlay_hints: bool = setting(False, "inlayHints")


@attrs.frozen
class BridgeSettings:
    """How the MCP bridge serves agents (docs/mcp.md)."""

    read_only: bool = setting(False, "readOnly", env="MCP_READ_ONLY")
    write_allowlist: tuple[str, ...] = setting((), "writeAllowlist", env="MCP_WRITE_ALLOWLIST")
    max_response_chars: int = setting(
        80_000, "maxResponseChars", env="MCP_MAX_RESPONSE_CHARS", minimum=1_000
    )
    channel_connect_timeout: float = setting(
        2.0, "channelConnectTimeout", env="MCP_CHANNEL_CONNECT_TIMEOUT", minimum=0.001
    )
    channel_call_timeout: float = setting(
        120.0, "channelCallTimeout", env="MCP_CHANNEL_CALL_TIMEOUT", minimum=0.001
    )
    http_header_timeout: float = setting(
        5.0, "httpHeaderTimeout", env="MCP_HTTP_HEADER_TIMEOUT", minimum=0.01
    )
    http_idle_timeout: float = setting(
        30.0, "httpIdleTimeout", env="MCP_HTTP_IDLE_TIMEOUT", minimum=1
    )
    http_max_connections: int = setting(
        256, "httpMaxConnections", env="MCP_HTTP_MAX_CONNECTIONS", minimum=1
    )
    http_max_connections_per_client: int = setting(
        32, "httpMaxConnectionsPerClient", env="MCP_HTTP_MAX_CONNECTIONS_PER_CLIENT", minimum=1
    )
    http_min_body_rate: int = setting(
        4096, "httpMinBodyRate", env="MCP_HTTP_MIN_BODY_RATE", minimum=1
    )
    text_content: bool = setting(True, "textContent", env="MCP_TEXT_CONTENT")


def keys(section: type[Any]) -> list[str]:
    """The camelCase keys of a settings section (for docs and editor manifests)."""
    return [f.metadata["key"] for f in attrs.fields(section)]


def load_section(
    section: type[S],
    *,
    options: Mapping[str, Any] | None = None,
    env: Mapping[str, str] | None = None,
    file: Mapping[str, Any] | None = None,
    file_name: str = "the config file",
    base: S | None = None,
) -> S:
    """Build one section from the editor's ``options``, the environment and the config file
    (strongest first); keys none of them has keep ``base`` (default: the defaults)."""
    values: dict[str, Any] = {}
    for field in attrs.fields(section):  # type: ignore[arg-type]
        key, variable = field.metadata["key"], field.metadata["env"]
        if options is not None and key in options:
            raw, origin = options[key], f"setting {key}"
        elif env is not None and variable and env.get(variable, "").strip():
            raw, origin = env[variable], f"{variable} (for {key})"
        elif file is not None and key in file:
            raw, origin = file[key], f"{key} in {file_name}"
        else:
            continue
        values[field.name] = _coerce(raw, field, origin)
    start = base if base is not None else section()
    return attrs.evolve(start, **values)  # type: ignore[misc]


def _coerce(raw: Any, field: attrs.Attribute[Any], origin: str) -> Any:
    default = field.default
    minimum = field.metadata["minimum"]
    if isinstance(default, enum.Enum):
        return _enum(raw, type(default), origin)
    if isinstance(default, bool):
        return _bool(raw, origin)
    if isinstance(default, tuple):
        return _names(raw, origin)
    if isinstance(default, str):
        return _text(raw, origin)
    value = _number(raw, type(default), origin)
    if minimum is not None and value < minimum:
        raise ConfigurationError(f"{origin} must be at least {minimum:g}, not {raw!r}")
    return value


def _enum(raw: Any, kind: type[enum.Enum], origin: str) -> enum.Enum:
    for member in kind:
        if raw == member.value:
            return member
    allowed = " or ".join(str(m.value) for m in kind)
    raise ConfigurationError(f"{origin} must be {allowed}, not {raw!r}")


def _bool(raw: Any, origin: str) -> bool:
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
        return raw.strip().lower() in _TRUE
    raise ConfigurationError(f"{origin} must be true or false, not {raw!r}")


def _text(raw: Any, origin: str) -> str:
    if isinstance(raw, str):
        return raw.strip()
    raise ConfigurationError(f"{origin} must be a string, not {raw!r}")


def _names(raw: Any, origin: str) -> tuple[str, ...]:
    if isinstance(raw, str):
        raw = raw.split(",")
    if isinstance(raw, list | tuple) and all(isinstance(item, str) for item in raw):
        return tuple(dict.fromkeys(item.strip() for item in raw if item.strip()))
    raise ConfigurationError(f"{origin} must be a list of names, not {raw!r}")


def _number(raw: Any, kind: type, origin: str) -> int | float:
    wanted = "a whole number" if kind is int else "a number"
    if isinstance(raw, bool):
        raise ConfigurationError(f"{origin} must be {wanted}, not {raw!r}")
    try:
        value = kind(raw.strip() if isinstance(raw, str) else raw)
    except (TypeError, ValueError):
        raise ConfigurationError(f"{origin} must be {wanted}, not {raw!r}") from None
    if kind is float and not math.isfinite(value):
        raise ConfigurationError(f"{origin} must be a finite number, not {raw!r}")
    if kind is int and isinstance(raw, float) and raw != value:
        raise ConfigurationError(f"{origin} must be {wanted}, not {raw!r}")
    return value  # type: ignore[no-any-return]
