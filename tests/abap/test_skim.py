"""The scan that cuts a source into pieces passes over runs of lines that change no block
without lexing them (adt.abap.format.skim): its pieces, end state and reach back must be
those of a scan that lexes every statement, on every source and after any edit."""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adt.abap.format.blocks import Nester, State
from adt.abap.format.segments import CONTEXTS, Piece, Scan, _free, _Loops, scan
from adt.abap.format.skim import Run, skim
from adt.abap.format.tokens import lex, native_closer, token_statements

SAMPLES = Path(__file__).parents[2] / "adt" / "emulator" / "samples" / "src"
CORPUS = Path(os.environ.get("ABAPGIT_CORPUS", "/work/corpora/abapgit"))
STATES = list(CONTEXTS)


def reference_scan(lines: Sequence[str], state: State = ()) -> Scan:
    """The scan as it was before skimming: every statement lexed and nested."""
    statements = token_statements(lex(list(lines)))
    nester = Nester(statements, state)
    pieces = [Piece(0, state)]
    loops = _Loops()
    open_after: State | None = state
    for index, statement in enumerate(statements):
        loops.feed(statement, pieces)
        nester.add(index, statement)
        following = statements[index + 1] if index + 1 < len(statements) else None
        ends = (
            statement.terminated
            and native_closer(statement.words) is None
            and (following is None or following.first.line > statement.last.line)
        )
        if not ends:
            open_after = None
            continue
        open_after = nester.state
        if open_after in CONTEXTS and following is not None:
            pieces.append(Piece(statement.last.line, open_after))
            loops.cut()
    last = statements[-1].last.line if statements else 0
    free = all(_free(line) for line in lines[last:])
    return Scan(pieces, open_after if free else None, loops.reaches_back)


@lru_cache(maxsize=1024)
def _lines(path: Path) -> tuple[str, ...]:
    text = path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
    return tuple(text.split("\n"))


def test_every_sample_scans_as_when_every_statement_is_lexed() -> None:
    sources = sorted(SAMPLES.rglob("*.abap"))
    assert len(sources) > 10
    for path in sources:
        lines = _lines(path)
        for state in STATES:
            assert scan(lines, state) == reference_scan(lines, state), (path, state)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the abapGit corpus is not on this machine")
def test_the_corpus_scans_as_when_every_statement_is_lexed() -> None:
    """abapGit's sources (every fifth, so the test stays short; SKIM_CORPUS_STEP=1 for all)."""
    step = int(os.environ.get("SKIM_CORPUS_STEP", "5"))
    for path in sorted(CORPUS.rglob("*.abap"))[::step]:
        lines = _lines(path)
        assert scan(lines) == reference_scan(lines), path


