"""What each piece of an ABAP source is, for semantic highlighting: comments, literals and
templates, numbers, keywords, and every name by what it declares (class, interface, method,
attribute, parameter, local variable, constant, type …) from the symbol index of the text
alone. No ADT service says this; it is the server's own reading. Lines 0-based, columns
``str`` indices; every piece lies on one line and none overlap."""

from __future__ import annotations

from dataclasses import dataclass

from adt.abap.format.tokens import LineKind, TokenKind
from adt.abap.format.tokens import lex as lex_lines
from adt.abap.index import ProgramIndex, Unit
from adt.abap.keywords import ABAP_WORDS
from adt.abap.legend import MODIFIERS, TYPES
from adt.abap.lexer import NAME, NUMBER, lex
from adt.abap.symbols import Occurrence, SymbolKind

_BY_KIND = {
    SymbolKind.CLASS: "class",
    SymbolKind.INTERFACE: "interface",
    SymbolKind.METHOD: "method",
    SymbolKind.ALIAS: "method",
    SymbolKind.EVENT: "event",
    SymbolKind.ATTRIBUTE: "property",
    SymbolKind.CONSTANT: "variable",
    SymbolKind.COMPONENT: "property",
    SymbolKind.PARAMETER: "parameter",
    SymbolKind.VARIABLE: "variable",
    SymbolKind.FIELD_SYMBOL: "variable",
    SymbolKind.TYPE: "type",
    SymbolKind.FORM: "function",
    SymbolKind.FUNCTION: "function",
    SymbolKind.MACRO: "macro",
}
_UNIT = "source"


@dataclass(frozen=True, order=True)
class Piece:
    line: int
    start: int
    length: int
    type: str
    modifiers: tuple[str, ...] = ()


def _lexical(lines: list[str]) -> list[Piece]:
    """Comments, literals and the text of templates (not their embedded expressions)."""
    pieces = []
    for source in lex_lines(lines):
        number = source.number - 1
        if source.kind is LineKind.STAR:
            pieces.append(Piece(number, 0, len(source.text), "comment"))
            continue
        for token in source.tokens:
            if token.kind is TokenKind.COMMENT:
                pieces.append(Piece(number, token.column, len(token.text), "comment"))
            elif token.kind is TokenKind.LITERAL:
                pieces.append(Piece(number, token.column, len(token.text), "string"))
            elif token.kind is TokenKind.TEMPLATE and "\n" not in token.text:
                pieces.extend(_template(number, token.column, token.text))
    return pieces


def _template(line: int, column: int, text: str) -> list[Piece]:
    """The literal runs of ``|…{ expr }…|`` (the expressions are code)."""
    pieces, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char == "{" and (i == 0 or text[i - 1] != "\\"):
            if depth == 0 and i > start:
                pieces.append(Piece(line, column + start, i - start, "string"))
            depth += 1
        elif char == "}" and depth and text[i - 1] != "\\":
            depth -= 1
            start = i + 1
    if depth == 0 and start < len(text):
        pieces.append(Piece(line, column + start, len(text) - start, "string"))
    return pieces


def _named(occurrence: Occurrence) -> Piece | None:
    kind = _BY_KIND.get(occurrence.symbol.kind)
    if kind is None:
        return None
    modifiers = []
    if occurrence.role == "declaration":
        modifiers.append("declaration")
    if occurrence.symbol.kind is SymbolKind.CONSTANT:
        modifiers.append("readonly")
    if occurrence.symbol.static:
        modifiers.append("static")
    return Piece(occurrence.line - 1, occurrence.column, occurrence.length, kind, tuple(modifiers))


def pieces(text: str) -> list[Piece]:
    """Every highlighted piece of ``text``, in order."""
    index = ProgramIndex("SOURCE", [Unit(_UNIT, text)])
    found = _lexical(index.lines[_UNIT])
    named: set[tuple[int, int]] = set()
    for occurrence in index.occurrences(_UNIT):
        piece = _named(occurrence)
        if piece is not None:
            found.append(piece)
            named.add((piece.line, piece.start))
    for statement in lex(text).statements:
        tokens = statement.tokens
        for i, token in enumerate(tokens):
            at = (token.line - 1, token.column)
            if token.kind == NUMBER:
                found.append(Piece(*at, len(token.text), "number"))
            elif token.kind != NAME or at in named:
                continue
            elif i + 1 < len(tokens) and tokens[i + 1].text == "=>":
                found.append(Piece(*at, len(token.text), "class"))
            elif token.upper in ABAP_WORDS:
                found.append(Piece(*at, len(token.text), "keyword"))
    return _without_overlaps(found)


def _without_overlaps(found: list[Piece]) -> list[Piece]:
    kept: list[Piece] = []
    for piece in sorted(found):
        if piece.length <= 0:
            continue
        if kept and kept[-1].line == piece.line and piece.start < kept[-1].start + kept[-1].length:
            continue
        kept.append(piece)
    return kept


__all__ = ["MODIFIERS", "TYPES", "Piece", "pieces"]
