"""Keeping answers within the response limit: cut lists say what was left out and how to go on."""

from __future__ import annotations

import json
from typing import Any


def size(payload: object) -> int:
    """Characters of ``payload`` as JSON (what the limit counts)."""
    return len(json.dumps(payload, ensure_ascii=False))


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
