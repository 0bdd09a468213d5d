"""A small outline of ABAP structure for document symbols.

Classes (definition and implementation parts), interfaces, their METHODS / CLASS-METHODS
declarations and METHOD implementations, FORMs, FUNCTIONs and MODULEs. Built on the shared
statement scanner, so comments and literals never produce symbols.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from adt.abap.scanner import Statement, statements

CLASS, INTERFACE, METHOD, FUNCTION, MODULE = "class", "interface", "method", "function", "module"

_BLOCKS = {
    "CLASS": ("ENDCLASS", CLASS),
    "INTERFACE": ("ENDINTERFACE", INTERFACE),
    "METHOD": ("ENDMETHOD", METHOD),
    "FORM": ("ENDFORM", FUNCTION),
    "FUNCTION": ("ENDFUNCTION", FUNCTION),
    "MODULE": ("ENDMODULE", MODULE),
}
#: The statements that declare a symbol inside the open block, and its kind.
DECLARATIONS = {"METHODS": METHOD, "CLASS-METHODS": METHOD}
#: The first words of the statements the outline reads (it passes over every other one).
HEADS = frozenset(_BLOCKS) | {end for end, _ in _BLOCKS.values()} | frozenset(DECLARATIONS)


@dataclass
class Symbol:
    """``start``/``end`` are (1-based line, 0-based column) in characters."""

    name: str
    kind: str
    detail: str
    start: tuple[int, int]
    end: tuple[int, int]
    children: list[Symbol] = field(default_factory=list)


def opens(statement: Statement) -> tuple[str, str, str] | None:
    """(end keyword, kind, detail) if the statement opens an outlined block."""
    words = statement.words
    if len(words) < 2 or words[0] not in _BLOCKS:
        return None
    if words[0] in ("CLASS", "INTERFACE") and any(w in ("DEFERRED", "LOAD") for w in words):
        return None
    if words[0] == "CLASS" and "DEFINITION" in words and "LOCAL" in words and "FRIENDS" in words:
        return None
    end, kind = _BLOCKS[words[0]]
    detail = ""
    if words[0] == "CLASS":
        detail = "implementation" if "IMPLEMENTATION" in words else "definition"
    elif words[0] in ("FORM", "FUNCTION", "MODULE"):
        detail = words[0].lower()
    return end, kind, detail


def outline(text: str) -> list[Symbol]:
    """The symbol tree of a source."""
    return outline_of(statements(text))


def outline_of(scanned: Iterable[Statement]) -> list[Symbol]:
    """The symbol tree of a source's statements (those whose first word is one of
    :data:`HEADS` are enough)."""
    roots: list[Symbol] = []
    stack: list[tuple[str, Symbol]] = []  # (end keyword, open symbol)
    for statement in scanned:
        words = statement.words
        if not words:
            continue
        head = words[0]
        start = (statement.line, statement.column)
        end = (statement.end_line, statement.end_column)
        if stack and head == stack[-1][0]:
            _, symbol = stack.pop()
            symbol.end = end
            continue
        opened = opens(statement)
        if opened is not None:
            end_keyword, kind, detail = opened
            symbol = Symbol(words[1], kind, detail, start, end)
            (stack[-1][1].children if stack else roots).append(symbol)
            stack.append((end_keyword, symbol))
            continue
        if head in DECLARATIONS and len(words) > 1 and stack:
            stack[-1][1].children.append(Symbol(words[1], DECLARATIONS[head], "", start, end))
    return roots
