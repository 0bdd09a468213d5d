"""Completion proposals at a cursor, from a program index.

The word left of the cursor is the prefix. After ``->``, ``=>``, ``~`` or a structure's
``-`` the proposals are the components of what the name before the selector refers to;
elsewhere they are the names visible at the cursor (locals, parameters, the class's
components, the program's globals), then global classes and interfaces from the library,
then ABAP keywords — the last two only once something has been typed. After ``->`` and
``=>`` the interfaces the class implements are offered too, as ``zif_x~`` (SAP's prefixes for
reaching their components).
"""

from __future__ import annotations

from dataclasses import dataclass

from adt.abap.index import ProgramIndex
from adt.abap.keywords import KEYWORDS
from adt.abap.lookup import enclosing_class, lookup, superclass
from adt.abap.symbols import Scope, ScopeKind, Symbol, SymbolKind

#: Where a proposal comes from, as SAP's ``LOCATION`` orders them (0 local … 4 global).
LOCAL, MEMBER, PROGRAM, GLOBAL, KEYWORD = 0, 1, 2, 4, 9
_STATIC_KINDS = frozenset({SymbolKind.CONSTANT, SymbolKind.TYPE, SymbolKind.EVENT})


@dataclass(frozen=True)
class Proposal:
    """One proposal: the identifier (upper case), its symbol (``None`` for keywords)."""

    identifier: str
    symbol: Symbol | None
    location: int

    @property
    def is_keyword(self) -> bool:
        return self.symbol is None


@dataclass(frozen=True)
class Completion:
    """The prefix the proposals replace and the proposals, best first."""

    prefix: str
    proposals: list[Proposal]
    truncated: bool = False


def prefix_at(text: str, column: int) -> str:
    """The identifier part left of ``column`` (``<fs`` and ``/ns/x`` included)."""
    column = max(0, min(column, len(text)))
    start = column
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_/%$"):
        start -= 1
    if start > 0 and text[start - 1] == "<":
        start -= 1
    prefix = text[start:column]
    return prefix if any(ch.isalnum() or ch == "_" for ch in prefix) or prefix == "<" else ""


#: A proposal before it is chosen: (location, identifier, symbol) — sorted and filtered as
#: plain tuples, so a class of thousands of members costs a sort, not thousands of objects.
_Candidate = tuple[int, str, "Symbol | None"]
_SORTED_KEYWORDS = sorted(KEYWORDS)


def complete(index: ProgramIndex, unit: str, line: int, column: int, limit: int = 50) -> Completion:
    """The proposals at (line, column) of ``unit`` (column = characters before the cursor)."""
    text = index.line_text(unit, line)
    column = max(0, min(column, len(text)))
    prefix = prefix_at(text, column)
    wanted = prefix.upper()
    before = text[: column - len(prefix)]
    scope = index.scope_at(unit, line)
    selector = next((s for s in ("->", "=>", "~") if before.endswith(s)), "")
    if not selector and before.endswith("-") and len(before) > 1 and before[-2].isalnum():
        selector = "-"
    found: list[_Candidate]
    if selector:
        owner = index.context_at(unit, line, len(before) - len(selector))
        found = _members(owner, selector, scope, wanted) if owner is not None else []
    else:
        found = _visible(scope, wanted)
        if prefix and index.library is not None:
            found += [(GLOBAL, s.name, s) for s in index.library.global_names(prefix)]
        if prefix and not prefix.startswith("<"):
            found += [(KEYWORD, k, None) for k in _SORTED_KEYWORDS if k.startswith(wanted)]
    chosen, more = _filter(found, wanted, (unit, line, column - len(prefix)), limit)
    return Completion(prefix, chosen, truncated=more)


def _filter(
    found: list[_Candidate], wanted: str, cursor: tuple[str, int, int], limit: int
) -> tuple[list[Proposal], bool]:
    """The first ``limit`` proposals starting with ``wanted`` (upper case), best first, each
    identifier once; and whether more were left out."""
    seen: set[str] = set()
    chosen: list[Proposal] = []
    candidates = [c for c in found if c[1].startswith(wanted)]
    candidates.sort(key=lambda c: (c[0], c[1]))
    for location, identifier, symbol in candidates:
        where = symbol.location if symbol is not None else None
        if where is not None and (where.unit, where.line, where.column) == cursor:
            continue  # the name being declared right here
        if identifier not in seen:
            if len(chosen) == limit:
                return chosen, True
            seen.add(identifier)
            chosen.append(Proposal(identifier, symbol, location))
    return chosen, False


def _visible(scope: Scope, wanted: str) -> list[_Candidate]:
    """Names visible in ``scope`` starting with ``wanted``, innermost first."""
    found: list[_Candidate] = []
    for current in scope.chain():
        location = {
            ScopeKind.PROGRAM: PROGRAM,
            ScopeKind.CLASS: MEMBER,
            ScopeKind.INTERFACE: MEMBER,
        }.get(current.kind, LOCAL)
        found += [
            (location, s.name, s) for s in _scope_symbols(current) if s.name.startswith(wanted)
        ]
    return found


def _scope_symbols(scope: Scope) -> list[Symbol]:
    symbols = list(scope.symbols.values())
    owner = scope.owner
    if owner is not None and owner.members is not None and owner.members is not scope:
        symbols += list(owner.members.symbols.values())  # a routine's parameters
    if scope.kind is ScopeKind.CLASS and owner is not None:
        symbols += _inherited(owner)
    return [s for s in symbols if s.kind is not SymbolKind.PROGRAM]


def _inherited(cls: Symbol) -> list[Symbol]:
    found: list[Symbol] = []
    parent = superclass(cls)
    depth = 0
    while parent is not None and parent.members is not None and depth < 12:
        found += [s for s in parent.members.symbols.values() if s.visibility != "private"]
        parent, depth = superclass(parent), depth + 1
    return found


def _members(owner: Symbol, selector: str, scope: Scope, wanted: str) -> list[_Candidate]:
    """Components of ``owner`` starting with ``wanted`` that code at ``scope`` may name
    after ``selector``."""
    if owner.members is None:
        return []
    symbols = list(owner.members.symbols.values())
    if owner.kind is SymbolKind.CLASS:
        symbols += _inherited(owner)
    inside = enclosing_class(scope)
    own = inside is not None and inside.key == owner.key
    found: list[_Candidate] = [
        (MEMBER, s.name, s)
        for s in symbols
        if s.name.startswith(wanted)
        and s.kind is not SymbolKind.PARAMETER
        and (own or s.visibility in ("public", ""))
        and (selector != "=>" or s.static or s.kind in _STATIC_KINDS)
    ]
    return found + [(MEMBER, f"{i.name}~", i) for i in _interfaces(owner)]


def _interfaces(owner: Symbol) -> list[Symbol]:
    """The interfaces a class implements (its own and inherited ones) or an interface
    includes: their components are reached with ``zif_x~`` after the selector."""
    found: dict[str, Symbol] = {}
    current: Symbol | None = owner
    depth = 0
    while current is not None and depth < 12:
        for name in current.interfaces:
            interface = lookup(name, current.scope, types=True)
            if interface is not None and interface.kind is SymbolKind.INTERFACE:
                found.setdefault(interface.name, interface)
        current, depth = superclass(current), depth + 1
    return list(found.values())
