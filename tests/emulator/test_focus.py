"""Requests on an editor's unsaved text index only the method around the cursor (the other
method bodies blanked, line numbers kept): the answers must be those of the whole text.
Checked at every identifier of the samples' classes and of methods of the 10,000-line class,
with a line typed into the text."""

from __future__ import annotations

import random

import pytest

from adt.abap.completion import complete
from adt.abap.index import ProgramIndex
from adt.abap.lexer import NAME, lex
from adt.emulator import Emulator
from adt.emulator.intelligence.focus import blank_bodies, focused
from adt.emulator.intelligence.repository import Repository
from adt.emulator.model import CLAS

CLASSES = ["ZCL_DEMO_GREETER", "ZCL_DEMO_COUNTER", "ZCL_DEMO_LARGE"]


@pytest.fixture(scope="module")
def repo() -> Repository:
    repository = Repository(Emulator().state)
    repository.refresh()
    return repository


def test_blanking_keeps_lines_method_statements_and_the_cursor_method() -> None:
    text = (
        "CLASS c IMPLEMENTATION.\n  METHOD a.\n    x = 1.\n  ENDMETHOD.\n"
        "  METHOD b BY DATABASE PROCEDURE FOR HDB\n    LANGUAGE SQLSCRIPT.\n    select 1;\n"
        "  ENDMETHOD.\n  METHOD c.\n    y = 2.\n  ENDMETHOD.\nENDCLASS."
    )
    blanked = blank_bodies(text, keep_line=10)
    assert blanked.split("\n") == [
        "CLASS c IMPLEMENTATION.", "  METHOD a.", "", "  ENDMETHOD.",
        "  METHOD b BY DATABASE PROCEDURE FOR HDB", "    LANGUAGE SQLSCRIPT.", "",
        "  ENDMETHOD.", "  METHOD c.", "    y = 2.", "  ENDMETHOD.", "ENDCLASS.",
    ]  # fmt: skip


@pytest.mark.parametrize("name", CLASSES)
def test_answers_at_a_cursor_are_those_of_the_whole_text(repo: Repository, name: str) -> None:
    obj = repo.named(name, CLAS)
    assert obj is not None
    program = repo.program(obj)
    unit = obj.source_uri("main")
    lines = next(u.text for u in program.units if u.id == unit).split("\n")
    methods = [
        n for n, line in enumerate(lines, start=1) if line.lstrip().upper().startswith("METHOD ")
    ]
    checked = 0
    for start in random.Random(3).sample(methods, min(6, len(methods))):
        typed = lines[:]
        typed.insert(start, "    me->")  # a line typed right after METHOD …
        text = "\n".join(typed)
        whole = ProgramIndex(program.name, program.with_text(unit, text).units, repo)
        part = ProgramIndex(
            program.name, focused(program.with_text(unit, text), unit, start + 1).units, repo
        )
        assert _proposals(whole, unit, start + 1, 8) == _proposals(part, unit, start + 1, 8)
        end = next(
            n for n in range(start + 1, len(typed)) if typed[n].strip().upper() == "ENDMETHOD."
        )
        for token in _names(text, start + 1, end + 1):
            at = (unit, token.line, token.column)
            assert _meaning(whole, *at) == _meaning(part, *at), token
            checked += 1
    assert checked > 5


def _proposals(index: ProgramIndex, unit: str, line: int, column: int) -> list[str]:
    return [p.identifier for p in complete(index, unit, line, column, limit=10_000).proposals]


def _names(text: str, first: int, last: int) -> list[object]:
    return [
        t
        for s in lex(text).statements
        for t in s.tokens
        if t.kind == NAME and first <= t.line <= last
    ]


def _meaning(index: ProgramIndex, unit: str, line: int, column: int) -> object:
    found = index.occurrence_at(unit, line, column)
    if found is None:
        return None
    symbol = found.symbol
    return (symbol.key, symbol.kind, symbol.typing, symbol.implementation, found.role)
