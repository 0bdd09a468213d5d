"""The part of a program a request at one cursor needs: every method body blanked except the
one the cursor is in, indexed without indexing the whole text again.

An editor posts its whole unsaved text with each completion, element-info or navigation
request, and every keystroke makes it a text no index has seen. What the answer at a cursor
depends on is the program's declarations and the statements of the method around the
cursor: names declared in another method body are not visible there. So each method
implementation the cursor is not in keeps its ``METHOD`` and ``ENDMETHOD`` lines (the
method's region, its implementation location) and has the lines between replaced by empty
ones — line numbers stay. Forms, function modules and code outside methods are kept as
they are.

:class:`FocusedIndexes` keeps, per program, the index of that text with *every* body blanked
(the skeleton) and answers each request from it plus the cursor's body alone
(:mod:`adt.abap.incremental`): typing inside a method body leaves the skeleton as it was, a
line typed or deleted there only moves the positions below it. Any other change (a
declaration, a method added or renamed) builds the skeleton again.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from adt.abap.incremental import own_symbols, relocate, with_body
from adt.abap.index import ProgramIndex, Unit
from adt.abap.symbols import Symbol

from .bodies import Skeleton, blank
from .repository import Program, Repository

#: Skeleton indexes kept (least recently asked go first): the objects a user works in. Each
#: holds its program's declarations only (about 3 MB for 10,000 lines of which 550 methods).
_PROGRAMS = 32
_LINES = 250_000


def blank_bodies(text: str, keep_line: int = 0) -> str:
    """``text`` with the bodies of its method implementations emptied, except the one
    that holds line ``keep_line`` (1-based; 0 keeps none)."""
    return blank(text, lambda lines, start, end: start < keep_line <= end + 1)


def focused(program: Program, unit: str, line: int) -> Program:
    """``program`` as a request at ``line`` of ``unit`` needs it."""
    units = tuple(
        Unit(u.id, blank_bodies(u.text, line if u.id == unit else 0)) for u in program.units
    )
    return Program(program.name, program.root, units)


@dataclass
class _Base:
    """The resolved index of a program's skeleton and the bodies it was last placed for."""

    shapes: tuple[str, ...]
    bodies: dict[str, tuple[tuple[int, int], ...]]
    index: ProgramIndex = field(repr=False)
    symbols: list[Symbol] = field(repr=False)  # those it declared (the ones that move)
    lines: int = 0


