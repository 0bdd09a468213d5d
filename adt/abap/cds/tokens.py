"""Tokens of the CDS family of languages (DDL, DDLX, DCL, BDEF, SRVD, table sources).

They share lexical rules: ``//`` and ``--`` comment to the end of the line, ``/* … */``
spans lines, ``'…'`` strings (a doubled quote escapes), names may carry a namespace
(``/DMO/I_Travel_M``) or a ``$`` (``$projection``), ``#VALUE`` enumeration literals. A
tolerant lexer: an unterminated string or comment ends the text, never raises. Lines are
1-based, columns 0-based (as in :mod:`adt.abap.lexer`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NAME = "name"
STRING = "string"
NUMBER = "number"
ENUM = "enum"
OP = "op"

_TOKEN = re.compile(
    r"(?P<ws>\s+)"
    r"|(?P<line>//|--)"
    r"|(?P<block>/\*)"
    r"|(?P<string>'(?:[^']|'')*'?)"
    r"|(?P<name>(?:/[A-Za-z0-9_]+/|\$)?[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<number>\d+(?:\.\d+)?)"
    r"|(?P<enum>\#[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>=>|<=|>=|<>|!=|\.\.|\|\||.)"
)
_KINDS = {"string": STRING, "name": NAME, "number": NUMBER, "enum": ENUM}


@dataclass(frozen=True, slots=True)
class Token:
    """One token as written and where it starts."""

    text: str
    line: int
    column: int
    kind: str

    @property
    def upper(self) -> str:
        return self.text.upper()

    @property
    def end(self) -> int:
        return self.column + len(self.text)

    def covers(self, line: int, column: int) -> bool:
        """Whether a cursor at (line, column) touches this token (its end included)."""
        return self.line == line and self.column <= column <= self.end

    def is_word(self, *words: str) -> bool:
        """A name token equal (case-insensitively) to one of ``words``."""
        return self.kind == NAME and self.text.lower() in words


def tokenize(text: str) -> list[Token]:
    """Every token of ``text`` except blanks and comments."""
    tokens: list[Token] = []
    in_block = False
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        i = 0
        if in_block:
            close = line.find("*/")
            if close < 0:
                continue
            in_block, i = False, close + 2
        while i < len(line):
            match = _TOKEN.match(line, i)
            assert match is not None  # the last alternative matches any character
            group = match.lastgroup or "op"
            if group == "line":
                break
            if group == "block":
                close = line.find("*/", match.end())
                if close < 0:
                    in_block = True
                    break
                i = close + 2
                continue
            if group != "ws":
                tokens.append(Token(match.group(), number, i, _KINDS.get(group, OP)))
            i = match.end()
    return tokens


def token_at(tokens: list[Token], line: int, column: int) -> int | None:
    """The index of the token under a cursor, preferring a name when two touch it."""
    found: int | None = None
    for index, token in enumerate(tokens):
        if token.line > line:
            break
        if token.covers(line, column):
            if token.kind == NAME:
                return index
            found = index
    return found
