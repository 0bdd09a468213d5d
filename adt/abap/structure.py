"""The block structure of one source unit: class definitions and implementations with their
methods, interfaces, forms, function modules, macros and the loose statements between them.

Blocks that the text leaves open (the user is still typing) end with the unit, so code
intelligence works on unfinished code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from adt.abap.lexer import NAME, Lexed, Statement, Token


class BlockKind(StrEnum):
    CLASS_DEFINITION = "class-definition"
    CLASS_IMPLEMENTATION = "class-implementation"
    INTERFACE = "interface"
    METHOD = "method"
    FORM = "form"
    FUNCTION = "function"
    MACRO = "macro"
    MODULE = "module"


#: Statement → (block it opens, statement that closes it).
_OPENERS: dict[str, tuple[BlockKind, str]] = {
    "INTERFACE": (BlockKind.INTERFACE, "ENDINTERFACE"),
    "FORM": (BlockKind.FORM, "ENDFORM"),
    "FUNCTION": (BlockKind.FUNCTION, "ENDFUNCTION"),
    "DEFINE": (BlockKind.MACRO, "END-OF-DEFINITION"),
    "MODULE": (BlockKind.MODULE, "ENDMODULE"),
    "METHOD": (BlockKind.METHOD, "ENDMETHOD"),
}


@dataclass(eq=False)
class Block:
    """A block: the opening statement, the statements inside, nested blocks, the end."""

    kind: BlockKind
    unit: str
    header: Statement
    body: list[Statement] = field(default_factory=list)
    children: list[Block] = field(default_factory=list)
    end: Statement | None = None

    @property
    def name_token(self) -> Token | None:
        """The token after the opening keyword (``CLASS x``, ``METHOD x``, ``FORM x``)."""
        tokens = self.header.tokens
        _, index = self.header.word(0)
        return tokens[index] if index < len(tokens) and tokens[index].kind == NAME else None

    @property
    def first_line(self) -> int:
        return self.header.line

    @property
    def last_line(self) -> int:
        """The line of the closing statement, or of the last statement inside."""
        if self.end is not None:
            return self.end.last_line
        inner = [s.last_line for s in self.body] + [c.last_line for c in self.children]
        return max([self.header.last_line, *inner])


@dataclass
class UnitStructure:
    """One unit: its blocks in text order and the statements outside every block."""

    unit: str
    lexed: Lexed
    blocks: list[Block] = field(default_factory=list)
    loose: list[Statement] = field(default_factory=list)


def _class_block(statement: Statement) -> BlockKind | None:
    words = set(statement.words(8)[2:])
    if words & {"DEFERRED", "LOAD", "LOCAL"}:
        return None
    if "IMPLEMENTATION" in words:
        return BlockKind.CLASS_IMPLEMENTATION
    if "DEFINITION" in words:
        return BlockKind.CLASS_DEFINITION
    return None


def _opens(statement: Statement) -> tuple[BlockKind, str] | None:
    first = statement.first
    if first == "CLASS":
        kind = _class_block(statement)
        return (kind, "ENDCLASS") if kind is not None else None
    if first == "INTERFACE" and {"DEFERRED", "LOAD"} & set(statement.words(4)):
        return None
    return _OPENERS.get(first)


class _Builder:
    def __init__(self, unit: str, lexed: Lexed) -> None:
        self.result = UnitStructure(unit, lexed)
        self.stack: list[tuple[Block, str]] = []

    def feed(self, statement: Statement) -> None:
        if self.stack and statement.first == self.stack[-1][1]:
            block, _ = self.stack.pop()
            block.end = statement
            return
        if self.stack and self.stack[-1][0].kind is BlockKind.MACRO:
            self.stack[-1][0].body.append(statement)
            return
        opened = _opens(statement)
        if opened is not None and self._may_open(opened[0]):
            block = Block(opened[0], self.result.unit, statement)
            self._attach(block)
            self.stack.append((block, opened[1]))
        elif self.stack:
            self.stack[-1][0].body.append(statement)
        else:
            self.result.loose.append(statement)

    def _may_open(self, kind: BlockKind) -> bool:
        """METHOD only inside a class implementation; nothing else inside a method."""
        parent = self.stack[-1][0].kind if self.stack else None
        if kind is BlockKind.METHOD:
            return parent is BlockKind.CLASS_IMPLEMENTATION
        return parent is None

    def _attach(self, block: Block) -> None:
        if self.stack:
            self.stack[-1][0].children.append(block)
        else:
            self.result.blocks.append(block)


def structure(unit: str, lexed: Lexed) -> UnitStructure:
    """The blocks of one lexed unit."""
    builder = _Builder(unit, lexed)
    for statement in lexed.statements:
        builder.feed(statement)
    return builder.result
