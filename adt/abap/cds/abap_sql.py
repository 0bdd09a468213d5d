"""Completion of fields in ABAP SQL: in a ``SELECT`` over CDS entities or tables of the
catalog, the elements of its data sources (``SELECT SINGLE travel_id, … FROM
/dmo/i_travel_m``, ``SELECT FROM /dmo/travel FIELDS …``, ``WHERE …``, ``ORDER BY …``); after
``alias~`` only those of the data source with that alias (or name). Host variables (after
``@``) and the data source names themselves (after ``FROM``/``JOIN``) are ABAP's to
complete, so nothing is proposed there."""

from __future__ import annotations

from collections.abc import Callable

from adt.abap.cds.catalog import Catalog, Entity
from adt.abap.lexer import NAME, Token, lex

_SOURCE_LEADS = frozenset({"FROM", "JOIN"})
_NOT_FIELDS = frozenset({"FROM", "JOIN", "INTO", "APPENDING", "AS", "@", "=>", "->"})
_INLINE = frozenset({"DATA", "FINAL"})  # ``@DATA(`` declares, ``MAX(`` takes a field


def _statement_at(text: str, line: int, column: int, first: int) -> list[Token] | None:
    """The tokens of the ``SELECT`` statement the cursor stands in (``text`` starts at line
    ``first`` of the source)."""
    for statement in lex(text, first).statements:
        tokens = statement.tokens
        if not tokens or (tokens[0].line, tokens[0].column) > (line, column):
            continue
        last = tokens[-1]
        if (last.line, last.end) < (line, column):
            continue
        if any(t.upper == "SELECT" for t in tokens):
            return tokens
        return None
    return None


def _sources(tokens: list[Token]) -> dict[str, str]:
    """Alias (or name) → data source name, upper case, of every ``FROM``/``JOIN``."""
    found: dict[str, str] = {}
    for index, token in enumerate(tokens[:-1]):
        if token.upper not in _SOURCE_LEADS:
            continue
        source = tokens[index + 1]
        if source.kind != NAME:
            continue
        name = source.text.lstrip("@").upper()
        found[name] = name
        if index + 3 < len(tokens) and tokens[index + 2].upper == "AS":
            found[tokens[index + 3].upper] = name
    return found


def _field_names(entity: Entity | None) -> list[str]:
    if entity is None or entity.opaque:
        return []
    return [f.name for f in entity.fields.values()]


def _split(tokens: list[Token], line: int, column: int) -> tuple[list[Token], str]:
    """The tokens before the cursor, without the word being typed, and that word's start."""
    before = [t for t in tokens if (t.line, t.column) < (line, column)]
    if before and before[-1].kind == NAME and before[-1].covers(line, column):
        return before[:-1], before[-1].text[: column - before[-1].column]
    return before, ""


def _at_a_field(before: list[Token]) -> bool:
    """Not after ``FROM``/``JOIN``/``INTO``/``AS``/``@``, nor in ``@DATA(``."""
    if not before or before[-1].text in _NOT_FIELDS or before[-1].upper in _NOT_FIELDS:
        return False
    return not (before[-1].text == "(" and len(before) > 1 and before[-2].upper in _INLINE)


def _candidates(before: list[Token], sources: dict[str, str], catalog: Catalog) -> list[str]:
    if before[-1].text == "~" and len(before) > 1:
        wanted = sources.get(before[-2].upper)
        return _field_names(catalog.entity(wanted)) if wanted else []
    unique = dict.fromkeys(sources.values())
    return [n for source in unique for n in _field_names(catalog.entity(source))]


def select_fields(
    text: str, line: int, column: int, catalog: Callable[[], Catalog], first: int = 1
) -> list[str] | None:
    """The fields to propose at (1-based line, 0-based column) of ABAP ``text`` (which may
    be a window of the source starting at line ``first``), filtered by the word typed
    before the cursor; None when the cursor is not at a field of a ``SELECT`` whose data
    sources the catalog knows. ``catalog`` is only asked for inside a ``SELECT``."""
    tokens = _statement_at(text, line, column, first)
    if tokens is None:
        return None
    before, typed = _split(tokens, line, column)
    if not _at_a_field(before):
        return None
    names = _candidates(before, _sources(tokens), catalog())
    if not names:
        return None
    lowered = typed.lower()
    return list(dict.fromkeys(n for n in names if n.lower().startswith(lowered)))


__all__ = ["select_fields"]
