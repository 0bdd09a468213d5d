"""Classes and interfaces as one program sees them: its own (local and global) first, then
the repository's global ones, with their super classes and interfaces followed.

A check may only say "unknown" about a type it knows completely: every super class and
every interface along the way must be known, otherwise the answer is "cannot tell".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from adt.abap.lexer import lex

from .model import MethodDef, TypeDef, read_types

#: Global definitions read from the repository, by source text (texts are immutable).
_CACHE: dict[str, dict[str, TypeDef]] = {}
_CACHE_LIMIT: Final = 4096

#: Returns the main source of a global class or interface, or ``None`` when it is unknown.
SourceOf = Callable[[str], str | None]


def definitions_of(text: str) -> dict[str, TypeDef]:
    """The types a source defines (cached by text)."""
    found = _CACHE.get(text)
    if found is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        found = read_types(lex(text).statements)
        _CACHE[text] = found
    return found


def pools_of(text: str) -> set[str]:
    """The type pools a source names in ``TYPE-POOLS`` (cached by text)."""
    found = _POOLS.get(text)
    if found is None:
        if len(_POOLS) >= _CACHE_LIMIT:
            _POOLS.clear()
        found = set()
        for stmt in lex(text).statements:
            if stmt.first in ("TYPE-POOLS", "TYPE-POOL"):
                _, index = stmt.word(0)
                found |= {t.upper for t in stmt.tokens[index:]}
        _POOLS[text] = found
    return found


_POOLS: dict[str, set[str]] = {}


class Universe:
    """Type lookup for one program."""

    def __init__(self, own: dict[str, TypeDef], source_of: SourceOf | None) -> None:
        self.own = own
        self.source_of = source_of
        self._types: dict[str, TypeDef | None] = {}

    def type(self, name: str) -> TypeDef | None:
        name = name.upper()
        if name in self._types:
            return self._types[name]
        found = self.own.get(name)
        if found is None and self.source_of is not None:
            text = self.source_of(name)
            found = definitions_of(text).get(name) if text is not None else None
        self._types[name] = found
        return found

    def pools(self, name: str) -> set[str]:
        """The type pools the sources of a class and its super classes name."""
        found: set[str] = set()
        current: str | None = name
        for _ in range(30):
            if current is None:
                break
            text = self.source_of(current) if self.source_of is not None else None
            if text is not None:
                found |= pools_of(text)
            typedef = self.type(current)
            current = typedef.super_name if typedef is not None else None
        return found

    def chain(self, name: str) -> list[TypeDef] | None:
        """The class and its super classes, or ``None`` when one of them is unknown."""
        found: list[TypeDef] = []
        current: str | None = name
        while current is not None:
            typedef = self.type(current)
            if typedef is None or len(found) > 30:
                return None
            found.append(typedef)
            current = typedef.super_name
        return found

    def interfaces(self, typedef: TypeDef) -> list[TypeDef] | None:
        """The interfaces a type implements or includes, recursively (``None``: one unknown)."""
        seen: dict[str, TypeDef] = {}
        pending = list(typedef.interfaces)
        while pending:
            name = pending.pop()
            if name in seen:
                continue
            found = self.type(name)
            if found is None:
                return None
            seen[name] = found
            pending.extend(found.interfaces)
        return list(seen.values())

    def method(self, type_name: str, name: str) -> MethodDef | bool | None:
        """The method ``name`` of a type (inherited, through aliases, or of an included
        interface); ``False`` when the type is completely known and has no such method;
        ``None`` when it cannot tell."""
        chain = self.chain(type_name)
        if chain is None:
            return None
        name = name.upper()
        for typedef in chain:
            if name in typedef.methods:
                return self._declared(chain, typedef.methods[name])
            if name in typedef.aliases:
                intf, component = typedef.aliases[name]
                return self.interface_method(intf, component)
        if chain[0].is_interface:
            nested = self.interfaces(chain[0])
            if nested is None:
                return None
            for typedef in nested:
                if name in typedef.methods:
                    return typedef.methods[name]
        return False

    def _declared(self, chain: list[TypeDef], method: MethodDef) -> MethodDef | None:
        """A redefinition has the parameters of the first declaration up the chain."""
        if not method.redefinition:
            return method
        for typedef in chain[1:]:
            if method.name in typedef.methods and not typedef.methods[method.name].redefinition:
                return typedef.methods[method.name]
        return None

    def interface_method(self, intf: str, name: str) -> MethodDef | bool | None:
        typedef = self.type(intf)
        if typedef is None or not typedef.is_interface:
            return None
        return self.method(intf, name)

    def data(self, type_name: str) -> dict[str, str] | None:
        """Every attribute, constant and type of a class and its super classes (and alias
        names), or ``None`` when the chain is not completely known."""
        chain = self.chain(type_name)
        if chain is None:
            return None
        names: dict[str, str] = {}
        for typedef in reversed(chain):
            names.update(typedef.data)
            for alias, (intf, component) in typedef.aliases.items():
                intf_type = self.type(intf)
                names[alias] = intf_type.data.get(component, "") if intf_type else ""
        return names


__all__ = ["SourceOf", "Universe", "definitions_of", "pools_of"]
