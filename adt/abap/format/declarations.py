"""What a source declares: the names a quick fix must not offer to declare again, and the
methods of its classes.

Deliberately generous: a name counts as declared when any statement of the source (or of
the related sources passed along: other class includes, included programs, the function
group) declares it anywhere, whatever its scope. A missing proposal is better than a wrong
one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from .casing import glued_keyword
from .keywords import words
from .pretty import Source
from .tokens import LineKind, Token, TokenKind, TokenStatement

#: Statements whose chain elements start with the name they declare.
DECLARING_HEADS = words(
    """
    DATA CLASS-DATA STATICS CONSTANTS FIELD-SYMBOLS PARAMETERS PARAMETER SELECT-OPTIONS
    RANGES TABLES NODES TYPES ALIASES EVENTS CLASS-EVENTS FIELD-GROUPS CONTROLS
    """
)
#: Names every program knows without declaring them.
BUILT_IN = words(
    """
    ME SUPER SY SYST SCREEN SPACE ABAP_TRUE ABAP_FALSE ABAP_UNDEFINED ABAP_ON ABAP_OFF TEXT
    SELECTION-TABLE
    """
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def is_plain_name(text: str) -> bool:
    return _NAME.fullmatch(text) is not None


def _word_tokens(tokens: Iterable[Token]) -> list[Token]:
    return [t for t in tokens if t.kind is TokenKind.WORD]


def _element_name(element: list[Token]) -> str | None:
    words = _word_tokens(element)
    if not words:
        return None
    if [w.upper for w in words[:2]] == ["BEGIN", "OF"]:
        return words[2].upper if len(words) > 2 else None
    if words[0].upper == "END":
        return None
    return words[0].upper.strip("<>")


def _inline(token: Token) -> str | None:
    glued = glued_keyword(token)
    if glued is None:
        return None
    return glued[2].strip("()").upper().strip("<>") or None


def _signature_names(statement: TokenStatement) -> set[str]:
    """Parameter names of a ``METHODS`` or ``FORM`` statement."""
    names: set[str] = set()
    tokens = statement.tokens
    for i, token in enumerate(tokens):
        if token.kind is not TokenKind.WORD:
            continue
        inline = _inline(token)
        following = tokens[i + 1].upper if i + 1 < len(tokens) else ""
        if inline is not None:
            names.add(inline)
        elif following in ("TYPE", "LIKE", "STRUCTURE") or statement.words[0] == "FORM":
            names.add(token.upper)
    return names


def statement_names(statement: TokenStatement) -> set[str]:
    """The names one statement declares (inline declarations included)."""
    words = statement.words
    names = {n for t in statement.tokens if t.kind is TokenKind.WORD if (n := _inline(t))}
    head = words[0] if words else ""
    if head in DECLARING_HEADS:
        names |= {n for e in statement.elements() if (n := _element_name(e))}
    elif head in ("METHODS", "CLASS-METHODS", "FORM"):
        names |= _signature_names(statement)
    return names


def declared_names(sources: Iterable[Source]) -> set[str]:
    """Every name the sources declare, upper case, plus the built-in ones."""
    names = set(BUILT_IN)
    for source in sources:
        for statement in source.statements:
            names |= statement_names(statement)
        for line in source.lines:
            if line.kind is LineKind.STAR and line.text.startswith('*"'):
                names |= {w.upper() for w in _NAME.findall(line.text)}
    return names


@dataclass(frozen=True)
class MethodDeclaration:
    """One method a class definition declares, as written, and the statement declaring it."""

    name: str
    statement: int
    abstract: bool


def declared_methods(source: Source, start: int, end: int) -> list[MethodDeclaration]:
    """The methods declared between statements ``start`` and ``end`` (a class definition)."""
    found: list[MethodDeclaration] = []
    for index in range(start + 1, end):
        statement = source.statements[index]
        words = statement.words
        if not words or words[0] not in ("METHODS", "CLASS-METHODS"):
            continue
        for element in statement.elements():
            names = _word_tokens(element)
            if names and "~" not in names[0].text:
                abstract = any(w.upper == "ABSTRACT" for w in names)
                found.append(MethodDeclaration(names[0].text, index, abstract))
    return found


def implemented_methods(source: Source, start: int, end: int) -> dict[str, int]:
    """Upper-case method name → the ``METHOD`` statement, within an implementation."""
    found: dict[str, int] = {}
    for index in range(start + 1, end):
        words = source.statements[index].words
        if len(words) > 1 and words[0] == "METHOD":
            found.setdefault(words[1], index)
    return found


def superclass(source: Source, start: int) -> str | None:
    """The class a definition inherits from (upper case), if it names one."""
    words = source.statements[start].words
    for i in range(len(words) - 2):
        if words[i : i + 2] == ["INHERITING", "FROM"]:
            return words[i + 2]
    return None
