"""Tokens of the CDS family of languages (DDL, DDLX, DCL, BDEF, SRVD, table sources).

They share lexical rules: ``//`` and ``--`` comment to the end of the line, ``/* … */``
spans lines, ``'…'`` strings (a doubled quote escapes), names may carry a namespace
(``/DMO/I_Travel_M``) or a ``$`` (``$projection``), ``#VALUE`` enumeration literals. A
tolerant lexer: an unterminated string or comment ends the text, never raises. Lines are
1-based, columns 0-based; the tokens are :mod:`adt.abap.lexer`'s (one token type for ABAP
and CDS: the faces place and compare them the same way), only the rules differ.
"""

from __future__ import annotations

import re

from adt.abap.lexer import NAME, NUMBER, OP, Token

STRING = "string"
ENUM = "enum"

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


__all__ = ["ENUM", "NAME", "NUMBER", "OP", "STRING", "Token", "token_at", "tokenize"]
