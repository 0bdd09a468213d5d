"""V2 source operations: line-range reads, server-side grep and token-checked line patches.

One implementation for every face (language server, MCP bridge); no LSP or MCP imports here.
Names are imported on first use."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt._lazy import lazy_names

if TYPE_CHECKING:
    from adt.source.cache import (
        CacheKey,
        SourceCache,
    )
    from adt.source.config import SourceConfig
    from adt.source.errors import (
        SourceError,
        as_source_error,
        error_payload,
    )
    from adt.source.lines import Patch
    from adt.source.results import (
        ActivationOutcome,
        CheckOutcome,
        Finding,
        GrepOutcome,
        IncludeInfo,
        LockInfo,
        ObjectStructure,
        SearchHit,
        SourceRead,
        WriteOutcome,
    )
    from adt.source.service import SourceService
    from adt.source.token import (
        EMPTY_TOKEN,
        is_valid_token,
        make_token,
    )

_WHERE = {
    "ActivationOutcome": "adt.source.results",
    "as_source_error": "adt.source.errors",
    "CacheKey": "adt.source.cache",
    "CheckOutcome": "adt.source.results",
    "EMPTY_TOKEN": "adt.source.token",
    "error_payload": "adt.source.errors",
    "Finding": "adt.source.results",
    "GrepOutcome": "adt.source.results",
    "IncludeInfo": "adt.source.results",
    "is_valid_token": "adt.source.token",
    "LockInfo": "adt.source.results",
    "make_token": "adt.source.token",
    "ObjectStructure": "adt.source.results",
    "Patch": "adt.source.lines",
    "SearchHit": "adt.source.results",
    "SourceCache": "adt.source.cache",
    "SourceConfig": "adt.source.config",
    "SourceError": "adt.source.errors",
    "SourceRead": "adt.source.results",
    "SourceService": "adt.source.service",
    "WriteOutcome": "adt.source.results",
}

__all__ = [
    "EMPTY_TOKEN",
    "ActivationOutcome",
    "CacheKey",
    "CheckOutcome",
    "Finding",
    "GrepOutcome",
    "IncludeInfo",
    "LockInfo",
    "ObjectStructure",
    "Patch",
    "SearchHit",
    "SourceCache",
    "SourceConfig",
    "SourceError",
    "SourceRead",
    "SourceService",
    "WriteOutcome",
    "as_source_error",
    "error_payload",
    "is_valid_token",
    "make_token",
]


__getattr__ = lazy_names(__name__, globals(), _WHERE)
