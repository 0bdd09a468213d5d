"""The layout of a class's main source as where-used reads it: which method implementation
or definition section a line is in (the member rows and include names of SAP's answer)."""

from __future__ import annotations

import re
from dataclasses import dataclass

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

    def section(self, line: int) -> str | None:
        """The visibility section of the global class definition that holds ``line``."""
        if line > self.definition_end:
            return None
        return next(name for start, name in reversed(self.sections) if start <= line)
