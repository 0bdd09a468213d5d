"""Settings of the source operations. Reading them from the editor, a file or the environment
is :mod:`adt.systems`' job; this layer only uses them."""

from __future__ import annotations

from dataclasses import dataclass


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
    shared_store: str = ""
    """A Redis URL (``redis://host:6379/0``) where replicas share the texts of the tokens
    they hand out, so any of them can rebase a write; empty: each process keeps its own."""
