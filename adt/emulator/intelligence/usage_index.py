"""The where-used index of a repository: per program, where each symbol is used.

A real system keeps a where-used index that activation updates; it does not re-compile the
code base on each query. This is the emulator's. A query for a symbol called N looks at the
programs whose text holds N as a word; each is resolved once per text for what lies outside
method bodies, and once per name for the method bodies that mention the name
(:class:`~.program_usages.ProgramUsages`). The next query for N costs a few dictionary
look-ups per program.

A program's entry is dropped when its own text changes (its signature no longer matches),
when a source it points into changes (the keys of that source's symbols move), and when a
changed or new object's name occurs in its text (a name that resolved to nothing may now
resolve). :meth:`UsageIndex.forget` is told which objects changed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from adt.abap.index import Unit

from .layout import Layout
from .program_usages import Found, Hits, ProgramUsages, Searched, bare_name, word
from .repository import Program, Repository

__all__ = ["Found", "Layout", "ProgramUsages", "Searched", "UsageIndex"]


class UsageIndex:
    """The where-used index of one repository: :class:`ProgramUsages` per program root."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._programs: dict[str, ProgramUsages] = {}
        self._searched: dict[str, Searched] = {}  # unit → its text as searched for names

    def __len__(self) -> int:
        return len(self._programs)

    def cached(self, program: Program) -> ProgramUsages | None:
        """The program's entry if it is up to date."""
        stored = self._programs.get(program.root.uri)
        return stored if stored is not None and stored.signature == program.signature else None

    def of(
        self, program: Program, name: str, texts: dict[str, Hits] | None = None
    ) -> ProgramUsages:
        """The program's entry with the symbols called ``name`` resolved (now, if they were
        not yet or the entry is out of date); ``texts``: its units that hold the name."""
        stored = self.cached(program)
        if stored is None:
            stored = self._programs[program.root.uri] = ProgramUsages.build(program, self.repo)
        bare = bare_name(name)
        if bare not in stored.names:
            found = texts if texts is not None else self._holding(program, word(name))
            stored.add(program, self.repo, bare, found)
        return stored

    def candidates(self, name: str) -> Iterator[tuple[Program, ProgramUsages]]:
        """Every program that may use a symbol called ``name`` (its text holds the word),
        with its entry for that name."""
        pattern = word(name)
        with self.repo.sweep():
            for program in self.repo.programs():
                texts = self._holding(program, pattern)
                if texts:
                    yield program, self.of(program, name, texts)

    def searched(self, unit: Unit) -> Searched:
        """A unit's text as it is searched (and its lines read) by where-used."""
        searched = self._searched.get(unit.id)
        if searched is None:
            searched = self._searched[unit.id] = Searched.of(unit.text)
        return searched

    def _holding(self, program: Program, pattern: re.Pattern[str]) -> dict[str, Hits]:
        """The program's units that hold the name ``pattern`` matches, and where."""
        found: dict[str, Hits] = {}
        for unit in program.units:
            searched = self.searched(unit)
            if searched.holds(pattern):
                found[unit.id] = Hits(searched, pattern)
        return found

    def forget(self, changed: Iterable[tuple[str, str]]) -> None:
        """Drop the entries a change of these ``(object URI, object name)`` can affect."""
        changed = list(changed)
        if not changed:
            return
        self._searched.clear()
        uris = {uri for uri, _ in changed}
        names = [name for _, name in changed if name]
        pattern = (
            re.compile("|".join(re.escape(n) for n in names), re.IGNORECASE) if names else None
        )
        for root, stored in list(self._programs.items()):
            touched = any(_object_uri(unit) in uris for unit in (*stored.units, *stored.depends))
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
