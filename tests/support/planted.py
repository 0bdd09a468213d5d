"""Planted syntax errors: five kinds of mistakes a developer makes, put deterministically into
real code (one mistake per copy of a program), to measure what a syntax check catches.

The kinds, each chosen from every place in the programs where it can be made:

* ``keyword`` — a statement keyword with two letters swapped (``WRITE`` → ``WRIET``);
* ``undeclared`` — one use of a variable the method declares with ``DATA`` renamed;
* ``unknown_method`` — a call ``m( … )`` of a method the program's classes declare renamed;
* ``parameter`` — a formal parameter ``p = …`` in such a call renamed;
* ``duplicate`` — a method implementation repeated right after itself.

The sites are found with the project's lexer, not with the checker under test.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from adt.abap.lexer import NAME, Statement, Token, adjacent, lex
from adt.emulator.syntax.vocabulary import words

KINDS = ("keyword", "undeclared", "unknown_method", "parameter", "duplicate")
#: Statement keywords that a typo can hit without changing the block structure.
_KEYWORDS = words(
    """
    APPEND CLEAR CONCATENATE CONDENSE WRITE DATA SORT READ INSERT DELETE MODIFY SPLIT
    TRANSLATE REPLACE FIND ASSIGN CREATE FREE RETURN CHECK RAISE MESSAGE CALL SHIFT
    """
)
_SELECTORS = frozenset({"-", "->", "=>", "~"})


@dataclass(frozen=True)
class Program:
    """The sources of one object: part name → text; ``key`` names the object."""

    key: str
    parts: dict[str, str]


@dataclass(frozen=True)
class Planted:
    """One planted error: the changed part (built on first use: there are thousands of
    sites), and where the error is."""

    kind: str
    key: str
    part: str
    original: str
    line: int
    what: str
    #: ``(column, end, new)`` for a renamed token, ``None`` for a repeated method.
    edit: tuple[int, int, str] | None = None
    block: tuple[int, int] = (0, 0)
    #: The first line of the statement holding the error (where some checkers report it).
    statement_line: int = 0

    @property
    def text(self) -> str:
        lines = self.original.split("\n")
        if self.edit is None:
            first, last = self.block
            return "\n".join(lines[:last] + lines[first - 1 : last] + lines[last:])
        column, end, new = self.edit
        line = lines[self.line - 1]
        lines[self.line - 1] = line[:column] + new + line[end:]
        return "\n".join(lines)


def _swap(word: str) -> str:
    chars = list(word)
    for i in range(len(chars) - 1, 0, -1):
        if chars[i] != chars[i - 1]:
            chars[i], chars[i - 1] = chars[i - 1], chars[i]
            return "".join(chars)
    return word + "X"


def _typo(name: str) -> str:
    return name[:-1] + "q" + name[-1]


@dataclass
class _Method:
    name: str
    first: int
    last: int
    body: list[Statement]


def _methods(statements: list[Statement]) -> Iterator[_Method]:
    current: _Method | None = None
    for stmt in statements:
        head = stmt.first
        if head == "METHOD" and len(stmt.tokens) > 1:
            current = _Method(stmt.tokens[1].upper, stmt.line, stmt.line, [])
        elif head == "ENDMETHOD" and current is not None:
            current.last = stmt.tokens[0].line
            yield current
            current = None
        elif current is not None:
            current.body.append(stmt)


def _declared_methods(program: Program) -> set[str]:
    names: set[str] = set()
    for text in program.parts.values():
        for stmt in lex(text).statements:
            if stmt.first in ("METHODS", "CLASS-METHODS") and len(stmt.tokens) > 1:
                names.add(stmt.tokens[1].upper)
    return names - {"CONSTRUCTOR", "CLASS_CONSTRUCTOR", "SETUP", "TEARDOWN"}


def _calls(
    body: Iterable[Statement], methods: set[str]
) -> Iterator[tuple[Token, list[Token], int]]:
    """Calls ``m( … )`` of the given methods with their formal parameters ``p = …``."""
    for stmt in body:
        tokens = stmt.tokens
        for i, token in enumerate(tokens[:-2]):
            opens = tokens[i + 1]
            if token.kind != NAME or token.upper not in methods or opens.text != "(":
                continue
            if not adjacent(token, opens) or adjacent(opens, tokens[i + 2]):
                continue
            formals: list[Token] = []
            depth = 0
            for j in range(i + 1, len(tokens)):
                text = tokens[j].text
                depth += text == "("
                depth -= text == ")"
                if depth == 0 or tokens[j].upper == "EXCEPTIONS":
                    break
                nxt = tokens[j + 1] if j + 1 < len(tokens) else None
                if depth == 1 and tokens[j].kind == NAME and nxt is not None and nxt.text == "=":
                    formals.append(tokens[j])
            yield token, formals, stmt.line


class Planter:
    """Finds every site of every kind in a set of programs."""

    def __init__(self, programs: Iterable[Program]) -> None:
        self.sites: dict[str, list[Planted]] = {kind: [] for kind in KINDS}
        for program in sorted(programs, key=lambda p: p.key):
            self._program(program)

    def pick(self, per_kind: int, seed: int = 20) -> list[Planted]:
        """``per_kind`` sites of each kind, chosen with a fixed seed."""
        chosen: list[Planted] = []
        for index, kind in enumerate(KINDS):
            sites = self.sites[kind]
            rng = random.Random(seed * 100 + index)
            chosen += rng.sample(sites, min(per_kind, len(sites)))
        return chosen

    def _program(self, program: Program) -> None:
        methods = _declared_methods(program)
        everything = "\n".join(program.parts.values()).upper()
        for part, text in sorted(program.parts.items()):
            statements = lex(text).statements
            self._keywords(program, part, text, statements)
            for method in _methods(statements):
                self._duplicate(program, part, text, method)
                self._undeclared(program, part, text, method, everything)
                for call, formals, line in _calls(method.body, methods):
                    new = _typo(call.upper).lower()
                    if new.upper() not in everything:
                        self._add("unknown_method", program, part, text, call, new, line)
                    for formal in formals:
                        new = _typo(formal.upper).lower()
                        if new.upper() not in everything:
                            self._add("parameter", program, part, text, formal, new, line)

    def _add(
        self, kind: str, program: Program, part: str, text: str, token: Token, new: str, first: int
    ) -> None:
        edit = (token.column, token.end, new)
        planted = Planted(
            kind, program.key, part, text, token.line, token.text, edit, (0, 0), first
        )
        self.sites[kind].append(planted)

    def _keywords(
        self, program: Program, part: str, text: str, statements: list[Statement]
    ) -> None:
        seen: set[tuple[int, int]] = set()
        in_macro = False
        for stmt in statements:
            first = stmt.tokens[0]
            if stmt.first in ("DEFINE", "END-OF-DEFINITION"):
                in_macro = stmt.first == "DEFINE"
            if in_macro:
                continue  # a macro's body is checked where the macro is used
            if first.upper not in _KEYWORDS or (first.line, first.column) in seen:
                continue
            if len(stmt.tokens) > 1 and adjacent(first, stmt.tokens[1]):
                continue  # ``DATA(x) = …`` is no keyword statement
            seen.add((first.line, first.column))
            new = _swap(first.text)
            self._add("keyword", program, part, text, first, new, first.line)

    def _duplicate(self, program: Program, part: str, text: str, method: _Method) -> None:
        first_line = text.split("\n", method.first)[method.first - 1]
        if not first_line.lstrip().upper().startswith("METHOD "):
            return
        self.sites["duplicate"].append(
            Planted(
                "duplicate",
                program.key,
                part,
                text,
                method.last + 1,
                method.name,
                block=(method.first, method.last),
                statement_line=method.last + 1,
            )
        )

    def _undeclared(
        self, program: Program, part: str, text: str, method: _Method, everything: str
    ) -> None:
        declared: set[str] = set()
        for stmt in method.body:
            if (
                stmt.first == "DATA"
                and len(stmt.tokens) > 1
                and not adjacent(stmt.tokens[0], stmt.tokens[1])
            ):
                declared.add(stmt.tokens[1].upper)
        for stmt in method.body:
            if stmt.first in ("DATA", "TYPES", "CONSTANTS", "FIELD-SYMBOLS", "STATICS"):
                continue
            tokens = stmt.tokens
            for i, token in enumerate(tokens):
                if token.kind != NAME or token.upper not in declared:
                    continue
                prev = tokens[i - 1] if i > 0 else None
                nxt = tokens[i + 1] if i + 1 < len(tokens) else None
                if prev is not None and prev.text in _SELECTORS and adjacent(prev, token):
                    continue
                if nxt is not None and nxt.text in ("=>", "~") and adjacent(token, nxt):
                    continue
                new = _typo(token.upper).lower()
                if new.upper() not in everything:
                    self._add("undeclared", program, part, text, token, new, stmt.line)


__all__ = ["KINDS", "Planted", "Planter", "Program"]