class FocusedIndexes:
    """Indexes of posted texts at a cursor, from kept skeletons (one per recent program)."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._bases: OrderedDict[str, _Base] = OrderedDict()
        #: Unit → (its text, skeleton): of stored texts, and of the last text posted.
        self._stored: dict[str, tuple[str, Skeleton]] = {}
        self._posted: dict[str, tuple[str, Skeleton]] = {}
        #: Skeleton indexes built, and requests answered from the whole focused text instead.
        self.built = self.whole = 0
        #: Skeleton indexes resolve names against the repository: a changed source
        #: anywhere may change what they resolved to.
        repo.listeners.append(lambda changed: self._bases.clear())

    def index(self, program: Program, unit: str, text: str, line: int) -> ProgramIndex:
        """What ``ProgramIndex`` of ``focused(program.with_text(unit, text), unit, line)``
        would be (``program`` as stored, ``text`` the posted one)."""
        stored = [self._skeleton(self._stored, u.id, u.text, ()) for u in program.units]
        before = [s for s in stored if s.unit == unit]
        cursor = self._skeleton(self._posted, unit, text, before)
        skeletons = [cursor if s.unit == unit else s for s in stored]
        edited = program.with_text(unit, text)
        base = self._base(edited, skeletons)
        body = cursor.body_at(line)
        if body is None:
            return base
        found = with_body(base, unit, cursor.lines, *body)
        if found is None:  # not a method block of the index: the whole focused text
            self.whole += 1
            return self.repo.scratch_index(focused(edited, unit, line))
        return found

    @staticmethod
    def unresolved(program: Program) -> tuple[list[Skeleton], ProgramIndex]:
        """The skeletons of ``program``'s texts and their index before names are resolved:
        lexing and declaring read nothing but the texts, so this may run outside the state
        lock (:mod:`.prepared`); :meth:`install` resolves it."""
        skeletons = [Skeleton.of(u.id, u.text) for u in program.units]
        units = [Unit(s.unit, "\n".join(s.blanked)) for s in skeletons]
        return skeletons, ProgramIndex(program.name, units, resolve=False)

    def install(self, program: Program, skeletons: list[Skeleton], index: ProgramIndex) -> None:
        """Keep ``index`` (from :meth:`unresolved` of ``program`` as stored), resolved against
        the repository, as the skeleton index the first request whose text differs from the
        stored one inside method bodies starts from. Nothing when one is kept already."""
        for unit, skeleton in zip(program.units, skeletons, strict=True):
            self._stored[unit.id] = (unit.text, skeleton)
        base = self._bases.get(program.root.uri)
        if base is None or base.shapes != tuple(s.shape for s in skeletons):
            index.library = self.repo
            self._keep(program.root.uri, skeletons, index)

    def has_base(self, program: Program) -> bool:
        """Whether a skeleton index of ``program`` is kept (for any texts)."""
        return program.root.uri in self._bases

    def _skeleton(
        self,
        kept: dict[str, tuple[str, Skeleton]],
        unit: str,
        text: str,
        others: Sequence[Skeleton],
    ) -> Skeleton:
        """The skeleton of ``text``: kept, or derived from the last one kept for ``unit`` or
        from ``others`` (the stored text's) when the text differs inside one body only (an
        editor's versions do; each posted text is often the stored one with one method
        changed), else scanned."""
        cached = kept.get(unit)
        if cached is not None and cached[0] == text:
            return cached[1]
        candidates = [*([cached[1]] if cached is not None else []), *others]
        found = next((e for c in candidates if (e := c.edited(unit, text)) is not None), None)
        skeleton = found or Skeleton.of(unit, text)
        if len(kept) > 256:
            kept.clear()
        kept[unit] = (text, skeleton)
        return skeleton

    def _base(self, program: Program, skeletons: list[Skeleton]) -> ProgramIndex:
        key = program.root.uri
        shapes = tuple(s.shape for s in skeletons)
        base = self._bases.get(key)
        if base is None or base.shapes != shapes:
            units = [Unit(s.unit, "\n".join(s.blanked)) for s in skeletons]
            base = self._keep(key, skeletons, ProgramIndex(program.name, units, self.repo))
        for skeleton in skeletons:
            before = base.bodies.get(skeleton.unit, ())
            if before != skeleton.bodies:
                moved = _mapping(before, skeleton.bodies)
                relocate(base.index, skeleton.unit, moved, skeleton.blanked, base.symbols)
                base.bodies[skeleton.unit] = skeleton.bodies
        self._bases.move_to_end(key)
        self._evict()
        return base.index

    def _keep(self, key: str, skeletons: list[Skeleton], index: ProgramIndex) -> _Base:
        """Resolve ``index`` (of ``skeletons``) and keep it as the base of program ``key``."""
        index.keep_answers_only()
        self.built += 1
        bodies = {s.unit: s.bodies for s in skeletons}
        size = sum(len(s.lines) for s in skeletons)
        shapes = tuple(s.shape for s in skeletons)
        base = self._bases[key] = _Base(shapes, bodies, index, list(own_symbols(index)), size)
        self._bases.move_to_end(key)
        self._evict()
        return base

    def _evict(self) -> None:
        """Least recently asked skeletons go first, beyond the programs' and lines' limits."""
        while len(self._bases) > _PROGRAMS or (
            len(self._bases) > 1 and sum(b.lines for b in self._bases.values()) > _LINES
        ):
            self._bases.popitem(last=False)


def _mapping(
    before: tuple[tuple[int, int], ...], after: tuple[tuple[int, int], ...]
) -> Callable[[int], int]:
    """Old line → new line (1-based) when the bodies (same ones, same order) changed length:
    a line below a body moves as that body's ``ENDMETHOD`` did."""
    starts = [start + 2 for start, _ in before]  # a body's first line, 1-based
    changed = next(
        (n for n, pair in enumerate(zip(before, after, strict=True)) if pair[0] != pair[1]), 0
    )
    first = starts[changed] if starts else 0  # nothing above the first changed body moves

    def moved(line: int) -> int:
        if line < first:
            return line
        k = bisect_right(starts, line)
        return line if k == 0 else line + after[k - 1][1] - before[k - 1][1]

    return moved