EDGES = {
    "a significant word beyond ASCII": "CLASS c IMPLEMENTATION.\nſelect * from t.\nendſelect.",
    "folding that str.upper does not": "REPORT x.\nclaß c definition.\nx = 1.\nendclaß.",
    "kelvin sign": "REPORT x.\n\u212aEEP = 1.\nloop at t into \u212a.\nx = 1.\nENDLOOP.",
    "two statements on a line": "REPORT x.\nx = 1. y = 2.\nIF a = b. c = d.\nENDIF.",
    "a statement over lines": "REPORT x.\ncall_it(\n  a = 1\n  b = 2 ).\nz = 3.",
    "comments inside a statement": 'REPORT x.\nx = 1\n" c\n* d\n\n + 2.\ny = 3.',
    "a template over lines": "REPORT x.\nx = |a { b\n}c|.\ny = 1.\nz = |{\n c }|",
    "a template ending a line": "REPORT x.\nx = |a { b\n}|\n.\ny = 1.",
    "a native section": "REPORT x.\nEXEC SQL.\n select 1.\n x = 1.\nENDEXEC.\ny = 1.",
    "a native section on one line": "REPORT x.\nEXEC SQL. select ENDEXEC.\ny = 1.\nz = 2.",
    "an AMDP method": (
        "CLASS c IMPLEMENTATION.\nMETHOD m BY DATABASE PROCEDURE FOR HDB LANGUAGE SQLSCRIPT."
        "\n x = 1;\n  y = 2.\nENDMETHOD.\nMETHOD n.\n a = 1.\nENDMETHOD.\nENDCLASS."
    ),
    "empty statements": "REPORT x.\n.\nx = 1..\ny = 2.",
    "a chain": "REPORT x.\nCLEAR: a,\n b.\nWRITE: / a, b.\nDATA: a TYPE i,\n b TYPE i.",
    "literals": "REPORT x.\nx = 'a.b'.\ny = `c`.\nz = 1.",
    "an unterminated literal": "REPORT x.\nx = 'a.\ny = 1.\nz = 2.",
    "a line ending in a colon": "REPORT x.\nDATA:\n a TYPE i.\nx = 1.",
    "words glued to marks": "REPORT x.\nx = a-b+c:d,e.\ny=1.\nENDIF,x.",
    "a carriage return in a line": "REPORT x.\nx = 1.\r\ny = 2.\n\r\nz = 3.",
    "a line break inside a line": ["REPORT x.", "x = 1.\ny = 2.", "z = 3."],
    "a star that is no comment line": "REPORT x.\n  *x = 1.\n*y = 2.\nz = 3.",
    "no final statement": "REPORT x.\nx = 1.\n* c\n\n",
    "nothing but comments": '* a\n" b\n\n',
    "a structure": "REPORT x.\nTYPES: BEGIN OF s,\n a TYPE i,\n END OF s.\nx = 1.",
    "an event": "REPORT x.\nSTART-OF-SELECTION.\n x = 1.\n y = 2.\nFORM f.\n z = 3.\nENDFORM.",
    "a macro": "REPORT x.\nDEFINE m.\n x = 1.\n ENDIF.\nEND-OF-DEFINITION.\ny = 1.",
    "select loops": "REPORT x.\nSELECT * FROM t INTO s.\n x = 1.\nENDSELECT.\ny = 1.",
    "an end of another piece's loop": "REPORT x.\nx = 1.\nENDSELECT.\ny = 1.",
    "doubled quotes in literals": "REPORT x.\nx = 'it''s.'.\ny = `a``.b`.\nz = 1.",
    "a literal left open in a statement over lines": "REPORT x.\nx = f(\n 'a.\n b ).\ny = 1.",
    "a template in a statement over lines": "REPORT x.\nx = f(\n |a.b| ).\ny = 1.\nz = 2.",
    "an open statement before plain lines": "REPORT x.\nDATA: a TYPE i,\n b TYPE i.\nx = 1.",
    "a statement over lines, another after it": "REPORT x.\nx = f(\n a ). y = 2.\nz = 3.",
    "a head alone on its line": "REPORT x.\nCLEAR\n x.\ny = 1.\nz = 2.",
    "a comment after a continued head": "REPORT x.\nx = f( \" c.\n a ).\ny = 'b'.",
    "end words inside a statement over lines": (
        "CLASS c IMPLEMENTATION.\nx = f(\n endmethod ).\nMETHOD m.\ny = g( 'a'\n  ).\n"
        "ENDMETHOD.\nENDCLASS."
    ),
    "a statement over lines to the end": "REPORT x.\ny = 1.\nx = f(\n a",
    "structures after comments and literals": (
        'REPORT x.\nTYPES:\n" a. b\n* c\n  BEGIN OF s,\n a TYPE c LENGTH 1,\n END OF s.\n'
        "DATA: x TYPE c VALUE '.', begin OF t,\n a TYPE i, END OF t.\nDATA end TYPE i.\n"
        "DATA:BEGIN OF u.\nDATA a TYPE i. \" END OF\nDATA b(1) TYPE c VALUE 'END OF'.\n"
        "DATA:END OF u.\ny = 1."
    ),
    "glued keywords": (
        "REPORT x.\ndata(lv) = 1.\nlv = value #( ).\nlv = lo->value( ).\nx = @data(y)."
        "\nfinal(z) = 2.\nlv = lines( lt ).\nlv = VaLuE(1)."
    ),
}


@pytest.mark.parametrize("source", list(EDGES.values()), ids=list(EDGES))
@pytest.mark.parametrize("state", STATES, ids=[str(len(s)) + str(s[:1]) for s in STATES])
def test_edge_cases_scan_as_when_every_statement_is_lexed(
    source: str | list[str], state: State
) -> None:
    lines = source if isinstance(source, list) else source.split("\n")
    assert scan(lines, state) == reference_scan(lines, state)


