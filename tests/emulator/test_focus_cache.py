"""The kept skeleton index (every method body blanked) plus the body at the cursor answers as
a cold index of the focused text does, through a session of edits: typing in a body, lines
added and deleted in bodies (positions below move), a method added, a declaration moved to
another section (the skeleton is built again), an edit in another unit of the pool."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from adt.abap.completion import complete
from adt.abap.index import ProgramIndex, Unit
from adt.abap.lexer import NAME, lex
from adt.abap.symbols import Scope, Symbol
from adt.emulator import Emulator
from adt.emulator.intelligence.bodies import Skeleton
from adt.emulator.intelligence.focus import FocusedIndexes, focused
from adt.emulator.intelligence.repository import Program, Repository
from adt.emulator.model import CLAS

GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
MAIN = f"{GREETER}/source/main"
LOCALS = f"{GREETER}/includes/implementations"


@pytest.fixture(scope="module")
def repo() -> Repository:
    repository = Repository(Emulator().state)
    repository.refresh()
    return repository


@pytest.fixture(scope="module")
def program(repo: Repository) -> Program:
    obj = repo.named("ZCL_DEMO_GREETER", CLAS)
    assert obj is not None
    return repo.program(obj)


def _text(program: Program, unit: str) -> list[str]:
    return next(u.text for u in program.units if u.id == unit).split("\n")


def _replace(lines: list[str], old: str, *new: str) -> list[str]:
    """``lines`` with the (one) line holding ``old`` replaced by ``new`` (none: deleted)."""
    at = [n for n, line in enumerate(lines) if old in line]
    assert len(at) == 1, old
    return [*lines[: at[0]], *new, *lines[at[0] + 1 :]]


def _line(lines: list[str], text: str) -> int:
    return next(n for n, line in enumerate(lines, start=1) if text in line)


def _sig(symbol: Symbol | None) -> object:
    if symbol is None:
        return None
    scope = symbol.scope.name if symbol.scope is not None else None
    return (symbol.kind, symbol.name, symbol.location, symbol.implementation, symbol.typing, scope)


def _declared(scope: Scope, seen: set[int]) -> Iterator[object]:
    for symbol in scope.symbols.values():
        yield _sig(symbol)
        if symbol.members is not None and id(symbol.members) not in seen:
            seen.add(id(symbol.members))
            yield from _declared(symbol.members, seen)


def _snapshot(index: ProgramIndex) -> dict[str, object]:
    """Everything an answer is read from, with positions."""
    return {
        "occurrences": [
            (o.unit, o.line, o.column, o.length, o.role, o.write, _sig(o.symbol))
            for o in index.occurrences()
        ],
        "regions": [
            (r.unit, r.first, r.last, r.scope.kind, r.scope.name, sorted(r.scope.symbols))
            for r in index.regions
        ],
        "contexts": sorted((key, _sig(value)) for key, value in index.contexts.items()),
        "declared": list(_declared(index.program, set())),
        "lines": index.lines,
    }


def _proposals(index: ProgramIndex, unit: str, line: int, column: int) -> list[object]:
    found = complete(index, unit, line, column, limit=10_000).proposals
    return [(p.identifier, _sig(p.symbol)) for p in found]


def _check(
    cache: FocusedIndexes, program: Program, unit: str, text: list[str], cursors: list[int]
) -> None:
    edited = program.with_text(unit, "\n".join(text))
    for line in cursors:
        cold = ProgramIndex(edited.name, focused(edited, unit, line).units, cache.repo)
        warm = cache.index(program, unit, "\n".join(text), line)
        assert _snapshot(warm) == _snapshot(cold), (line, text[line - 1])
        column = len(text[line - 1])
        assert _proposals(warm, unit, line, column) == _proposals(cold, unit, line, column)


def test_a_session_of_edits_answers_as_a_cold_index(repo: Repository, program: Program) -> None:
    cache = FocusedIndexes(repo)
    text = _text(program, MAIN)
    outside = _line(text, "METHODS greet_all")
    # typing inside a body: the skeleton stays
    text = _replace(text, "_demo_append_line lv_line", "      lv_line = mo_formatter->capitalize(")
    _check(cache, program, MAIN, text, [_line(text, "mo_formatter->capitalize("), outside])
    _check(cache, program, MAIN, text, [_line(text, "mv_salutation = iv_salutation")])
    assert (cache.built, cache.whole) == (1, 0)
    # lines added in the first body, one deleted in the second: every position below moves
    text = _replace(
        text,
        "mv_salutation = iv_salutation.",
        "    DATA lv_count TYPE i.",
        "    lv_count = strlen( iv_salutation ).",
        "    mv_salutation = iv_salutation.",
    )
    text = _replace(text, '" An empty name greets everybody')
    cursors = [_line(text, "lv_count = strlen"), _line(text, "DATA(lv_line)"), outside]
    _check(cache, program, MAIN, text, cursors)
    _check(cache, program, MAIN, text, [_line(text, "rv_text = |{ mv_salutation }, {")])
    assert (cache.built, cache.whole) == (1, 0)
    # a method added (declaration and implementation): the skeleton is built again
    text = _replace(
        text,
        "  PROTECTED SECTION.",
        "    METHODS shout IMPORTING iv_text TYPE string RETURNING VALUE(rv_text) TYPE string.",
        "  PROTECTED SECTION.",
    )
    text = _replace(
        text,
        "  METHOD greet_all.",
        "  METHOD shout.",
        "    rv_text = to_upper( iv_text ).",
        "    DATA(lv_len) = strlen( rv_text ).",
        "  ENDMETHOD.",
        "  METHOD greet_all.",
    )
    _check(cache, program, MAIN, text, [_line(text, "DATA(lv_len)"), _line(text, "DATA(lv_line)")])
    assert (cache.built, cache.whole) == (2, 0)
    # a declaration moved to another section
    text = _replace(text, "DATA mv_salutation TYPE string.")
    text = _replace(
        text, "  PROTECTED SECTION.", "  PROTECTED SECTION.", "    DATA mv_salutation TYPE string."
    )
    _check(cache, program, MAIN, text, [_line(text, "lv_count = strlen"), outside])
    assert (cache.built, cache.whole) == (3, 0)


def test_an_edit_in_another_unit_moves_only_that_unit(repo: Repository, program: Program) -> None:
    cache = FocusedIndexes(repo)
    text = _text(program, LOCALS)
    _check(cache, program, LOCALS, text, [_line(text, "RETURN.")])
    text = _replace(text, "RETURN.", "      DATA(lv_first) = iv_text(1).", "      RETURN.")
    _check(cache, program, LOCALS, text, [_line(text, "to_upper"), _line(text, "lv_first")])
    assert (cache.built, cache.whole) == (1, 0)


REPORT = """REPORT zdemo_focus.
CLASS lcl_a DEFINITION.
  PUBLIC SECTION.
    METHODS run RETURNING VALUE(rv_count) TYPE i.
