"""Tokens of the CDS family of languages (DDL, DDLX, DCL, BDEF, SRVD, table sources).

They share lexical rules: ``//`` and ``--`` comment to the end of the line, ``/* … */``
spans lines, ``'…'`` strings (a doubled quote escapes), names may carry a namespace
(``/DMO/I_Travel_M``) or a ``$`` (``$projection``), ``#VALUE`` enumeration literals. A
tolerant lexer: an unterminated string or comment ends the text, never raises. Lines are
1-based, columns 0-based; the tokens are :mod:`adt.abap.lexer`'s (one token type for ABAP
and CDS: the faces place and compare them the same way), only the rules differ.

This is the family's only lexer: the parsers (:mod:`.ddl`, :mod:`.bdef` — DDL, DDLX, DCL,
SRVD, table sources, BDEF), completion, folding and the emulator's readings of a source
(its dependencies when it does not parse, a data definition's source type) all go through
:func:`scan`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from adt.abap.lexer import NAME, NUMBER, OP, Token

STRING = "string"
ENUM = "enum"
COMMENT = "comment"

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


def scan(text: str) -> Iterator[Token]:
    """Every token of ``text`` except blanks, comments included (kind :data:`COMMENT`, one
    per line a comment covers): the one pass every reader of the family shares."""
    in_block = False
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        i = 0
        if in_block:
            close = line.find("*/")
            if close < 0:
                if line:
                    yield Token(line, number, 0, COMMENT)
                continue
            in_block, i = False, close + 2
            yield Token(line[:i], number, 0, COMMENT)
        while i < len(line):
            match = _TOKEN.match(line, i)
            assert match is not None  # the last alternative matches any character
            group = match.lastgroup or "op"
            if group == "line":
                yield Token(line[i:], number, i, COMMENT)
                break
            if group == "block":
                close = line.find("*/", match.end())
                end = len(line) if close < 0 else close + 2
                yield Token(line[i:end], number, i, COMMENT)
                if close < 0:
                    in_block = True
                    break
                i = end
                continue
            if group != "ws":
                yield Token(match.group(), number, i, _KINDS.get(group, OP))
            i = match.end()


def tokenize(text: str) -> list[Token]:
    """Every token of ``text`` except blanks and comments."""
    return [token for token in scan(text) if token.kind != COMMENT]


def without_comments(text: str) -> str:
    """``text`` with every comment blanked (same lines and columns), for readers that
    match patterns over the code (a ``//`` inside a string stays)."""
    lines = text.replace("\r\n", "\n").split("\n")
    for token in scan(text):
        if token.kind == COMMENT:
            line = lines[token.line - 1]
            lines[token.line - 1] = line[: token.column] + " " * len(token.text) + line[token.end :]
    return "\n".join(lines)


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


__all__ = [
    "COMMENT",
    "ENUM",
    "NAME",
    "NUMBER",
    "OP",
    "STRING",
    "Token",
    "scan",
    "token_at",
    "tokenize",
    "without_comments",
]
