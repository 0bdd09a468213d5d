"""V2 source operations: line-range reads, server-side grep and token-checked line patches.

One implementation for every face (language server, MCP bridge); no LSP or MCP imports here.
"""

from adt.source.cache import CacheKey, SourceCache
from adt.source.config import SourceConfig
from adt.source.errors import SourceError, as_source_error, error_payload
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
from adt.source.token import EMPTY_TOKEN, is_valid_token, make_token

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
