"""The symbol index of one ABAP program (a class pool, an interface pool, a report with its
includes, a function group): built from the texts of its units, without any I/O.

``ProgramIndex(name, units, library)`` lexes every unit, declares (pass one) and resolves
(pass two). Names the program does not declare are asked of the ``library`` — the
repository's global classes, interfaces, function modules and includes, which the caller
provides (usually as declaration-only indexes of other programs, ``resolve=False``, so that
building one index never needs another one resolved).

Queries: the occurrence at a position, a symbol's usages and declaration, the scope and
the component context at a position (for completion).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from adt.abap.declarations import Declarer, Sink
from adt.abap.lexer import lex
from adt.abap.resolver import Region, Resolver
from adt.abap.structure import UnitStructure, structure
from adt.abap.symbols import Occurrence, Scope, ScopeKind, Symbol


@dataclass(frozen=True)
class Unit:
    """One source of a program: an id the caller chooses (e.g. its ADT source URI) and text."""

    id: str
    text: str


class Library(Protocol):
    """The repository as the index sees it."""

    def global_symbol(self, name: str) -> Symbol | None:
        """The global class, interface, function module or include called ``name``."""

    def global_names(self, prefix: str) -> list[Symbol]:
        """Global classes and interfaces whose names start with ``prefix`` (for completion)."""


class ProgramIndex:
    """Declarations and resolved occurrences of one program."""

    def __init__(
        self,
        name: str,
        units: Sequence[Unit],
        library: Library | None = None,
        *,
        resolve: bool = True,
    ) -> None:
        self.name = name.upper()
        self.library = library
        self.unit_ids = [unit.id for unit in units]
        self.program = Scope(ScopeKind.PROGRAM, self.name, globals=self._global)
        self.sink = Sink()
        self.lines: dict[str, list[str]] = {}
        self._structures: list[UnitStructure] = []
        for unit in units:
            lexed = lex(unit.text)
            self.lines[unit.id] = lexed.lines
            self._structures.append(structure(unit.id, lexed))
        Declarer(self.program, self.sink).run(self._structures)
        self.regions: list[Region] = []
        self.contexts: dict[tuple[str, int, int], Symbol] = {}
        #: Occurrences by (unit, line), each list in column order.
        self.by_line: dict[tuple[str, int], list[Occurrence]] = {}
        self._resolved = False
        if resolve:
            self.resolve()

    def _global(self, name: str) -> Symbol | None:
        return self.library.global_symbol(name) if self.library is not None else None

    def resolve(self) -> None:
        """Pass two (once)."""
        if self._resolved:
            return
        self._resolved = True
        resolver = Resolver(self.program, self.sink, set(self.unit_ids))
        resolver.run(self._structures)
        self.regions = resolver.regions
        self.contexts = resolver.contexts
        seen: set[tuple[str, int, int]] = set()
        for occ in sorted(self.sink.occurrences, key=lambda o: (o.unit, o.line, o.column)):
            if (occ.unit, occ.line, occ.column) not in seen:
                seen.add((occ.unit, occ.line, occ.column))
                self.by_line.setdefault((occ.unit, occ.line), []).append(occ)

    def keep_declarations_only(self) -> None:
        """Let the text, statements and declaration occurrences go, keeping the symbols: all
        an index that only answers other programs' look-ups needs (it can no longer be
        resolved or asked for occurrences)."""
        self._resolved = True
        self._structures = []
        self.sink = Sink()
        self.lines = {}

    def keep_answers_only(self) -> None:
        """Let the statements go once resolved (their tokens are most of an index's memory):
        the queries below answer from symbols, occurrences, regions and contexts."""
        self.resolve()
        self._structures = []
        self.sink = Sink()

    def derived(
        self,
        lines: dict[str, list[str]],
        regions: list[Region],
        contexts: dict[tuple[str, int, int], Symbol],
        by_line: dict[tuple[str, int], list[Occurrence]],
    ) -> ProgramIndex:
        """A resolved copy that shares this index's scopes and symbols and answers from
        these positions instead (:mod:`adt.abap.incremental` adds one method body)."""
        view = copy.copy(self)
        view.lines, view.regions, view.contexts, view.by_line = lines, regions, contexts, by_line
        view._structures, view.sink, view._resolved = [], Sink(), True
        return view

    @property
    def structures(self) -> list[UnitStructure]:
        """The block structure of each unit (empty once only declarations are kept)."""
        return self._structures

    # occurrences -----------------------------------------------------------------------
    def occurrences(self, unit: str | None = None) -> Iterator[Occurrence]:
        """Every occurrence (of one unit), in text order."""
        for (occ_unit, _), found in sorted(self.by_line.items()):
            if unit is None or occ_unit == unit:
                yield from found

    def occurrence_at(self, unit: str, line: int, column: int) -> Occurrence | None:
        """The identifier a cursor at (line, column) is on; touching its end counts."""
        candidates = self.by_line.get((unit, line), [])
        inside = [o for o in candidates if o.column <= column < o.end]
        if inside:
            return inside[0]
        touching = [o for o in candidates if o.end == column]
        return touching[0] if touching else None

    def usages(self, symbol: Symbol) -> list[Occurrence]:
        """Where ``symbol`` is used in this program (references and implementations)."""
        key = symbol.key
        return [o for o in self.occurrences() if o.is_usage and o.symbol.key == key]

    def declarations(self) -> list[Occurrence]:
        return [o for o in self.occurrences() if o.role == "declaration"]

    def symbol(self, name: str) -> Symbol | None:
        """A name declared at program level (a class, a form, a global variable …)."""
        return self.program.local(name)

    # completion support ----------------------------------------------------------------
    def scope_at(self, unit: str, line: int) -> Scope:
        """The innermost scope whose lines contain ``line``; the program scope otherwise."""
        best: Region | None = None
        for region in self.regions:
            inside = region.unit == unit and region.first <= line <= region.last
            if inside and (best is None or region.last - region.first < best.last - best.first):
                best = region
        return best.scope if best is not None else self.program

    def context_at(self, unit: str, line: int, column: int) -> Symbol | None:
        """What a component name right after the selector at (line, column) is looked up in
        (the class behind ``lo->``, the interface of ``zif~``)."""
        return self.contexts.get((unit, line, column))

    def line_text(self, unit: str, line: int) -> str:
        lines = self.lines.get(unit, [])
        return lines[line - 1] if 0 < line <= len(lines) else ""


__all__ = ["Library", "ProgramIndex", "Unit"]
