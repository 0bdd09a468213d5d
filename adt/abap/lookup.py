"""Scope rules: which declaration a name means, and what a component selector reaches.

A plain name is looked up innermost first: the body's locals, the routine's parameters,
the class's components (its own, then inherited ones), the program's globals, and finally
the repository's global classes, interfaces and function modules (the program scope's
``globals`` callback). ``x->m``, ``x=>m``, ``x~m`` and ``x-c`` look ``m``/``c`` up in
what ``x`` refers to (its type for data, the class or interface itself for types).
"""

from __future__ import annotations

from adt.abap.symbols import DATA_KINDS, TYPE_KINDS, Scope, ScopeKind, Symbol, SymbolKind

_DEPTH = 12  # inheritance and alias chains are short; this only stops cycles


def lookup(name: str, scope: Scope | None, *, types: bool = False) -> Symbol | None:
    """The declaration ``name`` means in ``scope``; ``types`` prefers classes, interfaces
    and ``TYPES`` (for ``TYPE x``, ``NEW x( )``) over data of the same name."""
    upper = name.upper()
    fallback: Symbol | None = None
    for current in scope.chain() if scope is not None else []:
        for found in _candidates(upper, current):
            if not types or found.kind in TYPE_KINDS:
                return found
            fallback = fallback or found
        if current.globals is not None:
            known = current.globals(upper)
            if known is not None:
                return known
    return fallback


def _candidates(name: str, scope: Scope) -> list[Symbol]:
    found = [s for s in (scope.local(name), _parameter(name, scope)) if s is not None]
    if scope.kind is ScopeKind.CLASS and scope.owner is not None:
        inherited = _inherited(scope.owner, name)
        if inherited is not None:
            found.append(inherited)
    return found


def _parameter(name: str, scope: Scope) -> Symbol | None:
    """A routine body sees its routine's parameters (kept on the routine's own scope)."""
    owner = scope.owner
    if scope.kind in (ScopeKind.METHOD, ScopeKind.FORM, ScopeKind.FUNCTION) and owner is not None:
        members = owner.members
        if members is not None and members is not scope:
            return members.local(name)
    return None


def _inherited(cls: Symbol, name: str) -> Symbol | None:
    parent = superclass(cls)
    depth = 0
    while parent is not None and depth < _DEPTH:
        found = parent.members.local(name) if parent.members is not None else None
        if found is not None and found.visibility != "private":
            return found
        parent, depth = superclass(parent), depth + 1
    return None


def superclass(cls: Symbol) -> Symbol | None:
    if cls.kind is not SymbolKind.CLASS or not cls.super_name:
        return None
    found = lookup(cls.super_name, cls.scope, types=True)
    return found if found is not None and found.kind is SymbolKind.CLASS else None


def member(owner: Symbol | None, name: str) -> Symbol | None:
    """Component ``name`` of a class (own or inherited), interface (own or of component
    interfaces), structured type or structure."""
    target = owner
    if owner is not None and owner.kind in DATA_KINDS and owner.members is None:
        target = type_of(owner)
    if target is None:
        return None
    upper = name.upper()
    found = target.members.local(upper) if target.members is not None else None
    if found is not None:
        return found
    if target.kind is SymbolKind.CLASS:
        return _inherited(target, upper)
    if target.kind is SymbolKind.INTERFACE:
        return _interface_component(target, upper, 0)
    return None


def _interface_component(interface: Symbol, name: str, depth: int) -> Symbol | None:
    for inner_name in interface.interfaces:
        inner = lookup(inner_name, interface.members, types=True)
        if inner is None or inner.members is None or depth > _DEPTH:
            continue
        found = inner.members.local(name) or _interface_component(inner, name, depth + 1)
        if found is not None:
            return found
    return None


def type_of(symbol: Symbol | None) -> Symbol | None:
    """The class, interface or type a data symbol is typed with (cached on the symbol)."""
    if symbol is None:
        return None
    if symbol.kind in TYPE_KINDS:
        if symbol.kind is SymbolKind.TYPE and symbol.members is None and symbol.type_name:
            return _typed(symbol) or symbol
        return symbol
    if symbol.kind is SymbolKind.METHOD or symbol.kind is SymbolKind.ALIAS:
        return type_of(returning(symbol))
    return _typed(symbol)


def _typed(symbol: Symbol) -> Symbol | None:
    if symbol.type_symbol is None and symbol.type_name:
        head = symbol.type_name.split("=>")[0].split("-")[0].split("~")[0]
        found = lookup(head, symbol.scope, types=True)
        if found is not None and head != symbol.type_name:
            rest = symbol.type_name[len(head) :].lstrip("=>~-")
            found = member(found, rest) if rest else found
        if found is not symbol:
            symbol.type_symbol = found
    return symbol.type_symbol


def alias_target(symbol: Symbol) -> Symbol | None:
    """What ``ALIASES a FOR zif~m`` stands for (``ZIF~M``)."""
    if symbol.kind is not SymbolKind.ALIAS or "~" not in symbol.alias_for:
        return None
    interface_name, _, component = symbol.alias_for.partition("~")
    return member(lookup(interface_name, symbol.scope, types=True), component)


def callable_of(symbol: Symbol | None) -> Symbol | None:
    """The method, event, form or function module a name calls (aliases followed)."""
    depth = 0
    while symbol is not None and symbol.kind is SymbolKind.ALIAS and depth < _DEPTH:
        symbol, depth = alias_target(symbol), depth + 1
    if symbol is not None and symbol.kind in (
        SymbolKind.METHOD,
        SymbolKind.EVENT,
        SymbolKind.FORM,
        SymbolKind.FUNCTION,
    ):
        return symbol
    return None


def returning(symbol: Symbol | None) -> Symbol | None:
    """The ``RETURNING`` parameter of a method (through aliases)."""
    method = callable_of(symbol)
    if method is None:
        return None
    return next((p for p in method.params if p.param_kind == "returning"), None)


def enclosing_class(scope: Scope | None) -> Symbol | None:
    for current in scope.chain() if scope is not None else []:
        if current.kind is ScopeKind.CLASS and current.owner is not None:
            return current.owner
    return None


def selector_target(symbol: Symbol | None, selector: str) -> Symbol | None:
    """What the components after ``symbol`` + ``selector`` are looked up in."""
    if symbol is None:
        return None
    if selector == "=>":
        return symbol if symbol.kind in (SymbolKind.CLASS, SymbolKind.INTERFACE) else None
    if selector == "~":
        return symbol if symbol.kind is SymbolKind.INTERFACE else None
    if selector == "-":
        if symbol.members is not None and symbol.members.kind is ScopeKind.STRUCTURE:
            return symbol
        typed = type_of(symbol)
        return typed if typed is not None and typed.members is not None else None
    if symbol.kind in (SymbolKind.CLASS, SymbolKind.INTERFACE):
        return None  # zcl_x->m is no valid access
    return type_of(symbol)