SNIPPETS = [
    "\n",
    "x",
    ".",
    "'",
    "|",
    '"',
    "*",
    ":",
    ",",
    "ſ",
    "\n  if lv_x = 1.\n",
    "\nENDIF.",
    "\n  ENDMETHOD.\n",
    "\nENDCLASS.\n",
    "\n  METHOD zz.\n    data a type i.\n",
    "\nCLASS lcl IMPLEMENTATION.\n",
    "\n    SELECT * FROM t000 INTO ls_t.\n",
    "\n    ENDSELECT.\n",
    "\n    EXEC SQL.\n  select 1 from dual\n",
    "\n    ENDEXEC.\n",
    "\n    lv = |a { b\n",
    "\n    lv = 'open\n",
    '\n    " a comment\n',
    "\n* a star comment\n",
    "\n  x = 1. y = 2.\n",
    "\nDATA: BEGIN OF ls_s,\n a TYPE i,\n",
    "\n END OF ls_s.\n",
    "\nSTART-OF-SELECTION.\n write 'x'.\n",
    "\n  PUBLIC SECTION.\n",
    "\n    lv = call( iv_a = 'it''s.'\n",
    "\n               iv_b = `b.` ).\n",
]
SOURCES = sorted(SAMPLES.rglob("*.abap"))
#: edits of a source: where (wrapped to its length), how much is replaced, by which snippet
EDITS = st.lists(
    st.tuples(
        st.integers(min_value=0, max_value=60_000),
        st.integers(min_value=0, max_value=200),
        st.sampled_from(SNIPPETS),
    ),
    min_size=1,
    max_size=4,
)


def edited(source: Path, edits: list[tuple[int, int, str]]) -> list[str]:
    """The lines of ``source`` after ``edits`` (one of :data:`EDITS`)."""
    text = "\n".join(_lines(source))
    for start, length, insert in edits:
        start %= len(text) + 1
        text = text[:start] + insert + text[start + length :]
    return text.split("\n")


@settings(
    max_examples=int(os.environ.get("SKIM_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    source=st.sampled_from(SOURCES),
    state=st.sampled_from(STATES),
    edits=EDITS,
)
def test_edited_sources_scan_as_when_every_statement_is_lexed(
    source: Path, state: State, edits: list[tuple[int, int, str]]
) -> None:
    lines = edited(source, edits)
    assert scan(lines, state) == reference_scan(lines, state)


def test_a_class_of_plain_methods_is_lexed_only_at_its_block_statements() -> None:
    lines = ["REPORT zx.", "CLASS lcl IMPLEMENTATION."]
    for k in range(50):
        lines += [f"  METHOD m{k}.", "", "    * 2 = x."]
        lines += [f'    rv_y = iv_x * {k} + {s}. " step {s}' for s in range(20)]
        lines += ['    " a comment', "* a star comment", "  ENDMETHOD."]
    lines.append("ENDCLASS.")
    skimmed = skim(lines)
    heads = [statement.words[0] for statement in skimmed.statements]
    assert heads == ["CLASS"] + ["METHOD", "ENDMETHOD"] * 50 + ["ENDCLASS"]
    runs = [part for part in skimmed.parts if isinstance(part, Run)]
    assert [(run.end - run.first) for run in runs] == [1] + [24] * 50
    assert scan(lines) == reference_scan(lines)


def test_the_cut_passes_over_statements_with_literals_and_over_lines() -> None:
    """The cut's wide skim lexes only the block statements of methods of calls over several
    lines with literals (two thirds of real code's lines); the printer's skim lexes them."""
    lines = ["REPORT zx.", "CLASS lcl IMPLEMENTATION."]
    for k in range(20):
        lines += [f"  METHOD m{k}.", "    DATA: lv_a TYPE i,", "          lv_b TYPE i."]
        lines += ["    DATA: BEGIN OF ls_s,", "            a TYPE i,", "          END OF ls_s."]
        lines += ["    lv_a = call( iv_x = 'it''s. done' \" why", "*   a star line", ""]
        lines += [f"                 iv_y = `{k}.` ).", "    rv_y = lv_a.", "  ENDMETHOD."]
    lines.append("ENDCLASS.")
    heads = [statement.words[0] for statement in skim(lines, wide=True).statements]
    assert heads == ["CLASS"] + ["METHOD", "DATA", "ENDMETHOD"] * 20 + ["ENDCLASS"]
    assert all(
        s.words[1] == "BEGIN" for s in skim(lines, wide=True).statements if s.words[0] == "DATA"
    )
    narrow = [statement.words[0] for statement in skim(lines).statements]
    assert narrow.count("LV_A") == 20
    assert scan(lines) == reference_scan(lines)
    ends = [n + 1 for n, line in enumerate(lines) if line == "  ENDMETHOD."]
    assert [piece.start for piece in scan(lines).pieces] == [0, 1, 2, *ends]
