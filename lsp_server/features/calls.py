"""Call hierarchy: who calls a method (incoming, from ADT's where-used) and what its body
calls (outgoing, each call site resolved by ADT's navigation to its implementation).

An item is a method's implementation (``METHOD name.``), a form or function module, or a
program's loose statements; it carries its source and the position of its name, so that
the editor can hand it back. The callers of a where-used hit are found in the text of the
using source (the open buffer, else the saved source) by the server's ABAP structure: the
block that holds the line. Where-used works on saved sources: an item on a line with
unsaved changes is refused (save first); positions of open documents are their buffers'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from adt.source.errors import InvalidArgument
from lsp_server.features import Feature
from lsp_server.features.intelligence import word_at
from lsp_server.features.nodes import SourceNode
from lsp_server.uris import make_uri

if TYPE_CHECKING:
    from adt.abap.lexer import Statement
    from adt.abap.structure import Block
    from adt.workbench import Workbench

Point = tuple[int, int]
#: Blocks a call can be made from (``BlockKind`` values: the ABAP structure loads with the
#: first call hierarchy, not at start-up).
_CALLERS = ("method", "form", "function", "module")

#: ``DATA(x)``, ``FINAL(x)``: inline declarations, not calls.
_INLINE = frozenset({"DATA", "FINAL"})

__all__ = ["CallHierarchy", "CallNode", "Calls"]


@dataclass(frozen=True)
class CallNode(SourceNode):
    """A method (form, function module, program) of a source."""

    what: ClassVar[str] = "call hierarchy"

    kind: str = "method"


@dataclass(frozen=True)
class Calls:
    """Calls between the item and ``node``: the ranges (line, start, end) of the calls, in
    the caller's document."""

    node: CallNode
    spans: tuple[tuple[int, int, int], ...]


class CallHierarchy(Feature):
    def _workbench(self, system: str) -> Workbench:
        return self.ctx.connections.workbench(system)

    async def _text(self, system: str, source_url: str) -> tuple[str, bool]:
        """The source as the editor has it (open buffer) or as saved, and which."""
        doc = self.ctx.documents.get(make_uri(system, source_url))
        if doc is not None:
            return doc.buffer.text, True
        read = await self.ctx.connections.service(system).get_source_v2(
            object_source_url=source_url
        )
        return read.content, False

    async def prepare(self, uri: str, point: Point) -> CallNode | None:
        """The method whose name is at ``point`` (its implementation), or ``None``."""
        doc = self.ctx.documents.require(uri)
        line, column = point
        start, end = word_at(doc.buffer.lines[line] if line < len(doc.buffer.lines) else "", column)
        if start == end:
            return None
        here = _block_at(doc.buffer.text, line + 1)
        if here is not None and here.header.line == line + 1:  # on METHOD name. itself
            return _node(doc.ref.system, doc.ref.source_url, here)
        found = await self._workbench(doc.ref.system).code.definition(
            doc.ref.source_url, doc.buffer.text, line + 1, start, implementation=True
        )
        if found is None:
            return None
        text, _ = await self._text(doc.ref.system, found.source_url)
        block = self._header(doc.ref.system, found.source_url, text, found.line - 1)
        return None if block is None else _node(doc.ref.system, found.source_url, block)

    async def incoming(self, item: CallNode) -> list[Calls]:
        """Every block that uses ``item``, with the places (where-used on saved sources)."""
        saved = self._saved_line(item)
        usages = await self._workbench(item.system).usages.all(
            item.source_url, line=saved + 1, column=item.column
        )
        texts: dict[str, str] = {}
        grouped: dict[tuple[str, int], tuple[CallNode, list[tuple[int, int, int]]]] = {}
        for usage in usages:
            if usage.source_url not in texts:
                texts[usage.source_url] = (await self._text(item.system, usage.source_url))[0]
            line = self._buffer_line(item.system, usage.source_url, usage.line - 1, False)
            block = _block_at(texts[usage.source_url], line + 1)
            if block is None or block.header.line == line + 1:
                continue  # a declaration, or the implementation's own METHOD statement
            caller = _node(item.system, usage.source_url, block)
            entry = grouped.setdefault((usage.source_url, block.header.line), (caller, []))
            entry[1].append((line, usage.column, usage.end_column))
        return [Calls(node, tuple(spans)) for node, spans in grouped.values()]

    async def outgoing(self, item: CallNode) -> list[Calls]:
        """What the body of ``item`` calls, each call resolved to its implementation."""
        text, _ = await self._text(item.system, item.source_url)
        block = _block_at(text, item.line + 1)
        if block is None:
            return []
        code = self._workbench(item.system).code
        grouped: dict[tuple[str, int], tuple[CallNode, list[tuple[int, int, int]]]] = {}
        for line, column, end in _call_sites(block.body):
            found = await code.definition(item.source_url, text, line, column, implementation=True)
            if found is None:
                continue
            same = found.source_url == item.source_url
            target_text = text if same else (await self._text(item.system, found.source_url))[0]
            callee = self._header(item.system, found.source_url, target_text, found.line - 1)
            if callee is None:
                continue
            node = _node(item.system, found.source_url, callee)
            entry = grouped.setdefault((found.source_url, callee.header.line), (node, []))
            entry[1].append((line - 1, column, end))
        return [Calls(node, tuple(spans)) for node, spans in grouped.values()]

    def _header(self, system: str, source_url: str, text: str, line: int) -> Block | None:
        """The method (form, …) whose opening statement is at ``line`` (0-based) of ``text``
        — as the answer says, or where that saved line is in the open buffer now (a
        system may answer in either coordinates)."""
        for candidate in dict.fromkeys((line, self._buffer_line(system, source_url, line, False))):
            block = _block_at(text, candidate + 1)
            if block is not None and block.header.line == candidate + 1:
                return block
        return None

    def _saved_line(self, item: CallNode) -> int:
        doc = self.ctx.documents.get(item.uri)
        if doc is None:
            return item.line
        base = doc.buffer.base_line(item.line)
        if base is None:
            raise InvalidArgument(
                f"where-used searches the saved source, and the line of {item.name} has "
                "unsaved changes: save first"
            )
        return base

    def _buffer_line(self, system: str, source_url: str, line: int, buffered: bool) -> int:
        """``line`` of a source in the open buffer's coordinates (``buffered``: it is
        already)."""
        doc = None if buffered else self.ctx.documents.get(make_uri(system, source_url))
        if doc is None:
            return line
        moved = doc.buffer.line_of_base(line)
        return moved if moved is not None else line