ENDCLASS.
CLASS lcl_a IMPLEMENTATION.
  METHOD run.
    DATA lv_seed TYPE i.
    rv_count = lv_seed + 1.
  ENDMETHOD.
ENDCLASS.
CLASS lcl_b DEFINITION.
  PUBLIC SECTION.
    DATA mo_a TYPE REF TO lcl_a.
    METHODS go IMPORTING iv_times TYPE i.
ENDCLASS.
CLASS lcl_b IMPLEMENTATION.
  METHOD go.
    DATA(lv_count) = mo_a->run( ).
    lv_count = lv_count * iv_times.
  ENDMETHOD.
ENDCLASS.
DATA go_b TYPE REF TO lcl_b.
START-OF-SELECTION.
  go_b = NEW #( ).
  go_b->go( 1 ).
FORM again USING pv_times TYPE i.
  DATA(lv_count) = go_b->mo_a->run( ).
ENDFORM."""


def test_declarations_and_calls_below_a_grown_body_move(repo: Repository, program: Program) -> None:
    """A report whose second class, global data, event block and form stand below the body
    typed into: their symbols, occurrences, regions and member contexts all move."""
    cache = FocusedIndexes(repo)
    report = Program("ZDEMO_FOCUS", program.root, (Unit(MAIN, REPORT),))
    text = REPORT.split("\n")
    _check(cache, report, MAIN, text, [_line(text, "DATA lv_seed")])
    text = _replace(
        text,
        "DATA lv_seed",
        "    DATA lv_seed TYPE i.",
        "    DATA lv_step TYPE i.",
        "    lv_step = 2.",
    )
    cursors = [_line(text, "lv_step = 2"), _line(text, "mo_a->run( )."), _line(text, "go_b->go")]
    _check(cache, report, MAIN, text, [*cursors, _line(text, "go_b->mo_a->run")])
    text = _replace(text, "lv_step = 2.")
    text = _replace(text, "DATA lv_step TYPE i.")
    text = _replace(
        text,
        "lv_count * iv_times",
        "    lv_count = lv_count * iv_times.",
        "    go_b->go( lv_count ).",
    )
    _check(
        cache, report, MAIN, text, [_line(text, "go_b->go( lv_count"), _line(text, "go_b->mo_a")]
    )
    assert (cache.built, cache.whole) == (1, 0)


def test_an_unfinished_statement_before_endmethod_keeps_the_method(
    repo: Repository, program: Program
) -> None:
    """``me->`` typed as the last line of a body runs into ``ENDMETHOD`` (no period): the cold
    index then lets that method swallow the next one. The cached one ends the method at its
    ``ENDMETHOD`` line; at the cursor both answer the same."""
    cache = FocusedIndexes(repo)
    new = "    mo_formatter = NEW lcl_formatter( )."
    text = _replace(_text(program, MAIN), new, new, "    me->")
    line = _line(text, "    me->")
    edited = program.with_text(MAIN, "\n".join(text))
    cold = ProgramIndex(edited.name, focused(edited, MAIN, line).units, repo)
    warm = cache.index(program, MAIN, "\n".join(text), line)
    assert cache.whole == 0
    proposals = _proposals(warm, MAIN, line, len(text[line - 1]))
    assert proposals == _proposals(cold, MAIN, line, len(text[line - 1]))
    assert "GREET_ALL" in [identifier for identifier, _ in proposals]
    body = "\n".join(text[: _line(text, "ENDMETHOD")])
    names = [t for s in lex(body).statements for t in s.tokens if t.kind == NAME and t.line > 27]
    assert len(names) > 5
    meanings = []
    for token in names:
        found = [i.occurrence_at(MAIN, token.line, token.column) for i in (warm, cold)]
        assert _sig(found[0] and found[0].symbol) == _sig(found[1] and found[1].symbol), token
        meanings.append(found[0])
    assert sum(m is not None for m in meanings) >= 5
    greet_all = warm.symbol("ZCL_DEMO_GREETER").members.local("GREET_ALL")  # type: ignore[union-attr]
    assert greet_all is not None and greet_all.implementation is not None


def test_skeleton_finds_the_body_a_request_keeps() -> None:
    text = (
        "CLASS c IMPLEMENTATION.\n  METHOD a.\n    x = 1.\n  ENDMETHOD.\n  METHOD b.\n  ENDMETHOD."
    )
    skeleton = Skeleton.of("u", text)
    assert skeleton.bodies == ((1, 3), (4, 5))
    assert skeleton.blanked[2] == "" and skeleton.shape.count("\n") == 4
    # from the METHOD line to the ENDMETHOD line, as focused() keeps it; an empty body is none
    assert [skeleton.body_at(n) for n in range(1, 7)] == [None, (1, 3), (1, 3), (1, 3), None, None]


@pytest.mark.parametrize(("name", "steps"), [("ZCL_DEMO_GREETER", 40), ("ZCL_DEMO_LARGE", 12)])
def test_a_skeleton_derived_from_an_edit_is_the_scanned_one(
    repo: Repository, name: str, steps: int
) -> None:
    """Random lines typed, deleted and replaced anywhere (also ``METHOD`` lines): a skeleton
    derived from the one before is the one a full scan gives, and edits inside a body that
    name no method are derived."""
    obj = repo.named(name, CLAS)
    assert obj is not None
    lines = "\n".join(_text(repo.program(obj), MAIN.replace("zcl_demo_greeter", name.lower())))
    lines = lines.split("\n")
    skeleton = Skeleton.of("u", "\n".join(lines))
    pick = random.Random(7)
    derived = 0
    for step in range(steps):
        inner = [n for start, end in skeleton.bodies for n in range(start + 1, end)]
        at = pick.choice(inner) if step % 2 and inner else pick.randrange(len(lines))
        typed = pick.choice(["    METHOD x.", "    lv = 1.", '    lv = lv + 1. " note'])
        removed = pick.randrange(2) if step % 3 else 0  # lines typed over: 0 inserts
        gone = "".join(lines[at : at + removed])
        lines = [*lines[:at], *([typed] if step % 5 else []), *lines[at + removed :]]
        text = "\n".join(lines)
        found = skeleton.edited("u", text)
        skeleton = Skeleton.of("u", text)
        assert found is None or found == skeleton
        names_method = "method" in (typed + gone).lower()
        if at in inner and not names_method and (removed or step % 5):
            assert found is not None, (at, typed, gone)
        derived += found is not None
    assert derived >= steps // 4


SNIPPETS = [
    "    DATA lv_n TYPE i.",
    "    lv_n = lv_n + 1.",
    "    me->",
    "    go_b->",
    "",
    '    " a comment',
    "    IF lv_n > 1.",
    "    ENDIF.",
    "    DATA(lv_z) = mo_a->run( ).",
    "  METHOD extra.",
    "  ENDMETHOD.",
    "* a comment line",
]


@pytest.mark.parametrize("seed", [1, 4])
def test_random_edits_answer_as_a_cold_index(repo: Repository, program: Program, seed: int) -> None:
    """Characters typed, lines inserted and deleted (mostly inside bodies, also ``METHOD`` and
    ``ENDMETHOD`` lines), a request at a random line after each: everything an answer is read
    from equals a cold index of the cut — except right after an unfinished statement ran into
    the cursor method's ``ENDMETHOD`` (the documented difference, skipped here)."""
    pick = random.Random(seed)
    report = Program("ZDEMO_FOCUS", program.root, (Unit(MAIN, REPORT),))
    compared = 0
    for stored in (program, report):
        cache = FocusedIndexes(repo)
        lines = _text(stored, MAIN)
        for _ in range(15):
            inner = [
                n for a, b in Skeleton.of("u", "\n".join(lines)).bodies for n in range(a + 1, b)
            ]
            at = pick.choice(inner) if inner and pick.random() < 0.8 else pick.randrange(len(lines))
            edit = pick.random()
            if edit < 0.5:
                lines = [*lines[:at], lines[at] + pick.choice("x ."), *lines[at + 1 :]]
            elif edit < 0.8:
                lines = [*lines[:at], pick.choice(SNIPPETS), *lines[at:]]
            elif len(lines) > 10:
                lines = [*lines[:at], *lines[at + 1 :]]
            line = pick.randrange(1, len(lines) + 1)
            if _runs_into_endmethod(lines, line):
                continue
            text = "\n".join(lines)
            edited = stored.with_text(MAIN, text)
            cold = ProgramIndex(edited.name, focused(edited, MAIN, line).units, repo)
            assert _snapshot(cache.index(stored, MAIN, text, line)) == _snapshot(cold), line
            compared += 1
    assert compared >= 18


