"""What the semantic checker knows of classes and interfaces: their methods with parameter
names, their attributes, super class, interfaces and aliases, read from declaration
statements (``CLASS … DEFINITION`` … ``ENDCLASS``, ``INTERFACE`` … ``ENDINTERFACE``).

Only what a later check needs is kept: names (upper case), the ``TYPE REF TO`` type of
attributes and parameters, and whether a method's parameter list is exactly known.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from adt.abap.lexer import NAME, Statement, Token, adjacent

#: Words that start a parameter section of ``METHODS``.
_SECTIONS = frozenset({"IMPORTING", "EXPORTING", "CHANGING", "RETURNING"})
#: Words after which no parameter names follow.
_STOPS = frozenset({"RAISING", "EXCEPTIONS", "REDEFINITION", "ABSTRACT", "FINAL"})
_DATA_HEADS = frozenset({"DATA", "CLASS-DATA", "CONSTANTS", "STATICS", "TYPES"})


@dataclass
class MethodDef:
    """One declared method: parameter name → ``TYPE REF TO`` type (or ``""``)."""

    name: str
    params: dict[str, str] = field(default_factory=dict)
    #: False when the parameters cannot be read exactly (event handlers, RAP handlers …).
    exact: bool = True
    redefinition: bool = False
    #: The ``TYPE REF TO`` type of the returning parameter (or ``""``).
    returning: str = ""


@dataclass
class TypeDef:
    """One class or interface as its definition declares it."""

    name: str
    is_interface: bool
    super_name: str | None = None
    interfaces: list[str] = field(default_factory=list)
    methods: dict[str, MethodDef] = field(default_factory=dict)
    #: Attribute, constant, type and event name → ``TYPE REF TO`` type (or ``""``).
    data: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, tuple[str, str]] = field(default_factory=dict)


def ref_type(tokens: Sequence[Token], start: int) -> str:
    """The class named by ``TYPE REF TO name`` at ``tokens[start:]``, or ``""``."""
    words = [t.upper for t in tokens[start : start + 4]]
    if len(words) == 4 and words[:3] == ["TYPE", "REF", "TO"] and tokens[start + 3].kind == NAME:
        after = tokens[start + 4] if start + 4 < len(tokens) else None
        if after is None or not adjacent(tokens[start + 3], after):
            return words[3]
    return ""


def declared_name(stmt: Statement, depth: list[int]) -> str | None:
    """The name a ``DATA``/``TYPES``/``CONSTANTS`` statement declares at the top level
    (``BEGIN OF x`` declares ``x``; components inside it are no names of their own)."""
    tokens = stmt.tokens
    _, index = stmt.word(0)
    if index >= len(tokens):
        return None
    first = tokens[index].upper
    if first == "BEGIN" and index + 2 < len(tokens):
        depth[0] += 1
        return tokens[index + 2].upper if depth[0] == 1 else None
    if first == "END" and index + 1 < len(tokens) and tokens[index + 1].upper == "OF":
        depth[0] = max(0, depth[0] - 1)
        return None
    if depth[0] > 0:
        return None
    return tokens[index].upper


def _parameter(tokens: Sequence[Token], words: list[str], i: int) -> tuple[str, str, int] | None:
    """The parameter declared at ``i`` in a parameter section (name, ``REF TO`` type, index
    to continue after), or ``None``."""
    if words[i] in ("VALUE", "REFERENCE") and i + 2 < len(tokens):
        if tokens[i + 1].text == "(" and adjacent(tokens[i], tokens[i + 1]):
            return words[i + 2].lstrip("!"), ref_type(tokens, i + 4), i + 3
        return None
    if tokens[i].kind != NAME or i + 1 >= len(tokens) or words[i + 1] not in ("TYPE", "LIKE"):
        return None
    after_typing = words[i - 1] in ("TYPE", "TO", "LIKE") and not (
        i >= 2 and adjacent(tokens[i - 2], tokens[i - 1])
    )
    return None if after_typing else (words[i], ref_type(tokens, i + 1), i)


def _method(stmt: Statement) -> MethodDef | None:
    tokens = stmt.tokens
    _, index = stmt.word(0)
    if index >= len(tokens):
        return None
    method = MethodDef(tokens[index].upper)
    words = [t.upper for t in tokens]
    if "FOR" in words[index:] and "TESTING" not in words[index:]:
        method.exact = False  # event and RAP handlers: implicit or untyped parameters
    method.redefinition = "REDEFINITION" in words
    in_section = False
    i = index + 1
    while i < len(tokens):
        word = words[i]
        if word == "RETURNING" and i + 4 < len(tokens):
            method.returning = ref_type(tokens, i + 5)
        if word in _SECTIONS or word in _STOPS:
            in_section = word in _SECTIONS
        elif in_section:
            found = _parameter(tokens, words, i)
            if found is not None:
                method.params[found[0]] = found[1]
                i = found[2]
        i += 1
    return method


class _Reader:
    """Builds :class:`TypeDef` objects from the statements of one source."""

    def __init__(self) -> None:
        self.found: dict[str, TypeDef] = {}
        self.current: TypeDef | None = None
        self.depth = [0]

    def statement(self, stmt: Statement) -> None:
        head = stmt.first
        if head in ("CLASS", "INTERFACE"):
            words = stmt.words(4)
            if len(words) > 2:
                self._open(stmt, words)
        elif head in ("ENDCLASS", "ENDINTERFACE"):
            self.current = None
        elif self.current is not None:
            self._component(stmt, head)

    def _open(self, stmt: Statement, words: list[str]) -> None:
        rest = {t.upper for t in stmt.tokens[2:]}
        if rest & {"DEFERRED", "LOAD", "IMPLEMENTATION"} or ("LOCAL" in rest and "FRIENDS" in rest):
            return
        is_interface = words[0] == "INTERFACE"
        if not is_interface and words[2] != "DEFINITION":
            return
        typedef = TypeDef(words[1], is_interface)
        uppers = [t.upper for t in stmt.tokens]
        if "INHERITING" in uppers:
            at = uppers.index("INHERITING")
            if at + 2 < len(uppers):
                typedef.super_name = uppers[at + 2]
        self.found[typedef.name] = typedef
        self.current = typedef
        self.depth = [0]

    def _component(self, stmt: Statement, head: str) -> None:
        current = self.current
        assert current is not None
        tokens = stmt.tokens
        if head in ("METHODS", "CLASS-METHODS"):
            method = _method(stmt)
            if method is not None:
                current.methods[method.name] = method
        elif head in _DATA_HEADS:
            name = declared_name(stmt, self.depth)
            if name is not None:
                _, index = stmt.word(0)
                current.data[name] = ref_type(tokens, index + 1)
        elif head in ("EVENTS", "CLASS-EVENTS") and len(tokens) > 1:
            current.data[tokens[1].upper] = ""
        elif head == "INTERFACES" and len(tokens) > 1:
            current.interfaces.append(tokens[1].upper)
        elif head == "ALIASES" and len(tokens) >= 6 and tokens[4].text == "~":
            current.aliases[tokens[1].upper] = (tokens[3].upper, tokens[5].upper)


def read_types(statements: Iterable[Statement]) -> dict[str, TypeDef]:
    """Every class and interface a source defines, by upper-case name."""
    reader = _Reader()
    for stmt in statements:
        if stmt.tokens:
            reader.statement(stmt)
    return reader.found


__all__ = ["MethodDef", "TypeDef", "declared_name", "read_types", "ref_type"]
