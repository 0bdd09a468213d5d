"""The outline of an ABAP document as the JSON of a ``DocumentSymbol[]`` answer, written
straight from its kept statements.

After a key that adds or removes a line every symbol below it moves, so the answer is built
again: at 100,000 lines that is about 8,000 symbols. Building a ``Symbol`` and then a dict
per symbol, and a ``Statement`` per kept statement before that, cost several times the
answer itself; here each symbol is one piece of text. A symbol's children come before its
ranges (JSON objects have no order), so a block is written when it opens and finished when
it closes. The rules are :func:`adt.abap.outline.outline_of`'s; a test checks both agree.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import orjson
from lsprotocol import types

from adt.abap.outline import DECLARATIONS, opens
from adt.abap.scanner import Statement
from lsp_server.buffer import index_to_units

_KINDS = {
    "class": types.SymbolKind.Class.value,
    "interface": types.SymbolKind.Interface.value,
    "method": types.SymbolKind.Method.value,
    "function": types.SymbolKind.Function.value,
    "module": types.SymbolKind.Module.value,
}
_LINE_END = 1 << 30


_OPEN, _DECLARE, _OTHER = 0, 1, 2

#: One kept statement, compiled once per chunk: (first word, what it does, 0-based line in
#: the chunk, start character, end line in the chunk, end character, then for ``_OPEN``:
#: the block's end keyword, its head text and where its first line ends; for ``_DECLARE``:
#: the symbol's text with the four line numbers left out, in the order they are written).
_Op = tuple[str, int, int, int, int, int, str, str, int]
_BLOCK_START = '"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}}'
_SELECTION = (
    ',"selectionRange":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}}}'
)


class _Block:
    """A block written up to its children: what closing it needs."""

    __slots__ = ("end", "end_keyword", "end_line", "first_end", "line", "start", "written")

    def __init__(self, op: _Op, offset: int) -> None:
        self.end_keyword, self.first_end = op[6], op[8]
        self.line, self.start = op[2] + offset, op[3]
        self.end_line, self.end = op[4] + offset, op[5]  # while it is not closed
        self.written = False  # a child was written (the next one needs a comma)


class _Roots:
    __slots__ = ("written",)

    def __init__(self) -> None:
        self.written = False


class OutlineWriter:
    """Writes a document's answers. Every chunk's statements are compiled once (their
    characters in the editor's ``encoding``, names quoted, the text of each symbol with its
    line numbers left out), so the answer after a key that moved every symbol below it only
    fills in line numbers."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self._compiled: dict[int, tuple[Sequence[Statement], list[_Op]]] = {}

    def write(
        self, lines: Sequence[str], placed: Iterable[tuple[int, Sequence[Statement]]]
    ) -> bytes:
        """The answer for the statements of ``lines`` given chunk by chunk with their line
        offsets (:meth:`adt.abap.chunked.Scanned.placed`)."""
        out: list[str] = ["["]
        stack: list[_Block] = []
        roots = _Roots()
        compiled: dict[int, tuple[Sequence[Statement], list[_Op]]] = {}
        for offset, statements in placed:
            known = self._compiled.get(id(statements))
            if known is None or known[0] is not statements:
                known = (statements, self._compile(lines, offset, statements))
            compiled[id(statements)] = known
            for op in known[1]:
                if stack and op[0] == stack[-1].end_keyword:
                    _close(out, stack.pop(), op[4] + offset, op[5])
                elif op[1] == _OPEN:
                    _comma(out, stack[-1] if stack else roots)
                    out.append(op[7])
                    stack.append(_Block(op, offset))
                elif op[1] == _DECLARE and stack:
                    _comma(out, stack[-1])
                    line, end_line = op[2] + offset, op[4] + offset
                    first_end = end_line if line == end_line else line
                    out.append(op[7] % (line, end_line, line, first_end))
        while stack:  # blocks the text leaves open end where their first statement does
            block = stack.pop()
            _close(out, block, block.end_line, block.end)
        self._compiled = compiled
        out.append("]")
        return "".join(out).encode()

    def _compile(
        self, lines: Sequence[str], offset: int, statements: Sequence[Statement]
    ) -> list[_Op]:
        ops: list[_Op] = []
        for statement in statements:
            words = statement.words
            if not words:
                continue
            line, end_line = statement.line - 1, statement.end_line - 1
            start = self._units(lines, offset + line, statement.column)
            end = self._units(lines, offset + end_line, statement.end_column)
            first_end = self._units(lines, offset + line, _LINE_END)
            opened = opens(statement)
            if opened is not None:
                end_keyword, kind, detail = opened
                head = _head(words[1], kind, detail)
                op = (words[0], _OPEN, line, start, end_line, end, end_keyword, head, first_end)
                ops.append(op)
            elif len(words) > 1 and words[0] in DECLARATIONS:
                second = end if line == end_line else first_end
                head = _head(words[1], DECLARATIONS[words[0]], "").replace("%", "%%")
                text = (
                    f'{head}],"range":{{"start":{{"line":%d,"character":{start}}},'
                    f'"end":{{"line":%d,"character":{end}}}}},"selectionRange":{{"start":'
                    f'{{"line":%d,"character":{start}}},"end":{{"line":%d,"character":{second}}}}}}}'
                )
                ops.append((words[0], _DECLARE, line, start, end_line, end, "", text, first_end))
            else:
                ops.append((words[0], _OTHER, line, start, end_line, end, "", "", first_end))
        return ops

    def _units(self, lines: Sequence[str], line: int, index: int) -> int:
        """A ``str`` index of a line in the editor's encoding (clamped to the line)."""
        if line >= len(lines):
            return index
        text = lines[line]
        if text.isascii():
            return 0 if index < 0 else min(index, len(text))
        return index_to_units(text, index, self.encoding)


def _head(name: str, kind: str, detail: str) -> str:
    """A symbol's text up to its children."""
    extra = f',"detail":{orjson.dumps(detail).decode()}' if detail else ""
    quoted = orjson.dumps(name).decode()
    return f'{{"name":{quoted},"kind":{_KINDS.get(kind, 19)}{extra},"children":['


def _comma(out: list[str], parent: _Block | _Roots) -> None:
    if parent.written:
        out.append(",")
    parent.written = True


def _close(out: list[str], block: _Block, end_line: int, end: int) -> None:
    line, start = block.line, block.start
    second = (end_line, end) if line == end_line else (line, block.first_end)
    out.append("],")
    out.append(_BLOCK_START % (line, start, end_line, end))
    out.append(_SELECTION % (line, start, *second))


__all__ = ["OutlineWriter"]
