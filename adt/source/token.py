"""Version tokens: ``<changedAt ms>_<first 16 hex digits of sha256(canonical text)>``.

The hash covers the canonical (LF) text, so the same content always yields the same token
whatever line endings it travelled with. The empty source has the fixed token ``0_empty``.
"""

from __future__ import annotations

import hashlib
import re

from adt.text import to_canonical

EMPTY_TOKEN = "0_empty"
_TOKEN = re.compile(r"^(\d{1,16})_([0-9a-f]{16})$")


def content_hash(text: str) -> str:
    """First 16 hex digits of the SHA-256 of the canonical text (UTF-8)."""
    return hashlib.sha256(to_canonical(text).encode("utf-8")).hexdigest()[:16]


def make_token(changed_at_ms: int, text: str) -> str:
    if text == "":
        return EMPTY_TOKEN
    return f"{int(changed_at_ms)}_{content_hash(text)}"


def is_valid_token(token: object) -> bool:
    return isinstance(token, str) and (token == EMPTY_TOKEN or _TOKEN.match(token) is not None)


def token_changed_at(token: str) -> int | None:
    """The changedAt (epoch ms) a token was issued for; ``None`` for a malformed token."""
    if token == EMPTY_TOKEN:
        return 0
    match = _TOKEN.match(token)
    return int(match.group(1)) if match else None


def token_hash(token: str) -> str | None:
    """The content-hash part; ``"empty"`` for the empty source, ``None`` if malformed."""
    if token == EMPTY_TOKEN:
        return "empty"
    match = _TOKEN.match(token)
    return match.group(2) if match else None


def same_content(token_a: str, token_b: str) -> bool:
    """Whether two well-formed tokens name the same content (their change stamps may differ)."""
    hash_a, hash_b = token_hash(token_a), token_hash(token_b)
    return hash_a is not None and hash_a == hash_b
