"""The where-used index: for every program, where each symbol is used, built once per text.

A real system keeps a where-used index that activation updates; it does not re-compile the
code base on each query. This is the emulator's: a program is indexed (lexed, declared,
resolved) the first time a query needs it, and what where-used answers from is kept in a
compact form — per symbol key a flat array of ``(unit, line, column, length, flags)``, the
layout of a class's main source (method implementations, sections) and the units the
program's symbols point into — while the full index is let go. A query then costs a few
dictionary look-ups per program.

A program's entry is dropped when its own text changes (its signature no longer matches),
when a source it points into changes (the keys of that source's symbols move), and when a
changed or new object's name occurs in its text (a name that resolved to nothing may now
resolve). :meth:`UsageIndex.forget` is told which objects changed.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from adt.abap.index import ProgramIndex
from adt.abap.symbols import DATA_KINDS, Occurrence, ScopeKind, Symbol

from ..model import CLAS
from .repository import Program, Repository

_SECTION = re.compile(r"^\s*(PUBLIC|PROTECTED|PRIVATE)\s+SECTION\s*\.", re.IGNORECASE)
_CLASS_END = re.compile(r"^\s*ENDCLASS\s*\.", re.IGNORECASE)
_ROLES = ("reference", "implementation", "declaration")
_WRITE, _DATA = 4, 8
_FIELDS = 5  # unit, line, column, length, flags

Key = tuple[str, int, int] | tuple[str, str]


@dataclass(frozen=True)
class Layout:
    """A class's main source: method implementations (in order) and definition sections."""

    methods: list[tuple[int, int, str]]
    sections: list[tuple[int, str]]
    definition_end: int

    @classmethod
    def of(cls, index: ProgramIndex, unit: str) -> Layout:
        regions = sorted(
            (r for r in index.regions if r.unit == unit and r.scope.kind is ScopeKind.METHOD),
            key=lambda r: r.first,
        )
        sections: list[tuple[int, str]] = [(1, "PUBLIC")]  # CLASS … DEFINITION is public
        end = 0
        for number, text in enumerate(index.lines.get(unit, []), start=1):
            match = _SECTION.match(text)
            if match:
                sections.append((number, match.group(1).upper()))
            elif _CLASS_END.match(text):
                end = number
                break
        methods = [(r.first, r.last, r.scope.name) for r in regions]
        return cls(methods, sections, end)

    def section(self, line: int) -> str | None:
        """The visibility section of the global class definition that holds ``line``."""
        if line > self.definition_end:
            return None
        return next(name for start, name in reversed(self.sections) if start <= line)


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


@dataclass
class ProgramUsages:
    """What where-used needs of one program, compact."""

    signature: tuple[tuple[str, int], ...]
    units: tuple[str, ...]
    records: dict[Key, array[int]]
    layouts: dict[str, Layout]
    depends: frozenset[str]

    @classmethod
    def build(cls, program: Program, repo: Repository) -> ProgramUsages:
        index = ProgramIndex(program.name, program.units, repo)
        units = tuple(index.unit_ids)
        position = {unit: number for number, unit in enumerate(units)}
        records: dict[Key, array[int]] = {}
        depends: set[str] = set()
        for occ in index.occurrences():
            if occ.role not in _ROLES or occ.unit not in position:
                continue
            flags = _ROLES.index(occ.role) | (_WRITE if occ.write else 0)
            flags |= _DATA if occ.symbol.kind in DATA_KINDS else 0
            key = occ.symbol.key
            stored = records.get(key)
            if stored is None:
                stored = records[key] = array("i")
                if occ.symbol.location is not None:
                    depends.add(occ.symbol.location.unit)
            stored.extend((position[occ.unit], occ.line, occ.column, occ.length, flags))
        layouts = {}
        if program.root.kind is CLAS:
            main = program.root.source_uri("main")
            layouts[main] = Layout.of(index, main)
        return cls(program.signature, units, records, layouts, frozenset(depends - set(units)))

    def found(self, key: Key) -> Iterator[Found]:
        stored = self.records.get(key)
        for i in range(0, len(stored) if stored is not None else 0, _FIELDS):
            assert stored is not None
            unit, line, column, length, flags = stored[i : i + _FIELDS]
            role = _ROLES[flags & 3]
            yield Found(
                self.units[unit],
                line,
                column,
                length,
                role,
                bool(flags & _WRITE),
                bool(flags & _DATA),
            )


class UsageIndex:
    """The where-used index of one repository: :class:`ProgramUsages` per program root."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._programs: dict[str, ProgramUsages] = {}

    def __len__(self) -> int:
        return len(self._programs)

    def cached(self, program: Program) -> ProgramUsages | None:
        """The program's entry if it is up to date."""
        stored = self._programs.get(program.root.uri)
        return stored if stored is not None and stored.signature == program.signature else None

    def of(self, program: Program) -> ProgramUsages:
        """The program's entry, built now if it is missing or out of date."""
        stored = self.cached(program)
        if stored is None:
            stored = ProgramUsages.build(program, self.repo)
            self._programs[program.root.uri] = stored
        return stored

    def candidates(self, needle: str) -> Iterator[tuple[Program, ProgramUsages]]:
        """Every program that may use a symbol named ``needle``: an indexed one always (its
        records answer), another one only if its text contains the name."""
        pattern = re.compile(re.escape(needle), re.IGNORECASE)
        for program in self.repo.programs():
            stored = self.cached(program)
            if stored is None and not any(pattern.search(u.text) for u in program.units):
                continue
            yield program, stored or self.of(program)

    def forget(self, changed: Iterable[tuple[str, str]]) -> None:
        """Drop the entries a change of these ``(object URI, object name)`` can affect."""
        changed = list(changed)
        if not changed:
            return
        uris = {uri for uri, _ in changed}
        names = [name for _, name in changed if name]
        pattern = (
            re.compile("|".join(re.escape(n) for n in names), re.IGNORECASE) if names else None
        )
        for root, stored in list(self._programs.items()):
            touched = any(
                _object_uri(unit) in uris for unit in stored.units + tuple(stored.depends)
            )
            if touched or (pattern is not None and self._mentions(root, pattern)):
                del self._programs[root]

    def _mentions(self, root: str, pattern: re.Pattern[str]) -> bool:
        obj = self.repo.state.find(root)
        if obj is None:
            return True
        return any(pattern.search(unit.text) for unit in self.repo.program(obj).units)


def _object_uri(unit: str) -> str:
    """``…/oo/classes/zcl_x/includes/testclasses`` → ``…/oo/classes/zcl_x``."""
    for marker in ("/source/", "/includes/"):
        if marker in unit:
            return unit.split(marker, 1)[0]
    return unit
