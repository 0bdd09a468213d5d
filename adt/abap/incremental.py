"""A program's index that follows edits inside method bodies instead of being built again.

An editor posts its whole unsaved text with every completion, hover or navigation request,
and each keystroke makes it a text no index has seen. The answer at a cursor depends on the
program's declarations and on the statements of the method around the cursor (names declared
in one body are invisible in every other). So the caller indexes the program once with every
method body blanked — the *skeleton*, line numbers kept — and for each request:

* :func:`relocate` moves the skeleton index's positions when bodies grew or shrank (lines
  typed or deleted in them): the skeleton differs only by blank lines inside bodies, so only
  the positions below a changed body move;
* :func:`with_body` resolves the body at the cursor into a copy of the skeleton index: its
  lines lexed alone (keeping their numbers) and resolved in a fresh method scope below the
  class's, everything else shared.

Together they answer as an index of the text with that one body kept would
(``tests/abap/test_incremental.py`` compares them at every name).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from adt.abap.declarations import Sink
from adt.abap.index import ProgramIndex
from adt.abap.lexer import Statement, lex
from adt.abap.resolver import Region, Resolver
from adt.abap.symbols import Location, Occurrence, Scope, ScopeKind, Symbol

#: A 1-based line of a unit → its number after the edit.
Moved = Callable[[int], int]


def relocate(
    index: ProgramIndex,
    unit: str,
    moved: Moved,
    lines: list[str],
    symbols: Iterable[Symbol] | None = None,
) -> None:
    """Move every position of ``unit`` in ``index`` (in place) to where ``moved`` says;
    ``lines`` are the unit's lines after the edit, ``symbols`` its :func:`own_symbols` (when
    the caller keeps them). Only for edits where the index holds no position (inside
    blanked bodies)."""
    for symbol in own_symbols(index) if symbols is None else symbols:
        if symbol.location is not None and symbol.location.unit == unit:
            symbol.location = _moved(symbol.location, moved)
        if symbol.implementation is not None and symbol.implementation.unit == unit:
            symbol.implementation = _moved(symbol.implementation, moved)
    by_line: dict[tuple[str, int], list[Occurrence]] = {}
    for (at, line), found in index.by_line.items():
        new = moved(line) if at == unit else line
        if new != line:
            found = [_occurrence(occ, new) for occ in found]
        by_line[(at, new)] = found
    index.by_line = by_line
    index.regions = [
        Region(r.unit, moved(r.first), moved(r.last), r.scope) if r.unit == unit else r
        for r in index.regions
    ]
    index.contexts = {
        (at, moved(line) if at == unit else line, column): symbol
        for (at, line, column), symbol in index.contexts.items()
    }
    index.lines[unit] = lines


def with_body(
    index: ProgramIndex, unit: str, lines: list[str], header: int, end: int
) -> ProgramIndex | None:
    """``index`` (of the skeleton, resolved) with the body between lines ``header`` (the last
    line of the ``METHOD`` statement) and ``end`` (its ``ENDMETHOD``), 0-based, taken from
    ``lines`` and resolved; None when that body is not one method block of the index."""
    region = next(
        (
            r
            for r in index.regions
            if r.unit == unit
            and r.last == end + 1
            and r.first <= header + 1
            and r.scope.kind is ScopeKind.METHOD
        ),
        None,
    )
    if region is None or len(lex("\n".join(lines[region.first - 1 : header + 1])).statements) != 1:
        return None  # the block's header is not this body's METHOD statement alone
    lexed = lex("\n".join(lines[header + 1 : end + 1]), first=header + 2)
    statements = _body(lexed.statements, end + 1)
    if statements is None:
        return None
    old = region.scope
    scope = Scope(ScopeKind.METHOD, old.name, old.parent, old.owner)
    resolver = Resolver(index.program, Sink(), set(index.unit_ids))
    resolver.unit, resolver.docs = unit, lexed.docs
    resolver.body(statements, scope, explicit=True)
    by_line = dict(index.by_line)
    seen: set[tuple[int, int]] = set()
    for occ in sorted(resolver.sink.occurrences, key=lambda o: (o.line, o.column)):
        if (occ.line, occ.column) not in seen:
            seen.add((occ.line, occ.column))
            by_line[(unit, occ.line)] = [*by_line.get((unit, occ.line), []), occ]
    regions = [Region(unit, r.first, r.last, scope) if r is region else r for r in index.regions]
    text = dict(index.lines)
    text[unit] = [*text[unit][: header + 1], *lines[header + 1 : end], *text[unit][end:]]
    return index.derived(text, regions, {**index.contexts, **resolver.contexts}, by_line)


def _body(statements: list[Statement], end_line: int) -> list[Statement] | None:
    """The statements of a body lexed with its ``ENDMETHOD`` line: all but that ``ENDMETHOD``;
    all of them when an unfinished statement ran into it (``lo->`` typed on the line above:
    the method still ends there). None when something else shares that line."""
    if not statements or statements[-1].last_line != end_line:
        return None
    last = statements[-1]
    body = statements[:-1] if last.first == "ENDMETHOD" and last.line == end_line else statements
    if any(statement.first == "ENDMETHOD" for statement in body):
        return None
    return body


def own_symbols(index: ProgramIndex) -> Iterator[Symbol]:
    """Every symbol ``index`` declared (each once), not those of the library it asked: those
    in its scopes and those with a declaration occurrence (only its own declarer records
    one; a name declared twice keeps the first in its scope)."""
    scopes = {id(index.program): index.program}
    for region in index.regions:
        for scope in (region.scope, region.scope.parent):
            if scope is not None:
                scopes[id(scope)] = scope
    pending = [
        occ.symbol for found in index.by_line.values() for occ in found if occ.role == "declaration"
    ]
    for scope in scopes.values():
        pending += scope.symbols.values()
    seen: set[int] = set()
    while pending:
        symbol = pending.pop()
        if id(symbol) in seen:
            continue
        seen.add(id(symbol))
        yield symbol
        pending += symbol.params
        if symbol.members is not None and id(symbol.members) not in scopes:
            scopes[id(symbol.members)] = symbol.members
            pending += symbol.members.symbols.values()


def _moved(location: Location, moved: Moved) -> Location:
    line = moved(location.line)
    return location if line == location.line else Location(location.unit, line, location.column)


def _occurrence(occ: Occurrence, line: int) -> Occurrence:
    return Occurrence(occ.symbol, occ.unit, line, occ.column, occ.length, occ.role, occ.write)
