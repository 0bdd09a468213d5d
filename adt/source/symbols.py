"""Named parts of a source (``symbol``) for range reads and replacements by name."""

from __future__ import annotations

from adt.abap.locate import AmbiguousSymbolError, SymbolLookupError, SymbolRange, find_symbol
from adt.source.errors import InvalidArgument, SymbolNotFound

MAX_CANDIDATES = 100


def locate(text: str, name: str, *, for_write: bool = False) -> SymbolRange:
    """The part ``name`` means in ``text``; a write also refuses a part that shares a line
    with code outside it (replacing its lines would change that code too)."""
    try:
        found = find_symbol(text, name)
    except SymbolLookupError as exc:
        candidates = list(exc.candidates[:MAX_CANDIDATES])
        reason = "ambiguous" if isinstance(exc, AmbiguousSymbolError) else "not found"
        raise SymbolNotFound(
            f"{exc}; candidates: {', '.join(candidates) or 'none (no named parts)'}",
            symbol=name,
            reason=reason,
            candidates=candidates,
        ) from exc
    if for_write and found.shares_line:
        raise InvalidArgument(
            f"{found.name} (lines {found.start_line}-{found.end_line}) shares a line with code "
            "outside it; replace it by line numbers instead",
            symbol=found.to_dict(),
        )
    return found


__all__ = ["locate"]
