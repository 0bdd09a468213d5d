"""Where a named part of a source is: a method implementation, a class or interface block,
a section of a class definition, a form, a function module, a module or a macro.

Agents read and replace such parts by name (``symbol``) instead of by line numbers; this
module answers with whole-line ranges, and refuses a part that shares a line with code
outside it, since replacing its lines would change that code too.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass, replace

from adt.abap.lexer import Statement, Token, adjacent, lex
from adt.abap.structure import Block, BlockKind, structure

SECTIONS = ("PUBLIC", "PROTECTED", "PRIVATE")

_KINDS = {
    BlockKind.CLASS_DEFINITION: "class definition",
    BlockKind.CLASS_IMPLEMENTATION: "class implementation",
    BlockKind.INTERFACE: "interface",
    BlockKind.METHOD: "method",
    BlockKind.FORM: "form",
    BlockKind.FUNCTION: "function",
    BlockKind.MACRO: "macro",
    BlockKind.MODULE: "module",
}


@dataclass(frozen=True)
class SymbolRange:
    """A named part of a source: ``name`` as agents write it (``lcl_x=>method`` for a
    method, ``lcl_x definition``, ``zcl_x public section``), 1-based inclusive lines."""

    kind: str
    name: str
    start_line: int
    end_line: int
    shares_line: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "symbol": self.name,
            "kind": self.kind,
            "startLine": self.start_line,
            "endLine": self.end_line,
        }


class SymbolLookupError(LookupError):
    """No part, or several, answer to a name; ``candidates`` are the names to choose from."""

    def __init__(self, message: str, candidates: tuple[str, ...]) -> None:
        super().__init__(message)
        self.candidates = candidates


class SymbolNotFoundError(SymbolLookupError):
    pass


class AmbiguousSymbolError(SymbolLookupError):
    pass


def symbols(text: str) -> list[SymbolRange]:
    """Every named part of ``text`` in text order (outer parts before inner ones)."""
    return list(_symbols(text))


@functools.lru_cache(maxsize=8)
def _symbols(text: str) -> tuple[SymbolRange, ...]:
    """Cached: a read by name and the write that follows it (under the lock, on the same
    text) scan a large source once."""
    lexed = lex(text)
    unit = structure("", lexed)
    spans = [span for block in unit.blocks for span in _walk(block, "")]
    covering: dict[int, list[Statement]] = {}
    for statement in lexed.statements:
        for line in range(statement.line, statement.last_line + 1):
            covering.setdefault(line, []).append(statement)
    return tuple(_with_sharing(part, first, last, covering) for part, first, last in spans)


def find_symbol(text: str, name: str) -> SymbolRange:
    """The one part ``name`` means. Case does not matter; a method may be named alone when
    only one class implements a method of that name, and a class alone when only one of
    its blocks (definition, implementation) exists."""
    wanted = " ".join(name.replace("=>", " => ").split()).lower().replace(" => ", "=>")
    parts = symbols(text)
    exact = [p for p in parts if p.name.lower() == wanted]
    if not exact:
        exact = [p for p in parts if wanted in _short_names(p.name)]
    if len(exact) == 1:
        return exact[0]
    names = tuple(p.name for p in parts)
    if not exact:
        raise SymbolNotFoundError(f"no part of the source is named {name!r}", names)
    raise AmbiguousSymbolError(
        f"{name!r} names {len(exact)} parts; use one of the full names",
        tuple(p.name for p in exact),
    )


def _short_names(qualified: str) -> set[str]:
    """Shorter names of a part: ``lcl_x=>zif_y~m`` → ``zif_y~m``, ``m``;
    ``lcl_x definition`` → ``lcl_x``."""
    lowered = qualified.lower()
    if "=>" in lowered:
        method = lowered.rsplit("=>", 1)[1]
        return {method, method.rsplit("~", 1)[-1]}
    head, _, tail = lowered.rpartition(" ")
    if tail in ("definition", "implementation") and head and " " not in head:
        return {head}
    return set()


def _full_name(block: Block, first: Token) -> str:
    """The name as written, joined over ``~`` and ``/`` (``zif_x~meth``, ``/ns/cl_y``)."""
    tokens = block.header.tokens
    index = tokens.index(first)
    name = first.text
    while index + 1 < len(tokens) and adjacent(tokens[index], tokens[index + 1]):
        following = tokens[index + 1]
        if following.text in (".", ",", ":", "("):
            break
        name += following.text
        index += 1
    return name.lower()


_Span = tuple[SymbolRange, Token, Token]
"""A part with the first and last token that belong to it."""


def _span(kind: str, name: str, first: Statement, last: Statement) -> _Span:
    return SymbolRange(kind, name, first.line, last.last_line), first.tokens[0], last.tokens[-1]


def _walk(block: Block, owner: str) -> Iterator[_Span]:
    token = block.name_token
    if token is None:
        return
    name = _full_name(block, token)
    kind = _KINDS[block.kind]
    last = block.end or _last_statement(block)
    if block.kind is BlockKind.METHOD:
        yield _span(kind, f"{owner}=>{name}" if owner else name, block.header, last)
        return
    if block.kind is BlockKind.CLASS_DEFINITION:
        yield _span(kind, f"{name} definition", block.header, last)
        yield from _sections(block, name)
    elif block.kind is BlockKind.CLASS_IMPLEMENTATION:
        yield _span(kind, f"{name} implementation", block.header, last)
    else:
        yield _span(kind, name, block.header, last)
    if block.kind is BlockKind.INTERFACE:
        yield from _declared_methods(block, name)
    for child in block.children:
        yield from _walk(child, name)


def _declared_methods(block: Block, owner: str) -> Iterator[_Span]:
    """An interface's methods have no implementation of their own: each one's declaration
    is the part ``zif_x=>m``; one of a chain (``METHODS: a, b.``) shares its line."""
    on_line: dict[int, int] = {}
    for statement in block.body:
        for line in {statement.line, statement.last_line}:
            on_line[line] = on_line.get(line, 0) + 1
    for statement in block.body:
        words = statement.words(2)
        if len(words) < 2 or words[0] not in ("METHODS", "CLASS-METHODS"):
            continue
        part, first, last = _span(
            "method declaration", f"{owner}=>{words[1].lower()}", statement, statement
        )
        shared = on_line[statement.line] > 1 or on_line[statement.last_line] > 1
        yield (replace(part, shares_line=True) if shared else part), first, last


def _last_statement(block: Block) -> Statement:
    """The last statement of a block the text leaves open."""
    inner = [*block.body, *(c.end or _last_statement(c) for c in block.children)]
    return max([block.header, *inner], key=lambda s: (s.last_line, s.tokens[-1].column))


def _sections(block: Block, owner: str) -> Iterator[_Span]:
    """A section runs from its ``X SECTION.`` to the statement before the next section (or
    before ``ENDCLASS``); its lines end just before the next section's line."""
    body = block.body
    starts = [i for i, s in enumerate(body) if _is_section(s)]
    closing = block.end.line if block.end is not None else block.last_line + 1
    for at, following in zip(starts, [*starts[1:], None], strict=True):
        current = body[at]
        inside = body[at : following if following is not None else len(body)]
        last = inside[-1]
        next_line = body[following].line if following is not None else closing
        part = SymbolRange(
            "section",
            f"{owner} {current.first.lower()} section",
            current.line,
            max(next_line - 1, last.last_line, current.line),
        )
        yield part, current.tokens[0], last.tokens[-1]


def _is_section(statement: Statement) -> bool:
    return statement.first in SECTIONS and statement.words(2)[1:] == ["SECTION"]


def _with_sharing(
    part: SymbolRange, first: Token, last: Token, covering: dict[int, list[Statement]]
) -> SymbolRange:
    """Mark a part whose lines also hold a statement outside it: one that starts before its
    first token or ends after its last (only statements on its first or last line can)."""
    begin, finish = (first.line, first.column), (last.line, last.end)
    edges = covering.get(part.start_line, []) + covering.get(part.end_line, [])
    for statement in edges:
        head, tail = statement.tokens[0], statement.tokens[-1]
        if (head.line, head.column) < begin or (tail.line, tail.end) > finish:
            return SymbolRange(part.kind, part.name, part.start_line, part.end_line, True)
    return part


__all__ = [
    "AmbiguousSymbolError",
    "SymbolLookupError",
    "SymbolNotFoundError",
    "SymbolRange",
    "find_symbol",
    "symbols",
]
