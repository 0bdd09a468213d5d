"""Tokens and configuration."""

from __future__ import annotations

import hashlib

import pytest

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
