"""What an ABAP data object's type is, as far as a program's symbol index tells: typed by a
CDS entity (or a table of it) through its declaration — ``TYPE e``, ``TYPE [STANDARD|SORTED|
HASHED] TABLE OF e``, a local ``TYPES`` of those, ``LIKE`` (``LINE OF``) other such data — or
as the row of such a table (``LOOP AT lt INTO DATA(row)``, ``ASSIGNING FIELD-SYMBOL(<row>)``,
``READ TABLE lt INTO DATA(row)``). Anything else is unknown, never guessed. No I/O."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from adt.abap.index import ProgramIndex
from adt.abap.lexer import NAME, Token, lex
from adt.abap.symbols import DATA_KINDS, Scope, Symbol, SymbolKind

#: Is this (upper-case) name one of the entities asked about?
Wanted = Callable[[str], bool]
#: (ENTITY, is a table of it)
Typed = tuple[str, bool]

_TABLES = frozenset({"STANDARD", "SORTED", "HASHED", "ANY", "INDEX"})
_DEPTH = 4  # how many TYPES/LIKE steps are followed
ANY_KIND = frozenset(SymbolKind)

__all__ = [
    "ANY_KIND",
    "Typed",
    "Wanted",
    "data_typed",
    "local",
    "plain",
    "statements",
    "touching",
    "typed_by",
]


def typed_by(symbol: Symbol, wanted: Wanted, depth: int = 0) -> Typed | None:
    """(ENTITY, is a table) when ``symbol`` (data or a type) is typed by a wanted entity."""
    words = symbol.typing.upper().split()
    if depth > _DEPTH or len(words) < 2 or symbol.scope is None:
        return None
    if words[0] == "LIKE":
        return _like(words[1:], symbol.scope, wanted, depth)
    rest = words[1:] if words[0] == "TYPE" else []
    while rest and rest[0] in _TABLES:
        rest = rest[1:]
    table = rest[:2] == ["TABLE", "OF"]
    name = (rest[2:] if table else rest)[:1]
    if not name or name[0] in ("REF", "RANGE", "LINE", "TABLE") or not plain(name[0]):
        return None
    declared = local(symbol.scope, name[0], {SymbolKind.TYPE})
    if declared is None:
        return (name[0], table) if wanted(name[0]) else None
    inner = typed_by(declared, wanted, depth + 1)
    if inner is None or (table and inner[1]):
        return None
    return inner[0], table or inner[1]


def _like(words: list[str], scope: Scope, wanted: Wanted, depth: int) -> Typed | None:
    row = words[:2] == ["LINE", "OF"]
    name = (words[2:] if row else words)[:1]
    other = local(scope, name[0], DATA_KINDS) if name and plain(name[0]) else None
    found = typed_by(other, wanted, depth + 1) if other is not None else None
    if found is None or (row and not found[1]):
        return None
    return (found[0], False) if row else found


def plain(name: str) -> bool:
    """A name of one part (no component, class or interface prefix)."""
    return not any(mark in name for mark in ("-", "=>", "~", "("))


def local(scope: Scope, name: str, kinds: Collection[SymbolKind]) -> Symbol | None:
    """The nearest declaration of ``name`` seen from ``scope``, if of one of ``kinds``."""
    for each in scope.chain():
        found = each.local(name)
        if found is not None:
            return found if found.kind in kinds else None
    return None


def statements(index: ProgramIndex, unit: str) -> list[list[Token]]:
    """The unit's statements as the index lexed them (lexed again once it let them go)."""
    kept = next((s.lexed for s in index.structures if s.unit == unit), None)
    lexed = kept or lex("\n".join(index.lines.get(unit, [])))
    return [s.tokens for s in lexed.statements]


def touching(left: Token, right: Token) -> bool:
    return left.line == right.line and left.column + len(left.text) == right.column


def data_typed(
    index: ProgramIndex, unit: str, token: Token, wanted: Wanted, depth: int = 0
) -> Typed | None:
    """The type of the data object whose name ``token`` is (its occurrence in the index)."""
    occurrence = index.occurrence_at(unit, token.line, token.column)
    if occurrence is None or occurrence.column != token.column or depth > _DEPTH:
        return None
    symbol = occurrence.symbol
    if symbol.kind not in DATA_KINDS:
        return None
    return typed_by(symbol, wanted) or _inline_row(index, symbol, wanted, depth)


#: The statements whose inline target is a row of the table they name third.
_ROW_STATEMENTS = (("LOOP", "AT"), ("READ", "TABLE"))


def _inline_row(index: ProgramIndex, symbol: Symbol, wanted: Wanted, depth: int) -> Typed | None:
    """A row declared inline by ``LOOP AT lt INTO DATA(row)`` / ``ASSIGNING
    FIELD-SYMBOL(<row>)`` or ``READ TABLE lt …`` of a table typed by an entity (not a
    ``REFERENCE INTO``, not a group of ``GROUP BY``)."""
    at = symbol.location
    if symbol.typing or at is None:
        return None
    tokens = next((t for t in statements(index, at.unit) if _holds(t, at.line, at.column)), [])
    if not _row_target(tokens, (at.line, at.column)):
        return None
    table = data_typed(index, at.unit, tokens[2], wanted, depth + 1)
    return (table[0], False) if table is not None and table[1] else None


def _row_target(tokens: Sequence[Token], where: tuple[int, int]) -> bool:
    """Whether the name declared at ``where`` is the row target of a ``LOOP AT`` or ``READ
    TABLE`` statement naming its table by a plain name."""
    words = [t.upper for t in tokens]
    if len(tokens) < 4 or tuple(words[:2]) not in _ROW_STATEMENTS or tokens[2].kind != NAME:
        return False
    declared = next((i for i, t in enumerate(tokens) if (t.line, t.column) == where), 0)
    if declared < 4 or words[declared - 1] != "(":
        return False
    kind = declared - 2  # DATA( or FIELD-SYMBOL(
    if words[kind] == "SYMBOL" and words[kind - 2 : kind] == ["FIELD", "-"]:
        kind -= 2
    elif words[kind] != "DATA":
        return False
    lead, before = words[kind - 1], words[kind - 2] if kind >= 2 else ""
    return lead in ("INTO", "ASSIGNING") and before != "REFERENCE" and "GROUP" not in words


def _holds(tokens: Sequence[Token], line: int, column: int) -> bool:
    first, last = tokens[0], tokens[-1]
    return (first.line, first.column) <= (line, column) <= (last.line, last.end)
