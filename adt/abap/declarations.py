"""Pass one of the index: every declaration outside method bodies.

Classes and interfaces with their components (methods with parameters, events, aliases,
attributes, constants, types and structure components), forms and function modules with
their parameters, macros, and the program's global data. Type names written in
declarations are queued as :class:`PendingPath` for pass two, which resolves them once
every unit has declared its names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from adt.abap.lexer import NAME, Statement, Token, adjacent
from adt.abap.signatures import (
    Parameter,
    comment_parameters,
    parse_parameters,
    parse_typing,
    type_path,
)
from adt.abap.structure import Block, BlockKind, UnitStructure
from adt.abap.symbols import Location, Occurrence, Scope, ScopeKind, Symbol, SymbolKind

#: Data-declaring keywords → (kind at program or method level, static).
DATA_KEYWORDS: dict[str, tuple[SymbolKind, bool]] = {
    "DATA": (SymbolKind.VARIABLE, False),
    "CLASS-DATA": (SymbolKind.ATTRIBUTE, True),
    "STATICS": (SymbolKind.VARIABLE, True),
    "CONSTANTS": (SymbolKind.CONSTANT, True),
    "TYPES": (SymbolKind.TYPE, False),
    "PARAMETERS": (SymbolKind.VARIABLE, False),
    "PARAMETER": (SymbolKind.VARIABLE, False),
    "SELECT-OPTIONS": (SymbolKind.VARIABLE, False),
    "FIELD-SYMBOLS": (SymbolKind.FIELD_SYMBOL, False),
}
_SECTIONS = {"PUBLIC": "public", "PROTECTED": "protected", "PRIVATE": "private"}
_PARAM_DOC = re.compile(r"@parameter\s+(\S+)\s*\|\s*(.*)", re.I)
_TAGS = re.compile(r"<[^>]+>")


@dataclass
class PendingPath:
    """Type names in a declaration (``TYPE REF TO zcl_x``, ``zif_x~m``), resolved in pass two."""

    tokens: list[Token]
    scope: Scope
    unit: str


@dataclass
class Sink:
    """What the passes produce: occurrences and pending paths."""

    occurrences: list[Occurrence] = field(default_factory=list)
    pending: list[PendingPath] = field(default_factory=list)

    def declared(self, symbol: Symbol, token: Token, unit: str) -> None:
        self.occurrences.append(
            Occurrence(symbol, unit, token.line, token.column, len(token.text), "declaration")
        )


@dataclass
class Context:
    """Where a declaration statement stands: unit, visibility, open structures."""

    unit: str
    docs: dict[int, str]
    visibility: str = ""
    member: bool = False
    structures: list[Symbol] = field(default_factory=list)


def doc_lines(docs: dict[int, str], line: int) -> list[str]:
    """The ABAP Doc lines (``"!``) right above ``line``."""
    found: list[str] = []
    number = line - 1
    while number in docs:
        found.append(docs[number])
        number -= 1
    return list(reversed(found))


def describe(lines: Sequence[str]) -> tuple[str, dict[str, str]]:
    """Short text and parameter texts of an ABAP Doc comment."""
    text: list[str] = []
    params: dict[str, str] = {}
    for line in lines:
        match = _PARAM_DOC.match(line)
        if match:
            params[match.group(1).upper()] = _TAGS.sub("", match.group(2)).strip()
        elif not line.startswith("@"):
            text.append(_TAGS.sub("", line).strip())
    return " ".join(t for t in text if t), params


class Declarer:
    """Declares the names of every unit of one program into its scopes."""

    def __init__(self, program: Scope, sink: Sink) -> None:
        self.program = program
        self.sink = sink

    def run(self, units: Sequence[UnitStructure]) -> None:
        for unit in units:
            context = Context(unit.unit, unit.lexed.docs)
            for block in unit.blocks:
                self.block(block, context, unit.lexed.lines)
            for statement in unit.loose:
                self.loose(statement, context)

    # blocks ----------------------------------------------------------------------------
    def block(self, block: Block, context: Context, lines: list[str]) -> None:
        if block.kind in (BlockKind.CLASS_DEFINITION, BlockKind.INTERFACE):
            self.container(block, context)
        elif block.kind in (BlockKind.FORM, BlockKind.FUNCTION):
            self.routine(block, context, lines)
        elif block.kind is BlockKind.MACRO and block.name_token is not None:
            macro = self.new(SymbolKind.MACRO, block.name_token, self.program, context)
            self.program.declare(macro)

    def container(self, block: Block, context: Context) -> None:
        token = block.name_token
        if token is None:
            return
        is_class = block.kind is BlockKind.CLASS_DEFINITION
        kind = SymbolKind.CLASS if is_class else SymbolKind.INTERFACE
        symbol = self.new(kind, token, self.program, context)
        words = block.header.words(30)
        symbol.is_global = "PUBLIC" in words
        symbol.for_testing = "TESTING" in words
        symbol.members = Scope(
            ScopeKind.CLASS if is_class else ScopeKind.INTERFACE, symbol.name, self.program, symbol
        )
        self.program.declare(symbol)
        self._header_paths(block.header, symbol, context)
        inner = Context(context.unit, context.docs, "public", member=True)
        for statement in block.body:
            section = _SECTIONS.get(statement.first)
            if section is not None and statement.words(2)[-1] == "SECTION":
                inner.visibility = section
            else:
                self.member(statement, symbol, inner)

    def _header_paths(self, header: Statement, symbol: Symbol, context: Context) -> None:
        tokens = header.tokens
        for i, token in enumerate(tokens):
            if token.upper == "FROM" and i > 0 and tokens[i - 1].upper == "INHERITING":
                path = type_path(tokens, i + 1)
                symbol.super_name = "".join(t.upper for t in path)
                self.pending(path, self.program, context)
            elif token.upper == "FRIENDS":
                for friend in tokens[i + 1 :]:
                    self.pending([friend], self.program, context)

    def routine(self, block: Block, context: Context, lines: list[str]) -> None:
        token = block.name_token
        if token is None:
            return
        is_form = block.kind is BlockKind.FORM
        kind = SymbolKind.FORM if is_form else SymbolKind.FUNCTION
        symbol = self.new(kind, token, self.program, context)
        symbol.is_global = not is_form
        scope_kind = ScopeKind.FORM if is_form else ScopeKind.FUNCTION
        symbol.members = Scope(scope_kind, symbol.name, self.program, symbol)
        self.program.declare(symbol)
        params = parse_parameters(block.header.tokens, 2)
        if not is_form:
            params += comment_parameters(lines, block.header.last_line)
        self.parameters(symbol, params, context, {})

    # members ---------------------------------------------------------------------------
    def member(self, statement: Statement, owner: Symbol, context: Context) -> None:
        first, index = statement.word(0)
        assert owner.members is not None
        if first in ("METHODS", "CLASS-METHODS", "EVENTS", "CLASS-EVENTS"):
            self.method(statement, index, owner, context, static=first.startswith("CLASS-"))
        elif first == "INTERFACES":
            path = type_path(statement.tokens, index)
            owner.interfaces.append("".join(t.upper for t in path))
            self.pending(path, owner.members, context)
        elif first == "ALIASES":
            self.alias(statement, index, owner, context)
        else:
            self.data(statement, owner.members, context)

    def method(
        self, statement: Statement, index: int, owner: Symbol, context: Context, *, static: bool
    ) -> None:
        tokens = statement.tokens
        scope = owner.members
        if index >= len(tokens) or scope is None:
            return
        if "REDEFINITION" in statement.words(6) or (
            index + 1 < len(tokens) and tokens[index + 1].text == "~"
        ):
            self.pending(type_path(tokens, index), scope, context)  # the inherited method
            return
        kind = SymbolKind.EVENT if "EVENTS" in statement.first else SymbolKind.METHOD
        symbol = self.new(kind, tokens[index], scope, context, statement)
        symbol.static = static
        symbol.for_testing = "TESTING" in statement.words(20)
        symbol.members = Scope(ScopeKind.METHOD, symbol.name, scope, symbol)
        scope.declare(symbol)
        _, param_docs = describe(doc_lines(context.docs, statement.line))
        self.parameters(symbol, parse_parameters(tokens, index + 1), context, param_docs)
        self._raising(statement, index, symbol.members, context)

    def _raising(self, statement: Statement, index: int, scope: Scope, context: Context) -> None:
        tokens = statement.tokens
        raising = False
        for i in range(index + 1, len(tokens)):
            word = tokens[i].upper
            if word == "OF" and tokens[i - 2].upper == "EVENT":  # FOR EVENT e OF c
                self.pending(type_path(tokens, i + 1), scope, context)
            elif word == "RAISING":
                raising = True
            elif word in ("EXCEPTIONS", "IMPORTING", "EXPORTING", "CHANGING", "RETURNING"):
                raising = False
            elif raising and self._exception_name(tokens, i):
                self.pending(type_path(tokens, i), scope, context)

    @staticmethod
    def _exception_name(tokens: Sequence[Token], i: int) -> bool:
        """A class name after ``RAISING`` (not ``RESUMABLE``, not a component part)."""
        token = tokens[i]
        return (
            token.kind == NAME and token.upper != "RESUMABLE" and not adjacent(tokens[i - 1], token)
        )

    def parameters(
        self, owner: Symbol, params: list[Parameter], context: Context, docs: dict[str, str]
    ) -> None:
        assert owner.members is not None
        for param in params:
            symbol = self.new(SymbolKind.PARAMETER, param.token, owner.members, context)
            symbol.param_kind = param.kind
            symbol.typing = param.typing.text
            symbol.type_name = param.typing.type_name
            symbol.ref_to = param.typing.ref_to
            symbol.by_value = param.by_value
            symbol.optional = param.optional
            symbol.default = param.default
            symbol.description = symbol.doc = docs.get(symbol.name, "")
            owner.params.append(owner.members.declare(symbol))
            self.pending(param.typing.path, owner.members, context)

    def alias(self, statement: Statement, index: int, owner: Symbol, context: Context) -> None:
        tokens = statement.tokens
        if index >= len(tokens) or owner.members is None:
            return
        symbol = self.new(SymbolKind.ALIAS, tokens[index], owner.members, context, statement)
        if index + 2 < len(tokens) and tokens[index + 1].upper == "FOR":
            path = type_path(tokens, index + 2)
            symbol.alias_for = "".join(t.upper for t in path)
            self.pending(path, owner.members, context)
        owner.members.declare(symbol)

    # data ------------------------------------------------------------------------------
    def loose(self, statement: Statement, context: Context) -> None:
        first = statement.first
        if first in ("REPORT", "PROGRAM") and len(statement.tokens) > 1:
            program = self.new(SymbolKind.PROGRAM, statement.tokens[1], self.program, context)
            program.is_global = True
            self.program.declare(program)
        elif first in DATA_KEYWORDS:
            self.data(statement, self.program, context)

    def data(self, statement: Statement, scope: Scope, context: Context) -> Symbol | None:
        """Declare what a ``DATA``/``TYPES``/``CONSTANTS``/… statement declares."""
        first, index = statement.word(0)
        if first not in DATA_KEYWORDS or index >= len(statement.tokens):
            return None
        kind, static = DATA_KEYWORDS[first]
        if context.member and kind is SymbolKind.VARIABLE:
            kind = SymbolKind.ATTRIBUTE
        words = statement.words(3)
        if words[1:3] == ["BEGIN", "OF"] or words[1:3] == ["END", "OF"]:
            return self._structure(statement, scope, context, kind)
        target = context.structures[-1].members if context.structures else scope
        if context.structures:
            kind = SymbolKind.COMPONENT
        assert target is not None
        return self._declare_data(statement, index, target, context, kind, static)

    def _declare_data(
        self,
        statement: Statement,
        index: int,
        scope: Scope,
        context: Context,
        kind: SymbolKind,
        static: bool,
    ) -> Symbol | None:
        tokens = statement.tokens
        if tokens[index].kind != NAME or tokens[index].upper == "INCLUDE":
            return None
        symbol = self.new(kind, tokens[index], scope, context, statement)
        symbol.static = static
        for i in range(index + 1, len(tokens)):
            if tokens[i].upper in ("TYPE", "LIKE") and tokens[i].kind == NAME:
                typing = parse_typing(tokens, i)
                symbol.typing, symbol.type_name = typing.text, typing.type_name
                symbol.ref_to = typing.ref_to
                self.pending(typing.path, scope, context)
                break
            if tokens[i].upper == "FOR" and kind is SymbolKind.VARIABLE:  # SELECT-OPTIONS
                self.pending(type_path(tokens, i + 1), scope, context)
                break
        return scope.declare(symbol)

    def _structure(
        self, statement: Statement, scope: Scope, context: Context, kind: SymbolKind
    ) -> Symbol | None:
        words = statement.words(3)
        name = statement.tokens[len(statement.tokens) - 1]
        position = statement.word(0)[1] + 2
        if position < len(statement.tokens):
            name = statement.tokens[position]
        if words[1] == "END":
            if context.structures:
                context.structures.pop()
            return None
        target = context.structures[-1].members if context.structures else scope
        assert target is not None
        symbol = self.new(
            SymbolKind.COMPONENT if context.structures else kind, name, target, context, statement
        )
        symbol.members = Scope(ScopeKind.STRUCTURE, symbol.name, target, symbol)
        target.declare(symbol)
        context.structures.append(symbol)
        return symbol

    # helpers ---------------------------------------------------------------------------
    def new(
        self,
        kind: SymbolKind,
        token: Token,
        scope: Scope | None,
        context: Context,
        statement: Statement | None = None,
    ) -> Symbol:
        line = statement.line if statement is not None else token.line
        lines = doc_lines(context.docs, line)
        description, _ = describe(lines)
        symbol = Symbol(
            kind,
            token.text,
            Location(context.unit, token.line, token.column),
            scope,
            spelled=token.text,
            visibility=context.visibility,
            description=description,
            doc=" ".join(line for line in lines if not line.startswith("@")),
        )
        self.sink.declared(symbol, token, context.unit)
        return symbol

    def pending(self, path: list[Token], scope: Scope, context: Context) -> None:
        if path and path[0].kind == NAME:
            self.sink.pending.append(PendingPath(path, scope, context.unit))
