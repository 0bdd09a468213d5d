"""The pretty printer prints the runs of lines that change no block without lexing them
(adt.abap.format.runs); its output must be byte for byte what it prints when it lexes every
line, in every style, on the samples, abapGit's sources and edited sources."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adt.abap.format.pretty import (
    STYLES,
    PrinterSettings,
    pretty_print,
    printed_by_line,
    printed_lexing_all,
    split_text,
)

from .test_skim import EDGES, EDITS, SOURCES, edited

SAMPLES = Path(__file__).parents[2] / "adt" / "emulator" / "samples" / "src"
CORPUS = Path(os.environ.get("ABAPGIT_CORPUS", "/work/corpora/abapgit"))
#: Every style a run is printed in (keywordAuto lexes everything), indented or not, names
#: kept or cased.
ALL_SETTINGS = [
    PrinterSettings(indentation=indentation, style=style, keep_identifier=keep)
    for style in STYLES
    if style != "keywordAuto"
    for indentation in (True, False)
    for keep in (True, False)
]
SOME_SETTINGS = [
    PrinterSettings(),
    PrinterSettings(style="toLower", keep_identifier=False),
    PrinterSettings(indentation=False, style="keywordLower"),
    PrinterSettings(style="none"),
]


@lru_cache(maxsize=1024)
def _lines(path: Path) -> tuple[str, ...]:
    return tuple(split_text(path.read_text(encoding="utf-8", errors="replace"))[0])


def test_every_sample_prints_as_when_every_line_is_lexed() -> None:
    sources = sorted(SAMPLES.rglob("*.abap"))
    assert len(sources) > 10
    for path in sources:
        for options in ALL_SETTINGS:
            lines = _lines(path)
            assert printed_by_line(lines, options) == printed_lexing_all(lines, options), (
                path,
                options,
            )


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the abapGit corpus is not on this machine")
def test_the_corpus_prints_as_when_every_line_is_lexed() -> None:
    """abapGit's sources, every seventh in four styles (RUNS_CORPUS_STEP=1 for all; all 769
    sources of the corpus and the samples were compared in all twenty styles once)."""
    step = int(os.environ.get("RUNS_CORPUS_STEP", "7"))
    for n, path in enumerate(sorted(CORPUS.rglob("*.abap"))[::step]):
        lines = _lines(path)
        options = SOME_SETTINGS[n % len(SOME_SETTINGS)]
        assert printed_by_line(lines, options) == printed_lexing_all(lines, options), path


@pytest.mark.parametrize("options", SOME_SETTINGS, ids=["upper", "lower", "flat", "none"])
@pytest.mark.parametrize("source", list(EDGES.values()), ids=list(EDGES))
def test_edge_cases_print_as_when_every_line_is_lexed(
    source: str | list[str], options: PrinterSettings
) -> None:
    lines = source if isinstance(source, list) else source.split("\n")
    assert printed_by_line(lines, options) == printed_lexing_all(lines, options)


RUN_LINES = """REPORT zx.
CLASS lcl IMPLEMENTATION.
  METHOD m.
      write lv.   " a comment after it
  *x = 1.
* a star line

        " a comment line before a statement
      lv = lines( lt_x ).
    clear: lv,   lt_x.
    " a comment line before the end
  ENDMETHOD.
    " a comment line before the end of the class
ENDCLASS."""


@pytest.mark.parametrize("options", ALL_SETTINGS)
def test_a_run_is_printed_as_the_printer_prints_it(options: PrinterSettings) -> None:
    lines = RUN_LINES.split("\n")
    assert printed_by_line(lines, options) == printed_lexing_all(lines, options)
    if options == PrinterSettings():
        printed = pretty_print(RUN_LINES, options).split("\n")
        assert printed[3:12] == [
            '    WRITE lv.   " a comment after it',
            "    *x = 1.",
            "* a star line",
            "",
            '    " a comment line before a statement',
            "    lv = lines( lt_x ).",
            "    CLEAR: lv,   lt_x.",
            '    " a comment line before the end',
            "  ENDMETHOD.",
        ]
        assert printed[12] == '  " a comment line before the end of the class'


@settings(
    max_examples=int(os.environ.get("RUNS_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    source=st.sampled_from(SOURCES),
    options=st.sampled_from(ALL_SETTINGS),
    edits=EDITS,
)
def test_edited_sources_print_as_when_every_line_is_lexed(
    source: Path, options: PrinterSettings, edits: list[tuple[int, int, str]]
) -> None:
    lines = edited(source, edits)
    assert printed_by_line(lines, options) == printed_lexing_all(lines, options)
