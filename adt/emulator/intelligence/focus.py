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
from collections.abc import Callable
from dataclasses import dataclass, field

from adt.abap.incremental import relocate, with_body
from adt.abap.index import ProgramIndex, Unit

from .bodies import blank, method_bodies
from .repository import Program, Repository

_PROGRAMS = 4  # skeletons kept: the objects a user is typing in


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


@dataclass(frozen=True)
class Skeleton:
    """One unit with every method body blanked (line numbers kept)."""

    unit: str
    lines: list[str]  # the unit's own lines
    blanked: list[str]  # the same with the bodies emptied
    #: The text without the bodies' lines: equal shapes differ only by blank lines in bodies.
    shape: str
    bodies: tuple[tuple[int, int], ...]  # (last line of METHOD, ENDMETHOD line), 0-based

    @classmethod
    def of(cls, unit: Unit) -> Skeleton:
        text = unit.text.replace("\r\n", "\n")
        lines = text.split("\n")
        bodies = tuple(method_bodies(lines, text))
        blanked = lines[:]
        kept: list[str] = []
        previous = 0
        for start, end in bodies:
            blanked[start + 1 : end] = [""] * (end - start - 1)
            kept += lines[previous : start + 1]
            previous = end
        kept += lines[previous:]
        return cls(unit.id, lines, blanked, "\n".join(kept), bodies)

    def body_at(self, line: int) -> tuple[int, int] | None:
        """The non-empty body a request at ``line`` (1-based) keeps, as :func:`focused`."""
        found = bisect_right(self.bodies, (line - 1, len(self.lines)))
        if found:
            start, end = self.bodies[found - 1]
            if end > start + 1 and start < line <= end + 1:
                return start, end
        return None


@dataclass
class _Base:
    """The resolved index of a program's skeleton and the bodies it was last placed for."""

    shapes: tuple[str, ...]
    bodies: dict[str, tuple[tuple[int, int], ...]]
    index: ProgramIndex = field(repr=False)


class FocusedIndexes:
    """Indexes of posted texts at a cursor, from kept skeletons (one per recent program)."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self._bases: OrderedDict[str, _Base] = OrderedDict()
        self._skeletons: dict[str, tuple[str, Skeleton]] = {}  # unit → (its text, skeleton)
        #: Skeleton indexes built, and requests answered from the whole focused text instead.
        self.built = self.whole = 0
        #: Skeleton indexes resolve names against the repository: a changed source
        #: anywhere may change what they resolved to.
        repo.listeners.append(lambda changed: self._bases.clear())

    def index(self, program: Program, unit: str, line: int) -> ProgramIndex:
        """What ``ProgramIndex`` of ``focused(program, unit, line)`` would be."""
        skeletons = [self._skeleton(u) for u in program.units]
        base = self._base(program, skeletons)
        cursor = next((s for s in skeletons if s.unit == unit), None)
        body = cursor.body_at(line) if cursor is not None else None
        if cursor is None or body is None:
            return base
        found = with_body(base, unit, cursor.lines, *body)
        if found is None:  # not a method block of the index: the whole focused text
            self.whole += 1
            return self.repo.scratch_index(focused(program, unit, line))
        return found

    def _skeleton(self, unit: Unit) -> Skeleton:
        cached = self._skeletons.get(unit.id)
        if cached is not None and cached[0] == unit.text:
            return cached[1]
        skeleton = Skeleton.of(unit)
        if len(self._skeletons) > 64:
            self._skeletons.clear()
        self._skeletons[unit.id] = (unit.text, skeleton)
        return skeleton

    def _base(self, program: Program, skeletons: list[Skeleton]) -> ProgramIndex:
        key = program.root.uri
        shapes = tuple(s.shape for s in skeletons)
        base = self._bases.get(key)
        if base is None or base.shapes != shapes:
            units = [Unit(s.unit, "\n".join(s.blanked)) for s in skeletons]
            index = ProgramIndex(program.name, units, self.repo)
            index.keep_answers_only()
            self.built += 1
            base = _Base(shapes, {s.unit: s.bodies for s in skeletons}, index)
            self._bases[key] = base
        for skeleton in skeletons:
            before = base.bodies.get(skeleton.unit, ())
            if before != skeleton.bodies:
                relocate(
                    base.index, skeleton.unit, _mapping(before, skeleton.bodies), skeleton.blanked
                )
                base.bodies[skeleton.unit] = skeleton.bodies
        self._bases.move_to_end(key)
        while len(self._bases) > _PROGRAMS:
            self._bases.popitem(last=False)
        return base.index


def _mapping(
    before: tuple[tuple[int, int], ...], after: tuple[tuple[int, int], ...]
) -> Callable[[int], int]:
    """Old line → new line (1-based) when the bodies (same ones, same order) changed length:
    a line below a body moves as that body's ``ENDMETHOD`` did."""
    starts = [start + 2 for start, _ in before]  # a body's first line, 1-based

    def moved(line: int) -> int:
        k = bisect_right(starts, line)
        return line if k == 0 else line + after[k - 1][1] - before[k - 1][1]

    return moved