def _blocks(blocks: list[Block]) -> list[Block]:
    found = []
    for block in blocks:
        found.append(block)
        found.extend(_blocks(block.children))
    return found


def _block_at(text: str, line: int) -> Block | None:
    """The method, form, function module or module whose lines hold ``line`` (1-based)."""
    from adt.abap.lexer import lex
    from adt.abap.structure import structure

    unit = structure("unit", lex(text))
    for block in _blocks(unit.blocks):
        if block.kind in _CALLERS and block.first_line <= line <= block.last_line:
            return block
    return None


def _node(system: str, source_url: str, block: Block) -> CallNode:
    from adt.abap.lexer import adjacent

    token = block.name_token
    tokens = block.header.tokens
    if token is None:
        return CallNode(system, source_url, block.first_line - 1, 0, "?", block.kind.value)
    index = tokens.index(token)
    name = token.text  # METHOD zif_x~name: the whole name as written
    while (
        index + 2 < len(tokens)
        and tokens[index + 1].text == "~"
        and adjacent(tokens[index], tokens[index + 1])
    ):
        name += "~" + tokens[index + 2].text
        index += 2
    return CallNode(system, source_url, token.line - 1, token.column, name, block.kind.value)


def _call_sites(statements: list[Statement]) -> list[tuple[int, int, int]]:
    """(1-based line, column, end) of every called name: ``name(`` (methods, functional
    calls), ``CALL METHOD name``, ``PERFORM name``; ``CALL FUNCTION 'NAME'``'s literal."""
    from adt.abap.lexer import NAME, OP, adjacent

    sites = []
    for statement in statements:
        tokens = statement.tokens
        words = statement.words(2)
        for i, token in enumerate(tokens):
            called = (
                token.kind == NAME
                and token.text.upper() not in _INLINE
                and i + 1 < len(tokens)
                and tokens[i + 1].text.startswith("(")
                and adjacent(token, tokens[i + 1])
            )
            after = i > 0 and (
                (words[:2] == ["CALL", "METHOD"] and i == 2)
                or (words[:1] == ["PERFORM"] and i == 1)
                or (words[:2] == ["CALL", "FUNCTION"] and i == 2)
            )
            if (called or after) and token.kind != OP:
                sites.append((token.line, token.column, token.column + len(token.text)))
    return sites