def _runs_into_endmethod(lines: list[str], line: int) -> bool:
    """Whether the body a request at ``line`` keeps ends in a statement that swallowed its
    ``ENDMETHOD``."""
    bodies = Skeleton.of("u", "\n".join(lines)).bodies
    body = next(((a, b) for a, b in bodies if a < line <= b + 1 and b > a + 1), None)
    if body is None:
        return False
    statements = lex("\n".join(lines[body[0] + 1 : body[1] + 1])).statements
    return bool(statements) and statements[-1].first != "ENDMETHOD"


def test_a_body_inside_another_methods_block_is_answered_whole(
    repo: Repository, program: Program
) -> None:
    """``METHOD run`` without its ``ENDMETHOD``: the block it opens runs to the next
    ``ENDMETHOD``, so the body of ``go`` belongs to ``run``'s block. That body is not a method
    block of its own, and the request is answered from the whole cut."""
    cache = FocusedIndexes(repo)
    report = Program("ZDEMO_FOCUS", program.root, (Unit(MAIN, REPORT),))
    lines = REPORT.split("\n")
    lines = [*lines[:9], *lines[10:]]  # run's ENDMETHOD
    assert lines[8] == "    rv_count = lv_seed + 1."
    _check(cache, report, MAIN, lines, [_line(lines, "lv_count * iv_times")])
    assert cache.whole == 1
