"""Keeping answers within the response limit: cut lists say what was left out and how to go on."""

from __future__ import annotations

from typing import Any

import orjson


def dumps(payload: object) -> str:
    """``payload`` as compact JSON (what an answer's text is): orjson, because every answer
    is encoded on the hot path."""
    return orjson.dumps(payload).decode()


def size(payload: object) -> int:
    """Characters of ``payload`` as JSON (what the limit counts)."""
    return len(dumps(payload))


def keep_within(payload: dict[str, Any], key: str, limit: int, reserve: int = 600) -> int:
    """Keep the leading items of ``payload["data"][key]`` that fit the limit (minus room for
    a note); returns how many were kept."""
    data = payload["data"]
    items: list[Any] = data[key]
    data[key] = []
    budget = limit - reserve - size(payload)
    kept = 0
    for item in items:
        cost = size(item) + 2
        if cost > budget:
            break
        budget -= cost
        kept += 1
    data[key] = items[:kept]
    return kept


def cut_note(limit: int) -> str:
    return f"answer cut to the response limit of {limit} characters"
