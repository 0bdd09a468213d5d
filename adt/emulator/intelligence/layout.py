"""The layout of a class's main source as where-used reads it: which method implementation
or definition section a line is in (the member rows and include names of SAP's answer)."""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from functools import cached_property

from adt.abap.index import ProgramIndex
from adt.abap.symbols import ScopeKind

_SECTION = re.compile(r"^\s*(PUBLIC|PROTECTED|PRIVATE)\s+SECTION\s*\.", re.IGNORECASE)
_CLASS_END = re.compile(r"^\s*ENDCLASS\s*\.", re.IGNORECASE)


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

    def method_at(self, line: int) -> tuple[int, str] | None:
        """The method implementation (number from 1, name) whose lines hold ``line``: the
        first in text order."""
        methods = self.methods
        index = bisect_right(self._firsts, line) - 1
        if index < 0:
            return None
        if self._overlapping:  # an unclosed block runs on: the first that holds it wins
            holding = (i for i, (first, last, _) in enumerate(methods) if first <= line <= last)
            index = next(holding, -1)
            return (index + 1, methods[index][2]) if index >= 0 else None
        first, last, name = methods[index]
        return (index + 1, name) if first <= line <= last else None

    @cached_property
    def _firsts(self) -> list[int]:
        return [first for first, _, _ in self.methods]

    @cached_property
    def _overlapping(self) -> bool:
        return any(a[1] >= b[0] for a, b in zip(self.methods, self.methods[1:], strict=False))

    def section(self, line: int) -> str | None:
        """The visibility section of the global class definition that holds ``line``."""
        if line > self.definition_end:
            return None
        index = bisect_right(self._section_starts, line) - 1
        return self.sections[max(index, 0)][1]

    @cached_property
    def _section_starts(self) -> list[int]:
        return [start for start, _ in self.sections]
