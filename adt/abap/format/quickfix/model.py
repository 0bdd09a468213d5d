"""The shared vocabulary of the quick fixes: proposals, edits, and the site they look at."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adt.abap.format.blocks import EVENT, Block
from adt.abap.format.pretty import PrinterSettings, Source
from adt.abap.format.tokens import Token, TokenStatement

#: Blocks whose statements are executable code.
PROCEDURES = frozenset({"METHOD", "FORM", "FUNCTION", "MODULE", EVENT})


@dataclass(frozen=True)
class Fix:
    """One proposal: its kind (``adtcore:type``), the id that ends its URI, its menu title
    and an HTML description."""

    kind: str
    id: str
    name: str
    description: str


@dataclass(frozen=True)
class Edit:
    """Replace ``start``–``end`` (``end`` None: insert at ``start``) by ``content`` (LF)."""

    start: tuple[int, int]
    end: tuple[int, int] | None
    content: str
    label: str


@dataclass(frozen=True)
class FixEdits:
    """The edits of one fix, and where the cursor goes afterwards (in the edited text)."""

    edits: tuple[Edit, ...]
    selection: tuple[int, int] | None = None


@dataclass(frozen=True)
class Site:
    """What a fix looks at: the source, the statement and token at the position."""

    source: Source
    index: int
    token: Token | None
    context: tuple[Source, ...]
    settings: PrinterSettings
    lines: list[str]

    @property
    def statement(self) -> TokenStatement:
        return self.source.statements[self.index]


def case(token: Token, word: str) -> str:
    """``word`` in the case ``token`` is written in (generated code matches its neighbour)."""
    return word.lower() if token.text.islower() else word.upper()


def end_of(statement: TokenStatement) -> tuple[int, int]:
    """Line and column just after a statement's last token (its period)."""
    last = statement.last
    return last.line, last.column + len(last.text.split("\n")[-1])


def find_class(source: Source, name: str, part: str) -> Block | None:
    """The closed ``CLASS name DEFINITION|IMPLEMENTATION`` block of a source, if any."""
    for block in source.layout.blocks:
        words = source.statements[block.start].words
        if block.kind == "CLASS" and words[1:3] == [name, part] and block.end is not None:
            return block
    return None


def class_name(site: Site) -> str | None:
    """The class a ``CLASS``/``METHODS``/``METHOD`` statement at the position belongs to."""
    words = site.statement.words
    if words[:1] == ["CLASS"] and len(words) > 2:
        return words[1]
    for block in site.source.layout.chain(site.index):
        if block.kind == "CLASS":
            return site.source.statements[block.start].words[1]
    return None


def text_of(lines: Sequence[str], statement: TokenStatement) -> str:
    """The text of a statement, from its first token to its period (LF between lines)."""
    first = statement.first
    end_line, end_column = end_of(statement)
    if first.line == end_line:
        return lines[first.line - 1][first.column : end_column]
    middle = list(lines[first.line : end_line - 1])
    return "\n".join(
        [lines[first.line - 1][first.column :], *middle, lines[end_line - 1][:end_column]]
    )
