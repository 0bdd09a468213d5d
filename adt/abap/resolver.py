"""Pass two of the index: the names declared in declarations' types, the bodies' locals
(explicit and inline), and every identifier of every executable statement.

Method bodies get a scope of their own below their class's scope; forms and function
modules below the program's. Statements outside every block (report events) run in the
program scope, where their inline declarations land too, as in ABAP.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from adt.abap.declarations import DATA_KEYWORDS, Context, Declarer, PendingPath, Sink
from adt.abap.keywords import KEYWORDS
from adt.abap.lexer import NAME, Statement, Token, adjacent
from adt.abap.lookup import lookup, member, returning, selector_target, type_of
from adt.abap.signatures import type_path
from adt.abap.structure import Block, BlockKind, UnitStructure
from adt.abap.symbols import Location, Scope, ScopeKind, Symbol, SymbolKind
from adt.abap.walk import ASSIGNMENTS, OPERAND_FOLLOWERS, Walk, inline_declaration, literal_name
from adt.abap.walk import occurrence as make_occurrence

#: Statements without identifiers worth resolving (or handled in pass one).
_SKIP = frozenset(
    {
        "REPORT",
        "PROGRAM",
        "FUNCTION-POOL",
        "CLASS-POOL",
        "INTERFACE-POOL",
        "TYPE-POOLS",
        "METHODS",
        "CLASS-METHODS",
        "INTERFACES",
        "ALIASES",
        "EVENTS",
        "CLASS-EVENTS",
    }
)
_CHAIN = frozenset({"->", "=>", "~", "(", ")"})
_SCOPE_KINDS = {BlockKind.FORM: ScopeKind.FORM, BlockKind.FUNCTION: ScopeKind.FUNCTION}


@dataclass(frozen=True)
class Region:
    """Lines of a unit that belong to one scope (for completion: which names are visible)."""

    unit: str
    first: int
    last: int
    scope: Scope


class Resolver:
    """Resolves every unit of one program after :class:`Declarer` has run."""

    def __init__(self, program: Scope, sink: Sink, own_units: set[str]) -> None:
        self.program = program
        self.sink = sink
        self.own = own_units
        self.declarer = Declarer(program, sink)
        self.regions: list[Region] = []
        self.contexts: dict[tuple[str, int, int], Symbol] = {}
        self.unit = ""
        self.docs: dict[int, str] = {}
        #: Which executable statements of a body to resolve (declarations always are):
        #: where-used asks for the statements that mention one name only.
        self.wanted: Callable[[Statement], bool] | None = None

    def run(self, units: Sequence[UnitStructure]) -> None:
        self.resolve_pending(0)
        for unit in units:
            self._enter(unit)
            self.body(unit.loose, self.program, explicit=False)
        for unit in units:
            self._enter(unit)
            for block in unit.blocks:
                self.block(block)

    def _enter(self, unit: UnitStructure) -> None:
        self.unit, self.docs = unit.unit, unit.lexed.docs

    # recording -------------------------------------------------------------------------
    def record(self, symbol: Symbol, token: Token, role: str, write: bool) -> None:
        self.sink.occurrences.append(make_occurrence(symbol, self.unit, token, role, write))

    def resolve_pending(self, start: int) -> None:
        pending = self.sink.pending[start:]
        del self.sink.pending[start:]
        for path in pending:
            self._path(path)

    def _path(self, path: PendingPath) -> None:
        saved, self.unit = self.unit, path.unit
        tokens = path.tokens
        found = lookup(tokens[0].text, path.scope, types=True)
        if found is not None:
            self.record(found, tokens[0], "reference", False)
        for j in range(1, len(tokens) - 1, 2):
            owner = selector_target(found, tokens[j].text)
            found = member(owner, tokens[j + 1].text)
            if found is None:
                break
            self.record(found, tokens[j + 1], "reference", False)
        self.unit = saved

    # blocks ----------------------------------------------------------------------------
    def block(self, block: Block) -> None:
        if block.kind is BlockKind.CLASS_IMPLEMENTATION:
            self.class_implementation(block)
        elif block.kind in (BlockKind.CLASS_DEFINITION, BlockKind.INTERFACE):
            token = block.name_token
            found = self.program.local(token.text) if token is not None else None
            if found is not None and found.members is not None:
                self._region(block, found.members)
        elif block.kind in _SCOPE_KINDS:
            token = block.name_token
            owner = self.program.local(token.text) if token is not None else None
            scope = Scope(
                _SCOPE_KINDS[block.kind], owner.name if owner else "", self.program, owner
            )
            self._region(block, scope)
            self.body(block.body, scope, explicit=True)
        elif block.kind is BlockKind.MODULE:
            self.body(block.body, self.program, explicit=True)

    def _region(self, block: Block, scope: Scope) -> None:
        self.regions.append(Region(self.unit, block.first_line, block.last_line, scope))

    def class_implementation(self, block: Block) -> None:
        token = block.name_token
        if token is None:
            return
        cls = lookup(token.text, self.program, types=True)
        if cls is not None and cls.kind is SymbolKind.CLASS:
            role = "anchor" if cls.is_global else "implementation"
            self.record(cls, token, role, False)
            if self._own(cls):
                cls.implementation = Location(self.unit, token.line, token.column)
        else:
            cls = None
        scope = cls.members if cls is not None and cls.members is not None else None
        scope = scope or Scope(ScopeKind.CLASS, token.upper, self.program)
        for child in block.children:
            self.method_body(child, cls, scope)

    def method_body(self, block: Block, cls: Symbol | None, class_scope: Scope) -> None:
        path = type_path(block.header.tokens, 1)
        method: Symbol | None = None
        if len(path) == 1:
            method = member(cls, path[0].text)
        elif len(path) >= 3 and path[1].text == "~":
            interface = lookup(path[0].text, class_scope, types=True)
            if interface is not None:
                self.record(interface, path[0], "reference", False)
            method = member(selector_target(interface, "~"), path[2].text)
        if method is not None:
            self.record(method, path[-1], "implementation", False)
            if self._own(method) and method.scope is class_scope:
                method.implementation = Location(self.unit, path[-1].line, path[-1].column)
        name = "".join(t.upper for t in path)
        scope = Scope(ScopeKind.METHOD, name, class_scope, method)
        self._region(block, scope)
        self.body(block.body, scope, explicit=True)

    def _own(self, symbol: Symbol) -> bool:
        return symbol.location is not None and symbol.location.unit in self.own

    # bodies ----------------------------------------------------------------------------
    def body(self, statements: Sequence[Statement], scope: Scope, *, explicit: bool) -> None:
        mark = len(self.sink.pending)
        context = Context(self.unit, self.docs, "local" if scope is not self.program else "")
        for statement in statements:
            explicit_data = explicit and statement.first in DATA_KEYWORDS
            if explicit_data and inline_declaration(statement.tokens, 0) is None:
                self.declarer.data(statement, scope, context)
            self.inline(statement, scope, context)
        self.resolve_pending(mark)
        wanted = self.wanted
        for statement in statements:
            if wanted is None or wanted(statement):
                self.statement(statement, scope)

    def inline(self, statement: Statement, scope: Scope, context: Context) -> None:
        tokens = statement.tokens
        for i, token in enumerate(tokens):
            if token.kind != NAME:
                continue
            found = inline_declaration(tokens, i)
            if found is None:
                continue
            name, end = found
            kind = SymbolKind.FIELD_SYMBOL if name.text.startswith("<") else SymbolKind.VARIABLE
            symbol = self.declarer.new(kind, name, scope, context, statement)
            if i == 0 and end < len(tokens) and tokens[end].text == "=":
                self._infer(symbol, tokens, end + 1, scope)
            scope.declare(symbol)

    def _infer(self, symbol: Symbol, tokens: Sequence[Token], start: int, scope: Scope) -> None:
        """The type of ``DATA(x) = <expression>`` for the simple expressions ABAP code uses:
        ``NEW``/``CAST``/``CONV``/``VALUE`` with a type, a name, a call chain."""
        if start >= len(tokens):
            return
        head = tokens[start].upper
        if head in ("NEW", "CAST", "CONV", "VALUE", "EXACT") and start + 1 < len(tokens):
            found = lookup(tokens[start + 1].text, scope, types=True)
            ref = head in ("NEW", "CAST")
            symbol.type_symbol, symbol.ref_to = found, ref
            written = tokens[start + 1].upper
            symbol.typing = f"TYPE REF TO {written}" if ref else f"TYPE {written}"
            return
        walk = Walk(tokens, scope, lambda *args: None, {})
        walk.run(start)
        source = self._expression_source(walk, tokens, start)
        if source is not None:
            symbol.typing, symbol.ref_to = source.typing, source.ref_to
            symbol.type_symbol = type_of(source)

    @staticmethod
    def _expression_source(walk: Walk, tokens: Sequence[Token], start: int) -> Symbol | None:
        last = len(tokens) - 1
        depth = 0
        for token in tokens[start:]:
            depth += (token.text == "(") - (token.text == ")")
            if depth == 0 and token.kind != NAME and token.text not in _CHAIN:
                return None  # an arithmetic or string expression: no inference
        if tokens[last].text == ")":
            opening = _matching_open(tokens, last)
            if opening is None or opening == 0:
                return None
            return returning(walk.resolved.get(opening - 1))
        return walk.resolved.get(last)

    # statements ------------------------------------------------------------------------
    def statement(self, statement: Statement, scope: Scope) -> None:
        tokens = statement.tokens
        first, after = statement.word(0)
        if inline_declaration(tokens, 0) is not None:
            self._walk(tokens, scope, 0)
        elif first in DATA_KEYWORDS or first in _SKIP:
            return
        elif first == "CALL" and statement.words(2)[-1] == "FUNCTION":
            self._call_function(tokens, scope)
        elif first in ("PERFORM", "INCLUDE") and len(tokens) > 1:
            self._named(first, tokens, scope)
        else:
            macro = lookup(tokens[0].text, scope)
            if macro is not None and macro.kind is SymbolKind.MACRO:
                self.record(macro, tokens[0], "reference", False)
                self._walk(tokens, scope, 1)
            else:
                self._walk(tokens, scope, 0 if _operand_first(first, tokens) else after)

    def _walk(self, tokens: Sequence[Token], scope: Scope, start: int) -> Walk:
        contexts: dict[tuple[int, int], Symbol] = {}
        walk = Walk(tokens, scope, self.record, contexts)
        walk.run(start)
        self.contexts.update({(self.unit, *key): value for key, value in contexts.items()})
        return walk

    def _call_function(self, tokens: Sequence[Token], scope: Scope) -> None:
        module: Symbol | None = None
        named = literal_name(tokens[2]) if len(tokens) > 2 else None
        if named is not None:
            module = lookup(named[0], scope)
            if module is not None and module.kind is SymbolKind.FUNCTION:
                name_token = Token(named[0], tokens[2].line, named[1], NAME)
                self.record(module, name_token, "reference", False)
            else:
                module = None
        walk = Walk(tokens, scope, self.record, {})
        walk.last_callable = module
        walk.run(3)

    def _named(self, first: str, tokens: Sequence[Token], scope: Scope) -> None:
        token = tokens[1]
        if first == "INCLUDE" and token.upper in ("TYPE", "STRUCTURE"):
            self._walk(tokens, scope, 1)
            return
        found = lookup(token.text, scope)
        wanted = SymbolKind.FORM if first == "PERFORM" else SymbolKind.INCLUDE
        if found is not None and found.kind is wanted:
            self.record(found, token, "reference", False)
        self._walk(tokens, scope, 2)


def _operand_first(first: str, tokens: Sequence[Token]) -> bool:
    """``x = …``, ``lo->m( )``, ``m( )``, ``zcl=>m( )``, ``ls-c = …``: no leading keyword."""
    if len(tokens) < 2 or ("-" in first and first in KEYWORDS):
        return False
    head, following = tokens[0], tokens[1]
    if following.text in ASSIGNMENTS:
        return True
    return adjacent(head, following) and following.text in OPERAND_FOLLOWERS | {"-"}


def _matching_open(tokens: Sequence[Token], close: int) -> int | None:
    depth = 0
    for i in range(close, -1, -1):
        depth += (tokens[i].text == ")") - (tokens[i].text == "(")
        if depth == 0:
            return i
    return None
