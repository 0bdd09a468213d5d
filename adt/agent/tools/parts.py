"""The named part (method, form, section...) around a line, so that an answer pointing at
lines says where they are without another call: a grep match, a where-used hit, a
definition. Names are those ``getObjectSourceV2 symbol=`` takes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from adt.agent.registry import ToolCall

if TYPE_CHECKING:
    from adt.abap.locate import SymbolRange

log = logging.getLogger("adt.agent")

MAX_SOURCES = 10
"""Sources read at most to name the parts around the hits of one answer (a where-used page
over many objects names those of the first ten; a cached source costs no request)."""


def innermost(parts: Sequence[SymbolRange], line: int) -> SymbolRange | None:
    """The smallest part that holds ``line`` (a method inside its class block)."""
    around = [p for p in parts if p.start_line <= line <= p.end_line]
    return min(around, key=lambda p: p.end_line - p.start_line) if around else None


def parts_of(text: str) -> list[SymbolRange]:
    """The named parts of an ABAP source; none for a text the scanner cannot read."""
    from adt.abap.locate import symbols  # the ABAP scanner: loaded by the first use

    try:
        return symbols(text)
    except Exception as exc:  # a CDS or dictionary source: no ABAP parts to name
        log.debug("no named parts: %s", exc)
        return []


async def enclosing(
    call: ToolCall,
    lines: Iterable[int],
    *,
    object_url: str | None = None,
    source_url: str | None = None,
    include_type: str | None = None,
) -> dict[int, str]:
    """The name of the part around each of ``lines`` of one source (lines outside any part
    are left out). The source comes from the cache when a read or grep just fetched it."""
    read = await call.service.get_source_v2(
        object_url, object_source_url=source_url, include_type=include_type
    )
    # Scanning a 10,000-line class takes tens of milliseconds: off the event loop (the
    # scanner keeps its last few results, so a read by symbol afterwards costs nothing).
    parts = await asyncio.to_thread(parts_of, read.content)
    named = {line: innermost(parts, line) for line in set(lines)}
    return {line: part.name for line, part in named.items() if part is not None}


__all__ = ["MAX_SOURCES", "enclosing", "innermost", "parts_of"]
