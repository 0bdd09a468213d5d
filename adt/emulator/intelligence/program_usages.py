"""What where-used keeps of one program: every symbol's usages outside method bodies, and
inside them for the names asked for so far.

A program is resolved in two steps. Once per text, with every method body blanked (see
:mod:`.bodies`): its declarations, the types they name, forms, function modules, the code
outside blocks and each ``METHOD`` statement — little of the text in a class pool, and all
of it that any name's usages depend on. Then, for each name a query asks for, only the
method bodies that mention that name as a word are lexed and resolved, in the scopes the
first step declared: names declared in one body are invisible in every other, and an
occurrence of a symbol is a token that spells its name, so no usage of a symbol called N
is in a body that does not mention N. The resolver is the same as for a whole program, so
the answers are those of resolving the whole program. The first step's declarations are
the program's declaration-only index as well (:meth:`.Repository.declared`): other
programs look its global names up there, and it is declared once for both.

Kept, compact: per symbol key a flat array of ``(unit, line, column, length, flags)``, the
layout of a class's main source, the ``METHOD`` statements whose bodies were left out, and
the program's scope tree to resolve them in (its statements and texts are let go).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from adt.abap.declarations import Sink
from adt.abap.lexer import Statement, lex
from adt.abap.resolver import Resolver
from adt.abap.structure import Block, BlockKind
from adt.abap.symbols import DATA_KINDS, Occurrence, Scope, Symbol

from ..model import CLAS
from .layout import Layout
from .repository import Program, Repository

_ROLES = ("reference", "implementation", "declaration")
_WRITE, _DATA = 4, 8
_FIELDS = 5  # unit, line, column, length, flags

Key = tuple[str, int, int] | tuple[str, str]
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_%$/")
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


@lru_cache(maxsize=512)
def word(name: str) -> re.Pattern[str]:
    """``name`` in lower-cased text, not followed by a character of a longer name (the
    character before is checked by :meth:`Searched.holds`: a look-behind here would keep
    the regular expression engine from scanning for the literal)."""
    bare = re.escape(name.lstrip("<").rstrip(">").lower())
    return re.compile(f"{bare}(?![a-z0-9_%$])")


@dataclass(frozen=True)
class Searched:
    """A unit's text in lower case and where its lines start: searched for a name on
    every where-used."""

    text: str  # canonical line ends
    lowered: str  # the same length: a case change that would alter it is left out

    @classmethod
    def of(cls, text: str) -> Searched:
        text = text.replace("\r\n", "\n")
        lowered = text.lower()
        if len(lowered) != len(text):
            lowered = text.translate(_ASCII_LOWER)
        return cls(text, lowered)

    @cached_property
    def starts(self) -> array[int]:
        """The offset of line n (1-based) at index n - 1: counted the first time a line is
        read, which most units a where-used scans for a name never are."""
        return array("l", [0, *[match.end() for match in re.finditer("\n", self.text)]])

    def holds(self, pattern: re.Pattern[str], start: int = 0, end: int | None = None) -> bool:
        """Whether ``pattern`` (a :func:`word`) matches as a whole word between the offsets
        ``start`` and ``end``."""
        lowered = self.lowered
        end = len(lowered) if end is None else end
        match = pattern.search(lowered, start, end)
        while match is not None:
            found = match.start()
            if found == 0 or lowered[found - 1] not in _NAME_CHARS:
                return True
            match = pattern.search(lowered, found + 1, end)
        return False

    def line(self, number: int) -> str:
        """Line ``number`` (1-based; empty past the end)."""
        if not 0 < number <= len(self.starts):
            return ""
        start, end = self.lines(number, number)
        return self.text[start:end].rstrip("\n")

    def lines(self, first: int, last: int) -> tuple[int, int]:
        """The offsets of lines ``first`` … ``last`` (1-based, inclusive)."""
        end = self.starts[last] if last < len(self.starts) else len(self.text)
        return self.starts[first - 1], end


@dataclass(frozen=True)
class Hits:
    """A unit that holds a name: where in it the name is looked for next."""

    searched: Searched
    pattern: re.Pattern[str]

    def mentioned(self, statement: Statement) -> bool:
        """Whether a line of ``statement`` holds the name."""
        return self.within(statement.line, statement.last_line)

    def within(self, first: int, last: int) -> bool:
        """Whether lines ``first`` … ``last`` (1-based) hold the name."""
        return first <= last and self.searched.holds(
            self.pattern, *self.searched.lines(first, last)
        )


def bare_name(name: str) -> str:
    return name.lstrip("<").rstrip(">").upper()


@dataclass(frozen=True)
class Found:
    """One stored occurrence of a symbol, as where-used reads it back."""

    unit: str
    line: int
    column: int
    length: int
    role: str
    write: bool
    data: bool

    @property
    def end(self) -> int:
        return self.column + self.length

    @property
    def is_usage(self) -> bool:
        return self.role in ("reference", "implementation")

    def occurrence(self, symbol: Symbol) -> Occurrence:
        return Occurrence(
            symbol, self.unit, self.line, self.column, self.length, self.role, self.write
        )


@dataclass(frozen=True)
class Implementation:
    """A ``CLASS … IMPLEMENTATION`` whose method bodies the first step left out."""

    unit: str
    header: Statement
    methods: tuple[tuple[Statement, Statement], ...]  # METHOD and ENDMETHOD statements


@dataclass
class ProgramUsages:
    """Where-used's entry for one program text."""

    signature: tuple[tuple[str, int], ...]
    units: tuple[str, ...]
    records: dict[Key, array[int]]
    layouts: dict[str, Layout]
    depends: set[str]
    scope: Scope
    implementations: tuple[Implementation, ...]
    names: set[str] = field(default_factory=set)

    @classmethod
    def build(cls, program: Program, repo: Repository) -> ProgramUsages:
        """The first step: the program with every method body blanked."""
        index = repo.declared(program)
        index.resolve()
        layouts = {}
        if program.root.kind is CLAS:
            main = program.root.source_uri("main")
            layouts[main] = Layout.of(index, main)
        implementations = tuple(
            Implementation(
                structure.unit,
                block.header,
                tuple(
                    (method.header, method.end)
                    for method in block.children
                    if method.end is not None and not method.body
                ),
            )
            for structure in index.structures
            for block in structure.blocks
            if block.kind is BlockKind.CLASS_IMPLEMENTATION
        )
        entry = cls(
            program.signature,
            tuple(index.unit_ids),
            {},
            layouts,
            set(),
            index.program,
            tuple(i for i in implementations if i.methods),
        )
        entry.record(index.occurrences())
        index.keep_declarations_only()  # its scopes stay (the bodies resolve in them)
        return entry

    def add(self, program: Program, repo: Repository, name: str, texts: dict[str, Hits]) -> None:
        """The second step for the symbols called ``name`` (bare, upper case); ``texts``:
        the units that hold it as a word."""
        if name in self.names:
            return
        sink = Sink()
        resolver = Resolver(self.scope, sink, set(self.units))
        headers: set[tuple[str, int]] = set()  # found by the first step already
        for implementation in self.implementations:
            hits = texts.get(implementation.unit)
            children = self._bodies(implementation, hits) if hits is not None else []
            if hits is not None and children:
                headers.update(_lines(implementation.unit, implementation.header))
                for child in children:
                    headers.update(_lines(implementation.unit, child.header))
                resolver.unit, resolver.docs = implementation.unit, {}
                resolver.wanted = hits.mentioned
                resolver.block(
                    Block(
                        BlockKind.CLASS_IMPLEMENTATION,
                        implementation.unit,
                        implementation.header,
                        children=children,
                    )
                )
        seen: set[tuple[str, int, int]] = set()
        found: list[Occurrence] = []
        for occ in sorted(sink.occurrences, key=lambda o: (o.unit, o.line, o.column)):
            place = (occ.unit, occ.line, occ.column)
            if place not in seen and (occ.unit, occ.line) not in headers:
                seen.add(place)
                if bare_name(occ.symbol.name) == name:
                    found.append(occ)
        self.record(found, merge=True)
        self.names.add(name)

    @staticmethod
    def _bodies(implementation: Implementation, hits: Hits) -> list[Block]:
        """The left-out method bodies that hold the name, lexed."""
        blocks = []
        for header, end in implementation.methods:
            first, last = header.last_line + 1, end.line - 1  # the body's lines (1-based)
            if hits.within(first, last):
                start, stop = hits.searched.lines(first, last)
                body = lex(hits.searched.text[start:stop], first).statements
                blocks.append(Block(BlockKind.METHOD, implementation.unit, header, body, end=end))
        return blocks

    def record(self, occurrences: Iterable[Occurrence], *, merge: bool = False) -> None:
        """Add occurrences (in text order) to the records; ``merge``: some symbols may
        have records already, whose order is then restored."""
        position = {unit: number for number, unit in enumerate(self.units)}
        records = self.records
        touched: set[Key] = set()
        for occ in occurrences:
            if occ.role not in _ROLES or occ.unit not in position:
                continue
            flags = _ROLES.index(occ.role) | (_WRITE if occ.write else 0)
            flags |= _DATA if occ.symbol.kind in DATA_KINDS else 0
            key = occ.symbol.key
            stored = records.get(key)
            if stored is None:
                stored = records[key] = array("i")
                location = occ.symbol.location
                if location is not None and location.unit not in position:
                    self.depends.add(location.unit)
            elif merge:
                touched.add(key)  # found before, outside the bodies resolved now
            stored.extend((position[occ.unit], occ.line, occ.column, occ.length, flags))
        for key in touched:
            self.records[key] = self._ordered(self.records[key])

    def _ordered(self, stored: array[int]) -> array[int]:
        rows = [stored[i : i + _FIELDS] for i in range(0, len(stored), _FIELDS)]
        rows.sort(key=lambda row: (self.units[row[0]], row[1], row[2]))
        return array("i", [value for row in rows for value in row])

    def found(self, key: Key) -> Iterator[Found]:
        """The stored occurrences of a symbol (complete once its name was added)."""
        stored = self.records.get(key)
        for i in range(0, len(stored) if stored is not None else 0, _FIELDS):
            assert stored is not None
            unit, line, column, length, flags = stored[i : i + _FIELDS]
            yield Found(
                self.units[unit],
                line,
                column,
                length,
                _ROLES[flags & 3],
                bool(flags & _WRITE),
                bool(flags & _DATA),
            )


def _lines(unit: str, statement: Statement) -> Iterator[tuple[str, int]]:
    return ((unit, n) for n in range(statement.line, statement.last_line + 1))
