"""The repository as code intelligence sees it: ABAP programs assembled from stored sources,
indexed with :mod:`adt.abap` and cached until a source changes.

A program is what the ABAP compiler compiles as one: a class pool (the class's ``main``
source and its local includes), an interface pool, a report with the includes it names,
a function group (its main program, includes and function modules). Each unit of a
program is identified by its ADT source URI. Texts are the version a user sees: the
inactive one when there is one, the active one otherwise.

:class:`Repository` is also the :class:`~adt.abap.index.Library` every index asks for
global names; it answers from declaration-only indexes, so building one program's index
never needs another one resolved.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from urllib.parse import unquote

from adt.abap.index import ProgramIndex, Unit
from adt.abap.symbols import Location, Symbol, SymbolKind

from .. import errors
from ..model import CLAS, FINC, FUGR, FUNC, INCL, INTF, PROG, Kind, RepoObject
from ..state import SystemState
from .bodies import blank, none

_INCLUDE = re.compile(
    r"^\s*INCLUDE\s+([\w/]+)\s*(?:IF\s+FOUND\s*)?\.", re.IGNORECASE | re.MULTILINE
)
_FULL_CACHE = 24
_GLOBAL_KINDS = (CLAS, INTF, FUNC, INCL, FINC, PROG)


@dataclass(frozen=True)
class Program:
    """One compilation unit of the repository: its SAP program name, root object, units."""

    name: str
    root: RepoObject
    units: tuple[Unit, ...]

    @property
    def signature(self) -> tuple[tuple[str, int], ...]:
        return tuple((unit.id, hash(unit.text)) for unit in self.units)

    def with_text(self, unit_id: str, text: str) -> Program:
        units = tuple(Unit(u.id, text) if u.id == unit_id else u for u in self.units)
        return Program(self.name, self.root, units)


def pool_name(name: str, suffix: str) -> str:
    """``ZCL_X`` → ``ZCL_X=========================CP`` (30 characters plus the suffix)."""
    return name.ljust(30, "=") + suffix


def visible_text(obj: RepoObject, part: str) -> str | None:
    unit = obj.parts.get(part)
    picked = unit.pick(None) if unit is not None else None
    return picked[0].text if picked is not None else None


class Repository:
    """Programs, indexes and global names over the emulator's state."""

    def __init__(self, state: SystemState) -> None:
        self.state = state
        self._declarations: dict[str, tuple[object, ProgramIndex]] = {}
        self._full: OrderedDict[str, list[tuple[object, ProgramIndex]]] = OrderedDict()
        self._scratch: OrderedDict[str, tuple[object, ProgramIndex]] = OrderedDict()
        self._names: dict[tuple[str, str], RepoObject] = {}
        self._globals: dict[str, Symbol | None] = {}
        self._seen: frozenset[tuple[str, str, int, int]] = frozenset()
        self._by_name: dict[str, Program] = {}
        self._programs: list[Program] = []
        self._owners: dict[str, tuple[RepoObject, str] | None] = {}
        self._sweep: dict[str, ProgramIndex] | None = None  # see :meth:`sweep`
        self._includes: dict[int, tuple[str, tuple[str, ...]]] = {}  # id(text) →
        #: Told which objects (URI, name) changed since the last refresh.
        self.listeners: list[Callable[[list[tuple[str, str]]], None]] = []

    def refresh(self) -> None:
        """Re-read the name tables, and drop every index once any source has changed:
        symbols of one program cache what their types resolve to in others."""
        self._names = {}
        for obj in self.state.objects.values():
            self._names.setdefault((obj.kind.code, obj.name), obj)
        self._globals = {}
        generation = self._generation()
        if generation != self._seen:
            changed = sorted({entry[0] for entry in generation ^ self._seen})
            self._seen = generation
            self._declarations.clear()
            self._full.clear()
            self._scratch.clear()
            self._by_name = {}
            self._programs = []
            self._owners = {}
            self._includes = {}
            named = [(uri, self._object_name(uri)) for uri in changed]
            for listener in self.listeners:
                listener(named)

    def _object_name(self, uri: str) -> str:
        obj = self.state.find(uri)
        return obj.name if obj is not None else unquote(uri.rstrip("/").rsplit("/", 1)[-1])

    def _generation(self) -> frozenset[tuple[str, str, int, int]]:
        versions: set[tuple[str, str, int, int]] = set()
        for obj in self.state.objects.values():
            for unit in obj.parts.values():
                picked = unit.pick(None)
                if picked is not None:
                    version = picked[0]
                    versions.add((obj.uri, unit.part, version.changed_at, len(version.text)))
        return frozenset(versions)

    def named(self, name: str, *kinds: Kind) -> RepoObject | None:
        for kind in kinds:
            found = self._names.get((kind.code, name.upper()))
            if found is not None:
                return found
        return None

    # programs --------------------------------------------------------------------------
    def program(self, obj: RepoObject, context: RepoObject | None = None) -> Program:
        """The program ``obj`` belongs to (for an include: ``context`` or the first report
        that includes it)."""
        if obj.kind in (FUNC, FINC) and obj.group is not None:
            group = self.named(obj.group, FUGR)
            if group is not None:
                return self._group(group)
        if obj.kind is FUGR:
            return self._group(obj)
        if obj.kind is INCL:
            main = context if context is not None and context.kind is PROG else None
            main = main or self.main_program(obj)
            if main is not None:
                return self._report(main)
        if obj.kind is PROG:
            return self._report(obj)
        suffix = {CLAS.code: "CP", INTF.code: "IP"}.get(obj.kind.code)
        name = pool_name(obj.name, suffix) if suffix else obj.name
        units = [
            Unit(obj.source_uri(u.part), text)
            for u in obj.ordered_parts()
            if (text := visible_text(obj, u.part)) is not None
        ]
        return Program(name, obj, tuple(units))

    def _report(self, report: RepoObject) -> Program:
        units: list[Unit] = []
        for obj in [report, *self.includes_of(report)]:
            text = visible_text(obj, "main")
            if text is not None:
                units.append(Unit(obj.source_uri("main"), text))
        return Program(report.name, report, tuple(units))

    def _group(self, group: RepoObject) -> Program:
        members = sorted(
            (o for o in self.state.objects.values() if o.group == group.name),
            key=lambda o: (o.kind is FUNC, o.name),
        )
        units: list[Unit] = []
        for obj in [group, *members]:
            text = visible_text(obj, "main")
            if text is not None:
                units.append(Unit(obj.source_uri("main"), text))
        return Program("SAPL" + group.name, group, tuple(units))

    def includes_of(self, report: RepoObject) -> list[RepoObject]:
        """The includes a report names, recursively, in order of appearance."""
        found: list[RepoObject] = []
        queue = [report]
        while queue:
            text = visible_text(queue.pop(0), "main") or ""
            for name in self._included_names(text):
                include = self.named(name, INCL)
                if include is not None and include not in found and include is not report:
                    found.append(include)
                    queue.append(include)
        return found

    def _included_names(self, text: str) -> tuple[str, ...]:
        """The names of a source's ``INCLUDE`` statements, in order; kept until a source
        changes (a stored text is the same string from request to request: the scan took
        55 ms of every request on a 100,000-line report)."""
        cached = self._includes.get(id(text))
        if cached is not None and cached[0] is text:
            return cached[1]
        names = tuple(_INCLUDE.findall(text))
        if len(self._includes) > 512:
            self._includes.clear()
        self._includes[id(text)] = (text, names)
        return names

    def main_program(self, include: RepoObject) -> RepoObject | None:
        for obj in sorted(self.state.objects.values(), key=lambda o: o.name):
            if obj.kind is PROG and include in self.includes_of(obj):
                return obj
        return None

    def programs(self) -> Iterator[Program]:
        """Every program of the repository once (includes inside their report), assembled
        once until a source changes."""
        if not self._programs:
            seen: set[str] = set()
            for obj in sorted(self.state.objects.values(), key=lambda o: o.uri):
                program = self.program(obj)
                if program.root.uri not in seen:
                    seen.add(program.root.uri)
                    self._programs.append(program)
        return iter(self._programs)

    def program_named(self, name: str) -> Program | None:
        """The program called ``name`` (``ZCL_X=====CP``, ``SAPLZFG``, a report)."""
        if not self._by_name:
            self._by_name = {program.name: program for program in self.programs()}
        return self._by_name.get(name.upper())

    # indexes ---------------------------------------------------------------------------
    def declarations(self, program: Program) -> ProgramIndex:
        signature = program.signature
        cached = self._declarations.get(program.root.uri)
        if cached is not None and cached[0] == signature:
            return cached[1]
        # pass one never enters a method body: blanked, they cost neither lexing nor memory
        units = [Unit(unit.id, blank(unit.text, none)) for unit in program.units]
        index = ProgramIndex(program.name, units, self, resolve=False)
        if self._sweep is not None:  # where-used may resolve it next: keep its statements
            self._sweep[program.root.uri] = index
        else:
            index.keep_declarations_only()  # a library answers from symbols; the text can go
        self._declarations[program.root.uri] = (signature, index)
        return index

    @contextmanager
    def sweep(self) -> Iterator[None]:
        """While where-used resolves many programs: the declaration-only indexes built
        meanwhile keep their statements, so that :meth:`declared` takes them over instead
        of declaring those programs again; what it did not take lets them go at the end."""
        outer = self._sweep is not None
        if not outer:
            self._sweep = {}
        try:
            yield
        finally:
            if not outer and self._sweep is not None:
                for index in self._sweep.values():
                    index.keep_declarations_only()
                self._sweep = None

    def declared(self, program: Program) -> ProgramIndex:
        """Pass one of ``program`` with its method bodies blanked, its statements kept for
        the caller to resolve (where-used's first step). It is the program's declaration-only
        index too while there is none, so that resolving it does not declare the program a
        second time to look up its own global name (``TYPE REF TO zcl_self``); the caller
        lets its statements go (:meth:`ProgramIndex.keep_declarations_only`) when done."""
        cached = self._declarations.get(program.root.uri)
        current = cached is not None and cached[0] == program.signature
        kept = self._sweep.pop(program.root.uri, None) if self._sweep is not None else None
        if kept is not None and current and cached is not None and cached[1] is kept:
            return kept
        units = [Unit(unit.id, blank(unit.text, none)) for unit in program.units]
        index = ProgramIndex(program.name, units, self, resolve=False)
        if not current:
            self._declarations[program.root.uri] = (program.signature, index)
        return index

    def scratch_index(self, program: Program) -> ProgramIndex:
        """The resolved index of a text an editor posted (one per program, a few programs):
        kept apart so that a stream of versions never pushes out a stored text's index."""
        signature = program.signature
        cached = self._scratch.get(program.root.uri)
        if cached is not None and cached[0] == signature:
            self._scratch.move_to_end(program.root.uri)
            return cached[1]
        index = ProgramIndex(program.name, program.units, self)
        self._scratch[program.root.uri] = (signature, index)
        self._scratch.move_to_end(program.root.uri)
        while len(self._scratch) > 4:
            self._scratch.popitem(last=False)
        return index

    def index(self, program: Program) -> ProgramIndex:
        """The resolved index of ``program``: kept for a few recent programs, the two most
        recent texts of each (the stored one, one an editor posted), so that an editor
        typing into a large object does not fill the cache with its versions."""
        versions = self._full.get(program.root.uri, [])
        signature = program.signature
        found = next((index for sig, index in versions if sig == signature), None)
        if found is None:
            found = ProgramIndex(program.name, program.units, self)
        versions = [(signature, found), *[v for v in versions if v[0] != signature]][:2]
        self._full[program.root.uri] = versions
        self._full.move_to_end(program.root.uri)
        while len(self._full) > _FULL_CACHE:
            self._full.popitem(last=False)
        return found

    # the library -----------------------------------------------------------------------
    def global_symbol(self, name: str) -> Symbol | None:
        if name not in self._globals:
            self._globals[name] = self._find_global(name)
        return self._globals[name]

    def _find_global(self, name: str) -> Symbol | None:
        obj = self.named(name, *_GLOBAL_KINDS)
        if obj is None:
            return None
        if obj.kind in (INCL, FINC):
            return Symbol(
                SymbolKind.INCLUDE,
                obj.name,
                Location(obj.source_uri("main"), 1, 0),
                None,
                description=obj.description,
                is_global=True,
            )
        return self.declarations(self.program(obj)).symbol(obj.name)

    def global_names(self, prefix: str) -> list[Symbol]:
        wanted = prefix.upper()
        found = [
            self.global_symbol(name)
            for (code, name) in sorted(self._names)
            if code in (CLAS.code, INTF.code) and name.startswith(wanted)
        ]
        return [symbol for symbol in found if symbol is not None]

    # units -----------------------------------------------------------------------------
    def existing_unit(self, path: str) -> tuple[RepoObject, str]:
        """The object and part of a source URI that exists now (the tables caught up with
        every write first); else the 404 a system answers, naming the last segment."""
        self.refresh()
        resolved = self.unit_owner(path)
        if resolved is None or resolved[1] not in resolved[0].parts:
            raise errors.not_found(None, path.rsplit("/", 1)[-1].upper())
        return resolved

    def unit_owner(self, unit_id: str) -> tuple[RepoObject, str] | None:
        """The object and part of a source URI (remembered until a source changes)."""
        if unit_id in self._owners:
            return self._owners[unit_id]
        resolved = self.state.resolve(unit_id)
        owner = (resolved[0], resolved[1] or "main") if resolved is not None else None
        if len(self._owners) > 20_000:
            self._owners.clear()
        self._owners[unit_id] = owner
        return owner
