"""What the symbol index knows: declarations (symbols) in nested scopes, and occurrences.

A :class:`Symbol` is one declared name: its kind, where its name is written (a
:class:`Location`: unit id, 1-based line, 0-based column), the scope that declares it,
and what the declaration says (typing, visibility, parameters, ABAP Doc). Symbols that
open a scope (classes, interfaces, methods, forms, function modules, structured types)
carry it as ``members``. An :class:`Occurrence` is one identifier in the text and the
symbol it resolves to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum


class SymbolKind(StrEnum):
    """What a name declares."""

    PROGRAM = "program"
    INCLUDE = "include"
    CLASS = "class"
    INTERFACE = "interface"
    METHOD = "method"
    EVENT = "event"
    ALIAS = "alias"
    ATTRIBUTE = "attribute"
    CONSTANT = "constant"
    TYPE = "type"
    COMPONENT = "component"
    PARAMETER = "parameter"
    VARIABLE = "variable"
    FIELD_SYMBOL = "field-symbol"
    FORM = "form"
    FUNCTION = "function"
    MACRO = "macro"


#: Kinds whose symbols hold a value (they can be typed ``TYPE REF TO``).
DATA_KINDS = frozenset(
    {
        SymbolKind.ATTRIBUTE,
        SymbolKind.CONSTANT,
        SymbolKind.PARAMETER,
        SymbolKind.VARIABLE,
        SymbolKind.FIELD_SYMBOL,
        SymbolKind.COMPONENT,
    }
)
#: Kinds that name a type (a class, an interface or a ``TYPES`` declaration).
TYPE_KINDS = frozenset({SymbolKind.CLASS, SymbolKind.INTERFACE, SymbolKind.TYPE})


class ScopeKind(StrEnum):
    PROGRAM = "program"
    CLASS = "class"
    INTERFACE = "interface"
    METHOD = "method"
    FORM = "form"
    FUNCTION = "function"
    STRUCTURE = "structure"


@dataclass(frozen=True, order=True)
class Location:
    """Where a name is written: the unit (a source id), line (1-based), column (0-based)."""

    unit: str
    line: int
    column: int


@dataclass(eq=False)
class Scope:
    """Names declared in one block; ``parent`` is where lookups continue."""

    kind: ScopeKind
    name: str
    parent: Scope | None = None
    owner: Symbol | None = None
    symbols: dict[str, Symbol] = field(default_factory=dict)
    globals: Callable[[str], Symbol | None] | None = None

    def declare(self, symbol: Symbol) -> Symbol:
        """Add ``symbol`` unless the name is taken (the first declaration wins)."""
        return self.symbols.setdefault(symbol.name, symbol)

    def local(self, name: str) -> Symbol | None:
        return self.symbols.get(name.upper())

    def chain(self) -> list[Scope]:
        """This scope and its parents, innermost first."""
        scopes: list[Scope] = []
        scope: Scope | None = self
        while scope is not None:
            scopes.append(scope)
            scope = scope.parent
        return scopes


@dataclass(eq=False)
class Symbol:
    """One declared name and what its declaration says."""

    kind: SymbolKind
    name: str
    location: Location | None
    scope: Scope | None
    spelled: str = ""
    visibility: str = ""
    static: bool = False
    typing: str = ""
    type_name: str = ""
    ref_to: bool = False
    description: str = ""
    doc: str = ""
    param_kind: str = ""
    optional: bool = False
    by_value: bool = False
    default: str = ""
    params: list[Symbol] = field(default_factory=list)
    members: Scope | None = None
    implementation: Location | None = None
    super_name: str = ""
    interfaces: list[str] = field(default_factory=list)
    alias_for: str = ""
    type_symbol: Symbol | None = None
    is_global: bool = False
    for_testing: bool = False

    def __post_init__(self) -> None:
        self.name = self.name.upper()
        if not self.spelled:
            self.spelled = self.name.lower()

    @property
    def key(self) -> tuple[str, int, int] | tuple[str, str]:
        """Stable identity across index instances built from the same text."""
        if self.location is None:
            return ("global", f"{self.kind}:{self.name}")
        return (self.location.unit, self.location.line, self.location.column)

    @property
    def owner(self) -> Symbol | None:
        """The class, interface, method, form or function that declares this symbol."""
        return self.scope.owner if self.scope is not None else None

    def same(self, other: Symbol | None) -> bool:
        return other is not None and other.key == self.key


@dataclass(frozen=True)
class Occurrence:
    """One identifier in a unit and what it means.

    ``role`` is ``"declaration"`` (the name being declared), ``"reference"`` (a use),
    ``"implementation"`` (``METHOD m.``, a local class's ``CLASS … IMPLEMENTATION``: a use
    that implements the symbol) or ``"anchor"`` (a generated statement naming the symbol,
    a global class's ``CLASS … IMPLEMENTATION``: navigable, but no usage). ``write`` marks
    assignment targets.
    """

    symbol: Symbol
    unit: str
    line: int
    column: int
    length: int
    role: str = "reference"
    write: bool = False

    @property
    def end(self) -> int:
        return self.column + self.length

    @property
    def is_usage(self) -> bool:
        """Whether a where-used list shows it (references and implementations)."""
        return self.role in ("reference", "implementation")

    def covers(self, unit: str, line: int, column: int) -> bool:
        return self.unit == unit and self.line == line and self.column <= column <= self.end
