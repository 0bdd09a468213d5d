"""Tokens and configuration."""

from __future__ import annotations

import hashlib

import pytest

from adt.errors import ConfigurationError
from adt.source.config import SourceConfig
from adt.source.token import (
    EMPTY_TOKEN,
    content_hash,
    is_valid_token,
    make_token,
    same_content,
    token_changed_at,
    token_hash,
)


def test_token_is_changed_at_and_sha256_prefix() -> None:
    text = "REPORT ztest.\nWRITE 'x'."
    expected = hashlib.sha256(text.encode()).hexdigest()[:16]
    assert make_token(1785510582000, text) == f"1785510582000_{expected}"


def test_token_hashes_canonical_text() -> None:
    lf = "a\nb\nc"
    assert make_token(5, lf) == make_token(5, "a\r\nb\r\nc") == make_token(5, "a\rb\r\nc")
    assert content_hash("a\nb") != content_hash("a\nb\n"), "a final newline is content"


def test_empty_source_token() -> None:
    assert make_token(1234, "") == EMPTY_TOKEN == "0_empty"
    assert is_valid_token(EMPTY_TOKEN)
    assert token_changed_at(EMPTY_TOKEN) == 0
    assert token_hash(EMPTY_TOKEN) == "empty"


@pytest.mark.parametrize(
    "token",
    [
        "",
        "abc",
        "123_",
        "_0123456789abcdef",
        "12_0123456789ABCDEF",
        "12_0123456789abcde",
        "12_0123456789abcdef0",
        "x_0123456789abcdef",
        None,
        42,
    ],
)
def test_malformed_tokens_are_invalid(token: object) -> None:
    assert not is_valid_token(token)
    if isinstance(token, str):
        assert token_changed_at(token) is None


def test_token_parts() -> None:
    token = make_token(1706140800000, "x")
    assert is_valid_token(token)
    assert token_changed_at(token) == 1706140800000
    assert same_content(token, make_token(1706140900000, "x"))
    assert not same_content(token, make_token(1706140800000, "y"))


def test_config_defaults_and_environment() -> None:
    default = SourceConfig.from_env({})
    assert (default.cache_ttl_ms, default.cache_size, default.cleanup_interval_ms) == (
        300_000,
        100,
        60_000,
    )
    assert default.conflict_check is True and default.max_matches == 100
    assert default.strict_cache is False
    custom = SourceConfig.from_env(
        {
            "MCP_CACHE_TTL": "1000",
            "MCP_CACHE_SIZE": "3",
            "MCP_CACHE_CLEANUP_INTERVAL": "10",
            "MCP_ENABLE_CONFLICT_CHECK": "false",
            "MCP_MAX_MATCHES": "7",
            "MCP_STRICT_CACHE": "true",
        }
    )
    assert (custom.cache_ttl_ms, custom.cache_size, custom.cleanup_interval_ms) == (1000, 3, 10)
    assert (custom.conflict_check, custom.max_matches, custom.strict_cache) == (False, 7, True)
    with pytest.raises(ConfigurationError, match="MCP_CACHE_SIZE"):
        SourceConfig.from_env({"MCP_CACHE_SIZE": "many"})
    with pytest.raises(ConfigurationError, match="MCP_ENABLE_CONFLICT_CHECK"):
        SourceConfig.from_env({"MCP_ENABLE_CONFLICT_CHECK": "maybe"})
