"""Reading typings and parameter lists out of declaration statements, and writing a symbol's
declaration back as one line (for element info and completion).

``TYPE REF TO zcl_x`` → typing ``TYPE REF TO ZCL_X``, type name ``ZCL_X``, a reference.
Parameter lists are those of ``METHODS``, ``EVENTS``, ``FORM`` and ``FUNCTION`` (in the
statement, or in the ``*"`` comment block abapGit and SE37 write for function modules).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from adt.abap.lexer import LITERAL, NAME, NUMBER, OP, Token, adjacent
from adt.abap.symbols import Symbol, SymbolKind

#: Words between ``TYPE`` and the type's name.
_TYPE_WORDS = frozenset(
    {"REF", "TO", "LINE", "OF", "STANDARD", "SORTED", "HASHED", "INDEX", "ANY", "TABLE", "RANGE"}
)
#: Parameter sections and the kind they give their parameters.
SECTIONS = {
    "IMPORTING": "importing",
    "EXPORTING": "exporting",
    "CHANGING": "changing",
    "RETURNING": "returning",
    "TABLES": "tables",
    "USING": "using",
}
#: Words that end a parameter list (their operands are no parameters).
_STOPS = frozenset({"RAISING", "EXCEPTIONS", "ABSTRACT", "FINAL", "REDEFINITION", "DEFAULT"})
_PATH_SELECTORS = frozenset({"-", "=>", "~"})


@dataclass
class Typing:
    """``TYPE …``/``LIKE …`` of one declaration: the text and the tokens that name the type."""

    text: str = ""
    path: list[Token] = field(default_factory=list)
    ref_to: bool = False
    like: bool = False
    end: int = 0

    @property
    def type_name(self) -> str:
        return "".join(t.upper for t in self.path)


def type_path(tokens: Sequence[Token], i: int) -> list[Token]:
    """The name at ``i`` with adjacent selectors (``zcl_x=>ty``, ``ty_s-comp``)."""
    if i >= len(tokens) or tokens[i].kind != NAME:
        return []
    path = [tokens[i]]
    while (
        i + 2 < len(tokens)
        and tokens[i + 1].text in _PATH_SELECTORS
        and adjacent(tokens[i], tokens[i + 1])
        and tokens[i + 2].kind == NAME
        and adjacent(tokens[i + 1], tokens[i + 2])
    ):
        path += [tokens[i + 1], tokens[i + 2]]
        i += 2
    return path


def parse_typing(tokens: Sequence[Token], i: int) -> Typing:
    """The typing starting at ``i`` (a ``TYPE`` or ``LIKE`` token); ``end`` is the index after."""
    typing = Typing(like=tokens[i].upper == "LIKE")
    words = [tokens[i].upper]
    i += 1
    while i < len(tokens) and tokens[i].kind == NAME and tokens[i].upper in _TYPE_WORDS:
        typing.ref_to = typing.ref_to or tokens[i].upper == "REF"
        words.append(tokens[i].upper)
        i += 1
    # ``TYPE any``, ``TYPE STANDARD TABLE``: a generic type is complete, the next word
    # (``RAISING``, the next parameter) is no type name; one follows only ``TO`` and ``OF``
    named = len(words) == 1 or words[-1] in ("TO", "OF")
    typing.path = type_path(tokens, i) if named else []
    if typing.path:
        words.append("".join(t.upper for t in typing.path))
        i += len(typing.path)
    while i + 1 < len(tokens) and tokens[i].upper in ("LENGTH", "DECIMALS"):
        words += [tokens[i].upper, tokens[i + 1].text]
        i += 2
    typing.text = " ".join(words)
    typing.end = i
    return typing


def parameter_name(tokens: Sequence[Token], i: int) -> tuple[Token | None, bool, int]:
    """``VALUE(p)``/``REFERENCE(p)``/``p`` at ``i``: the name token, by value, next index."""
    token = tokens[i]
    if (
        token.upper in ("VALUE", "REFERENCE")
        and i + 2 < len(tokens)
        and tokens[i + 1].text == "("
        and adjacent(token, tokens[i + 1])
        and tokens[i + 2].kind == NAME
    ):
        closing = i + 4 if i + 3 < len(tokens) and tokens[i + 3].text == ")" else i + 3
        return tokens[i + 2], token.upper == "VALUE", closing
    if token.kind == NAME:
        return token, False, i + 1
    return None, False, i + 1


@dataclass
class Parameter:
    """One parameter as declared: name token, section, typing, flags."""

    token: Token
    kind: str
    typing: Typing
    by_value: bool = False
    optional: bool = False
    default: str = ""


def _options(tokens: Sequence[Token], i: int, param: Parameter) -> int:
    """``OPTIONAL`` and ``DEFAULT v`` after a parameter's typing."""
    while i < len(tokens):
        word = tokens[i].upper
        if word == "OPTIONAL":
            param.optional = True
            i += 1
        elif word == "DEFAULT" and i + 1 < len(tokens):
            param.optional = True
            value = _default_value(tokens, i + 1)
            param.default = "".join(t.text for t in value)
            i += 1 + len(value)
        else:
            return i
    return i


def _default_value(tokens: Sequence[Token], i: int) -> list[Token]:
    """The value after ``DEFAULT``: a name with its selectors (``sy-uname``,
    ``zcl_x=>c``), a literal, or a number with its sign (``-1``)."""
    path = type_path(tokens, i)
    if path:
        return path
    sign = (
        tokens[i].text in ("-", "+") and i + 1 < len(tokens) and adjacent(tokens[i], tokens[i + 1])
    )
    if sign and tokens[i + 1].kind == NUMBER:
        return [tokens[i], tokens[i + 1]]
    return [tokens[i]]


