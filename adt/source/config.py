"""Settings of the source operations, from the environment or from code."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from adt.errors import ConfigurationError


def _int(env: Mapping[str, str], key: str, default: int, minimum: int = 0) -> int:
    raw = env.get(key)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigurationError(f"{key} must be an integer, not {raw!r}") from None
    if value < minimum:
        raise ConfigurationError(f"{key} must be at least {minimum}, not {value}")
    return value


def _bool(env: Mapping[str, str], key: str, default: bool) -> bool:
    raw = env.get(key)
    if raw is None or raw.strip() == "":
        return default
    if raw.strip().lower() in ("1", "true", "yes", "on"):
        return True
    if raw.strip().lower() in ("0", "false", "no", "off"):
        return False
    raise ConfigurationError(f"{key} must be true or false, not {raw!r}")


@dataclass(frozen=True)
class SourceConfig:
    """``cache_ttl_ms``: how long a read stays fresh (a warm read costs no request).
    ``strict_cache``: refuse writes whose token is no longer cached (CACHE_EXPIRED) instead
    of re-verifying against the server — off by default, see docs/source-operations.md.
    ``grep_timeout_s``: the time budget of one search; a pattern that backtracks
    catastrophically is stopped there and reported as PATTERN_INVALID."""

    cache_ttl_ms: int = 300_000
    cache_size: int = 100
    cleanup_interval_ms: int = 60_000
    conflict_check: bool = True
    max_matches: int = 100
    strict_cache: bool = False
    grep_timeout_s: float = 2.0
    max_pattern_length: int = 1_000
    max_context_lines: int = 50
    retry_delays: tuple[float, ...] = (1.0, 2.0, 4.0)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SourceConfig:
        """Read ``MCP_CACHE_TTL``, ``MCP_CACHE_SIZE``, ``MCP_CACHE_CLEANUP_INTERVAL``,
        ``MCP_ENABLE_CONFLICT_CHECK``, ``MCP_MAX_MATCHES`` and ``MCP_STRICT_CACHE``."""
        source = os.environ if env is None else env
        return cls(
            cache_ttl_ms=_int(source, "MCP_CACHE_TTL", cls.cache_ttl_ms),
            cache_size=_int(source, "MCP_CACHE_SIZE", cls.cache_size, minimum=1),
            cleanup_interval_ms=_int(
                source, "MCP_CACHE_CLEANUP_INTERVAL", cls.cleanup_interval_ms, minimum=1
            ),
            conflict_check=_bool(source, "MCP_ENABLE_CONFLICT_CHECK", cls.conflict_check),
            max_matches=_int(source, "MCP_MAX_MATCHES", cls.max_matches, minimum=1),
            strict_cache=_bool(source, "MCP_STRICT_CACHE", cls.strict_cache),
        )
