"""The checks SAP's syntax check makes beyond block structure, for one program (the
sources of one object): undefined statements, a method implemented twice, unknown fields,
unknown methods of known classes and interfaces, and formal parameters a called method
does not have.

Every check answers only what it can know: a class whose super class or interface is not
in the repository, a method whose parameters cannot be read exactly, a method body that
calls a macro — those are not judged (see ``docs/emulator.md``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from adt.abap.lexer import NAME, Statement, Token, adjacent, lex
from adt.abap.scanner import ScanIssue

from .model import MethodDef, declared_name, read_types, ref_type
from .universe import SourceOf, Universe
from .vocabulary import BUILTIN_DATA, CONSTRUCTORS, STATEMENTS
from .walker import Call, Walker

_DECLARING = frozenset({"DATA", "STATICS", "CONSTANTS", "FIELD-SYMBOLS", "TYPES", "CLASS-DATA"})
_PROGRAM_DECLARING = _DECLARING | {
    "TABLES",
    "PARAMETERS",
    "PARAMETER",
    "SELECT-OPTIONS",
    "RANGES",
    "NODES",
    "FIELD-GROUPS",
    "CONTROLS",
    "INFOTYPES",
}
_EXPRESSION_SELECTORS = frozenset({"(", "-", "->", "=>", "~", "[", "+"})
_ASSIGNMENTS = frozenset({"=", "?=", "+=", "-=", "*=", "/=", "&&"})


@dataclass
class Part:
    """One source of the program: an id for the findings and its text."""

    id: str
    text: str


@dataclass
class _Method:
    class_name: str
    name: str
    start: Token
    body: list[Statement] = field(default_factory=list)
    #: An AMDP method (``BY DATABASE PROCEDURE``): its body is SQLScript, not ABAP.
    foreign: bool = False


def _issue(token: Token, message: str) -> ScanIssue:
    return ScanIssue(token.line, token.column, token.end, message)


def _is_expression(stmt: Statement) -> bool:
    tokens = stmt.tokens
    if len(tokens) < 2:
        return False
    second = tokens[1]
    if second.text in _ASSIGNMENTS or tokens[0].upper in CONSTRUCTORS:
        return True
    return adjacent(tokens[0], second) and second.text in _EXPRESSION_SELECTORS


def _inline_names(stmt: Statement) -> dict[str, str]:
    """Names declared inside a statement: ``DATA(x)``, ``FINAL(x)``, ``FIELD-SYMBOL(<x>)``,
    and the variables of ``FOR``, ``LET``, ``INIT`` in constructor expressions."""
    tokens = stmt.tokens
    found: dict[str, str] = {}
    binds = any(t.upper in ("FOR", "LET", "INIT") for t in tokens)
    for i, token in enumerate(tokens):
        upper = token.upper
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if upper in ("DATA", "FINAL", "SYMBOL") and nxt is not None and nxt.text == "(":
            if adjacent(token, nxt) and i + 2 < len(tokens):
                found[tokens[i + 2].upper] = _new_type(tokens, i + 3)
        elif binds and token.kind == NAME:
            if upper in ("FOR", "GROUPS") and nxt is not None and nxt.kind == NAME:
                found[nxt.upper] = ""
            elif nxt is not None and nxt.text == "=":
                found[upper] = ""
    return found


def _new_type(tokens: list[Token], close: int) -> str:
    """The class of ``DATA(x) = NEW zcl_x( … )``."""
    if (
        close + 3 < len(tokens)
        and tokens[close + 1].text == "="
        and tokens[close + 2].upper == "NEW"
    ):
        name = tokens[close + 3]
        if name.kind == NAME and close + 4 < len(tokens) and tokens[close + 4].text == "(":
            return name.upper
    return ""


def _implemented_class(stmt: Statement) -> str:
    """The class whose ``CLASS … IMPLEMENTATION`` this is, or ``""``."""
    words = stmt.words(3) if stmt.first == "CLASS" else []
    return words[1] if len(words) == 3 and words[2] == "IMPLEMENTATION" else ""


def _method_start(class_name: str, stmt: Statement) -> _Method:
    """``METHOD m.`` or ``METHOD zif_x~m.`` (and whether it is an AMDP method)."""
    tokens = stmt.tokens
    name = tokens[1].upper
    if len(tokens) > 3 and tokens[2].text == "~":
        name = f"{name}~{tokens[3].upper}"
    method = _Method(class_name, name, tokens[1])
    method.foreign = any(t.upper == "DATABASE" for t in tokens)
    return method


def _pool_constant(name: str, prefixes: set[str]) -> bool:
    """Whether an undeclared name may be a type pool's constant (``ICON_OKAY``,
    ``SEOC_VERSION_ACTIVE``): a prefix of at most five characters before ``_`` that no
    declared name in scope shares. Type pools are not in the repository, so such a name
    cannot be judged."""
    prefix, underscore, _ = name.partition("_")
    return bool(underscore) and len(prefix) <= 5 and prefix not in prefixes


def _declares(stmt: Statement, heads: frozenset[str], depth: list[int]) -> tuple[str, str] | None:
    head = stmt.first
    if head not in heads:
        return None
    name = declared_name(stmt, depth)
    if name is None:
        return None
    _, index = stmt.word(0)
    return name, ref_type(stmt.tokens, index + 1)


class SemanticCheck:
    """Runs the checks over the parts of one program."""

    def __init__(
        self,
        parts: Sequence[Part],
        source_of: SourceOf | None,
        *,
        context: Sequence[str] = (),
        macros: Sequence[str] = (),
        check_names: bool = True,
        check_statements: bool = True,
    ) -> None:
        self.check_statements = check_statements
        self.parts = [(part.id, lex(part.text).statements) for part in parts]
        context_statements = [lex(text).statements for text in context]
        everything = [s for _, stmts in self.parts for s in stmts]
        everything += [s for stmts in context_statements for s in stmts]
        self.universe = Universe(read_types(everything), source_of)
        self.macros = {m.upper() for m in macros} | {
            s.tokens[1].upper for s in everything if s.first == "DEFINE" and len(s.tokens) > 1
        }
        self.check_names = check_names
        self.globals = self._program_names(everything)
        self.findings: dict[str, list[ScanIssue]] = {part_id: [] for part_id, _ in self.parts}
        self._pool_names: set[str] | None = None

    @staticmethod
    def _program_names(statements: list[Statement]) -> dict[str, str]:
        """Names declared outside classes and procedures (visible in local classes)."""
        names: dict[str, str] = {}
        depth = [0]
        level = 0
        for stmt in statements:
            head = stmt.first
            if head in ("CLASS", "INTERFACE", "FORM", "FUNCTION", "METHOD", "MODULE"):
                if not {t.upper for t in stmt.tokens} & {"DEFERRED", "LOAD"}:
                    level += 1
                continue
            if head in (
                "ENDCLASS",
                "ENDINTERFACE",
                "ENDFORM",
                "ENDFUNCTION",
                "ENDMETHOD",
                "ENDMODULE",
            ):
                level = max(0, level - 1)
                continue
            if level == 0:
                declared = _declares(stmt, frozenset(_PROGRAM_DECLARING), depth)
                if declared is not None:
                    names[declared[0]] = declared[1]
        return names

    def run(self) -> dict[str, list[ScanIssue]]:
        implemented: dict[tuple[str, str], Token] = {}
        for part_id, statements in self.parts:
            for method in self._methods(part_id, statements):
                key = (method.class_name, method.name)
                if key in implemented:
                    self.findings[part_id].append(
                        _issue(
                            method.start, f'Method "{method.name}" has already been implemented.'
                        )
                    )
                    continue
                implemented[key] = method.start
                if not method.foreign:
                    self._method_body(part_id, method)
        for found in self.findings.values():
            found.sort(key=lambda f: (f.line, f.column))
        return self.findings

    def _methods(self, part_id: str, statements: list[Statement]) -> list[_Method]:
        """Statement checks on the way; the method implementations with their bodies."""
        methods: list[_Method] = []
        current_class = ""
        current: _Method | None = None
        in_macro = in_injection = False
        for stmt in statements:
            head = stmt.first
            if in_macro or head == "DEFINE":
                in_macro = head != "END-OF-DEFINITION"
                continue
            if current is None or not current.foreign:
                self._statement_word(part_id, stmt)
            if head in ("CLASS", "ENDCLASS"):
                current_class = _implemented_class(stmt)
            elif head == "METHOD" and current_class and len(stmt.tokens) > 1:
                current = _method_start(current_class, stmt)
                methods.append(current)
            elif head == "ENDMETHOD" or (
                current is not None
                and current.foreign
                and any(t.upper == "ENDMETHOD" for t in stmt.tokens)
            ):
                current = None
            elif current is not None:
                if head in ("TEST-INJECTION", "END-TEST-INJECTION"):
                    in_injection = head == "TEST-INJECTION"
                elif not in_injection:
                    current.body.append(stmt)
        return methods

    def _statement_word(self, part_id: str, stmt: Statement) -> None:
        first = stmt.tokens[0]
        if not self.check_statements or first.kind != NAME or _is_expression(stmt):
            return
        head = stmt.first
        if head in STATEMENTS or first.upper in STATEMENTS or head in self.macros:
            return
        if first.upper in self.macros or first.upper.startswith("<"):
            return
        if first.upper.partition("_")[0] in self._pools():
            return  # a macro of a type pool, which the repository does not hold
        self.findings[part_id].append(
            _issue(first, f'Statement "{head}" is not defined. Check your spelling.')
        )

    def _pools(self) -> set[str]:
        if self._pool_names is None:
            found: set[str] = set()
            for _, statements in self.parts:
                for stmt in statements:
                    if stmt.first in ("TYPE-POOLS", "TYPE-POOL"):
                        found |= {t.upper for t in stmt.tokens[1:]}
            for name in self.universe.own:
                found |= self.universe.pools(name)
            self._pool_names = found
        return self._pool_names

    # method bodies -----------------------------------------------------------------------
    def _method_body(self, part_id: str, method: _Method) -> None:
        definition = self._definition(method)
        names, complete = self._visible(method, definition)
        prefixes = {n.partition("_")[0] for n in names if "_" in n and n not in BUILTIN_DATA}
        walker = Walker()
        for stmt in method.body:
            found = walker.statement(stmt)
            for call in found.calls:
                self._call(part_id, method, call, names)
            if not complete:
                continue
            for token in found.names:
                if token.upper not in names and not _pool_constant(token.upper, prefixes):
                    self.findings[part_id].append(
                        _issue(
                            token,
                            f'Field "{token.upper}" is unknown. It is neither in one of the '
                            'specified tables nor defined by a "DATA" statement.',
                        )
                    )

    def _definition(self, method: _Method) -> MethodDef | None:
        if "~" in method.name:
            intf, _, name = method.name.partition("~")
            found = self.universe.interface_method(intf, name)
        else:
            found = self.universe.method(method.class_name, method.name)
        return found if isinstance(found, MethodDef) else None

    def _visible(
        self, method: _Method, definition: MethodDef | None
    ) -> tuple[dict[str, str], bool]:
        """Every name the body may use (with its ``REF TO`` type) and whether that list is
        complete (otherwise no name is reported as unknown)."""
        attributes = self.universe.data(method.class_name)
        complete = self.check_names and attributes is not None
        complete = complete and definition is not None and definition.exact
        names = dict(self.globals)
        names.update(attributes or {})
        names.update(definition.params if definition is not None else {})
        names.update({name: "" for name in BUILTIN_DATA})
        depth = [0]
        for stmt in method.body:
            if stmt.first in self.macros or stmt.tokens[0].upper in self.macros:
                complete = False
            declared = _declares(stmt, _DECLARING, depth)
            if declared is not None:
                names[declared[0]] = declared[1]
            names.update(_inline_names(stmt))
        return names, complete

    def _call(self, part_id: str, method: _Method, call: Call, names: dict[str, str]) -> None:
        call.resolved = None
        target = self._target(method, call, names)
        if target is None:
            return
        if call.target_kind == "intf":
            found = self.universe.interface_method(target, call.name.upper)
        elif call.target_kind == "new":
            found = self.universe.method(target, "CONSTRUCTOR")
        else:
            found = self.universe.method(target, call.name.upper)
        if found is False:
            if call.target_kind != "new" and call.name.upper != "CONSTRUCTOR":
                self.findings[part_id].append(
                    _issue(
                        call.name, f'Method "{call.name.upper}" is unknown or PROTECTED or PRIVATE.'
                    )
                )
                return
            found = MethodDef("CONSTRUCTOR")
        if not isinstance(found, MethodDef):
            return
        call.resolved = found
        if not found.exact:
            return
        for formal in call.formals:
            if formal.upper not in found.params:
                self.findings[part_id].append(
                    _issue(formal, f'Formal parameter "{formal.upper}" does not exist.')
                )

    def _target(self, method: _Method, call: Call, names: dict[str, str]) -> str | None:
        kind = call.target_kind
        if kind in ("bare", "me"):
            return method.class_name
        if kind == "super":
            own = self.universe.type(method.class_name)
            return own.super_name if own is not None else None
        if kind == "var":
            return names.get(call.target) or None
        if kind == "returned":
            previous = call.previous.resolved if call.previous is not None else None
            return previous.returning or None if previous is not None else None
        return call.target or None


def check_program(
    parts: Sequence[Part],
    source_of: SourceOf | None = None,
    *,
    context: Sequence[str] = (),
    check_names: bool = True,
) -> dict[str, list[ScanIssue]]:
    """Findings per part id."""
    return SemanticCheck(parts, source_of, context=context, check_names=check_names).run()


__all__ = ["Part", "SemanticCheck", "check_program"]