def parse_parameters(tokens: Sequence[Token], start: int) -> list[Parameter]:
    """The parameters declared from ``start`` on (sections ``IMPORTING`` … ``TABLES``)."""
    params: list[Parameter] = []
    kind = ""
    i = start
    while i < len(tokens):
        word = tokens[i].upper
        if word in SECTIONS and tokens[i].kind == NAME:
            kind, i = SECTIONS[word], i + 1
            continue
        if word in _STOPS or word == "PREFERRED" or not kind:
            kind = "" if word in _STOPS else kind
            i += 3 if word == "PREFERRED" else 1
            continue
        name, by_value, i = parameter_name(tokens, i)
        if name is None:
            continue
        typing = Typing()
        if i < len(tokens) and tokens[i].upper in ("TYPE", "LIKE", "STRUCTURE"):
            typing = parse_typing(tokens, i)
            i = typing.end
        param = Parameter(name, kind, typing, by_value or kind == "returning")
        i = _options(tokens, i, param)
        params.append(param)
    return params


_COMMENT_PARAM = re.compile(
    r"^(?P<value>VALUE|REFERENCE)?\(?(?P<name>[A-Za-z_/][\w/]*)\)?\s*(?P<rest>.*)$", re.I
)


def comment_parameters(lines: Sequence[str], first: int) -> list[Parameter]:
    """Parameters from the ``*"`` interface comment of a function module, starting at line
    index ``first`` (0-based) and running while lines start with ``*"``."""
    params: list[Parameter] = []
    kind = ""
    index = first
    while index < len(lines) and lines[index].startswith('*"'):
        line = lines[index]
        body = line[2:].strip()
        index += 1  # now the 1-based number of ``line``
        upper = body.upper()
        if upper in SECTIONS or upper in ("EXCEPTIONS", "RAISING"):
            kind = SECTIONS.get(upper, "")
            continue
        match = _COMMENT_PARAM.match(body)
        if not kind or not body or match is None or body.startswith(("-", '*"')):
            continue
        column = line.index(match.group("name"), 2)
        token = Token(match.group("name"), index, column, NAME)
        rest = match.group("rest").split()
        param = Parameter(token, kind, Typing(), bool(match.group("value")))
        if len(rest) >= 2 and rest[0].upper() in ("TYPE", "LIKE", "STRUCTURE"):
            param.typing = Typing(f"{rest[0].upper()} {rest[1].upper()}", [], False)
            param.typing.path = [Token(rest[1], index, line.index(rest[1], column), NAME)]
        param.optional = "OPTIONAL" in (w.upper() for w in rest)
        params.append(param)
    return params


def literal_text(token: Token) -> str:
    """The value of a ``'…'`` literal (quotes removed, doubled quotes undone)."""
    if token.kind != LITERAL or len(token.text) < 2:
        return ""
    quote = token.text[0]
    return token.text[1:-1].replace(quote * 2, quote)


def is_value_token(token: Token) -> bool:
    return token.kind in (NAME, NUMBER, LITERAL) or (token.kind == OP and token.text == "-")


_KEYWORD = {
    SymbolKind.METHOD: "METHODS",
    SymbolKind.EVENT: "EVENTS",
    SymbolKind.ATTRIBUTE: "DATA",
    SymbolKind.VARIABLE: "DATA",
    SymbolKind.CONSTANT: "CONSTANTS",
    SymbolKind.TYPE: "TYPES",
    SymbolKind.FIELD_SYMBOL: "FIELD-SYMBOLS",
    SymbolKind.FORM: "FORM",
    SymbolKind.FUNCTION: "FUNCTION",
    SymbolKind.CLASS: "CLASS",
    SymbolKind.INTERFACE: "INTERFACE",
    SymbolKind.ALIAS: "ALIASES",
    SymbolKind.MACRO: "DEFINE",
    SymbolKind.INCLUDE: "INCLUDE",
    SymbolKind.PROGRAM: "REPORT",
}


def parameter_text(param: Symbol) -> str:
    """``VALUE(rv_x) TYPE STRING``, ``iv_name TYPE STRING OPTIONAL``."""
    name = f"VALUE({param.name})" if param.by_value else param.name
    parts = [name, param.typing]
    if param.default:
        parts.append(f"DEFAULT {param.default}")
    elif param.optional:
        parts.append("OPTIONAL")
    return " ".join(p for p in parts if p)


def signature(symbol: Symbol) -> str:
    """The declaration of ``symbol`` as one line of ABAP (upper case)."""
    if symbol.kind is SymbolKind.PARAMETER:
        return f"{symbol.param_kind.upper()} {parameter_text(symbol)}".strip()
    keyword = _KEYWORD.get(symbol.kind, "")
    if symbol.static and symbol.kind in (SymbolKind.METHOD, SymbolKind.ATTRIBUTE):
        keyword = "CLASS-" + keyword
    parts = [keyword, symbol.name]
    if symbol.kind is SymbolKind.ALIAS:
        parts += ["FOR", symbol.alias_for]
    parts.append(symbol.typing)
    kind = ""
    for param in symbol.params:
        if param.param_kind != kind:
            kind = param.param_kind
            parts.append(kind.upper())
        parts.append(parameter_text(param))
    return " ".join(p for p in parts if p)
