"""The pretty printer by piece: after any edit, printing only the changed pieces (each after
its context) and joining them with the pieces kept gives exactly what printing the whole
text gives; and after a small edit of a long source only a few lines are sent."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adt.abap.format.pretty import PrinterSettings, pretty_print
from adt.abap.format.segments import scan
from adt.emulator.large_sample import large_class_source
from adt.workbench.printed import JOB_LINES, MARKER, Plan, PrintedPieces

SAMPLES = Path(__file__).parents[2] / "adt" / "emulator" / "samples" / "src"
CORPUS = Path(os.environ.get("ABAPGIT_CORPUS", "/work/corpora/abapgit"))
SETTINGS = [
    PrinterSettings(),
    PrinterSettings(style="toLower", keep_identifier=False),
    PrinterSettings(indentation=False, style="keywordLower"),
]
#: What typing, pasting and deleting put into a source: openers without their end, ends
#: without their opener, native sections, templates and literals left open, comments.
SNIPPETS = [
    "\n",
    "x",
    ".",
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
    "\nTRY.\n CATCH cx_root.\n",
    "\nDATA: BEGIN OF ls_s,\n a TYPE i,\n",
    "\n END OF ls_s.\n",
    "\nSTART-OF-SELECTION.\n write 'x'.\n",
    "\nFORM f.\n",
    "\nENDFORM.\n",
    "\nDEFINE mac.\n",
    "\nEND-OF-DEFINITION.\n",
    "\n  PUBLIC SECTION.\n",
    "\n  METHODS m2.\n",
    ". write 'b'.",
]


def _sources() -> list[Path]:
    found = sorted(SAMPLES.rglob("*.abap"))
    if CORPUS.is_dir():  # abapGit's own sources, where this machine has them
        small = [p for p in sorted(CORPUS.rglob("*.abap")) if p.stat().st_size < 12_000]
        found += small[::4]
    return found


SOURCES = _sources()


@lru_cache(maxsize=64)
def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")


def _print(text: str, options: PrinterSettings) -> str:
    return pretty_print(text, options)


def _format(
    kept: PrintedPieces, lines: list[str], options: PrinterSettings
) -> tuple[list[str], Plan]:
    plan = kept.plan(lines, options)
    printed = kept.complete(plan, [_print(job.text, options) for job in plan.jobs])
    assert printed is not None
    return printed, plan


def _whole(lines: list[str], options: PrinterSettings) -> list[str]:
    return _print("\n".join(lines), options).split("\n")


def _edit(text: str, start: int, length: int, insert: str) -> list[str]:
    start = min(start, len(text))
    return (text[:start] + insert + text[start + length :]).split("\n")


edits = st.tuples(
    st.integers(min_value=0, max_value=60_000),
    st.integers(min_value=0, max_value=400),
    st.one_of(st.sampled_from(SNIPPETS), st.integers(min_value=0, max_value=10_000)),
)


def _inserted(choice: str | int, donor: str) -> str:
    """A snippet, or a slice of another source (a paste)."""
    if isinstance(choice, str):
        return choice
    start = choice % max(len(donor), 1)
    return donor[start : start + 300]


@settings(
    max_examples=int(os.environ.get("FORMAT_EXAMPLES", "30")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    source=st.sampled_from(SOURCES),
    donor=st.sampled_from(SOURCES),
    options=st.sampled_from(SETTINGS),
    steps=st.lists(st.tuples(edits, st.booleans()), min_size=1, max_size=3),
)
def test_printing_the_changed_pieces_equals_printing_the_whole(
    source: Path,
    donor: Path,
    options: PrinterSettings,
    steps: list[tuple[tuple[int, int, str | int], bool]],
) -> None:
    kept = PrintedPieces()
    lines = _text(source).split("\n")
    printed, _ = _format(kept, lines, options)
    assert printed == _whole(lines, options)
    for (start, length, choice), applied in steps:
        base = printed if applied else lines  # the editor applied the last edits, or not
        text = "\n".join(base)
        lines = _edit(text, start % (len(text) + 1), length, _inserted(choice, _text(donor)))
        printed, _ = _format(kept, lines, options)
        assert printed == _whole(lines, options)


# --- edge cases on a class of methods -----------------------------------------------------

CLASS = """REPORT zfmt.
CLASS lcl DEFINITION.
  PUBLIC SECTION.
    METHODS: a, b, c.
    DATA: BEGIN OF ms_s,
            x TYPE i,
          END OF ms_s.
ENDCLASS.

CLASS lcl IMPLEMENTATION.
  " the first method
  METHOD a.
    DATA lv TYPE i.
    IF lv = 1.
      lv = 2.
    ENDIF.
  ENDMETHOD.

  METHOD b.
    SELECT * FROM t000 INTO @DATA(ls).
    ENDSELECT.
    lv = |{ lv
      }|.
  ENDMETHOD.
  METHOD c.
    TRY.
        lv = 1.
      CATCH cx_root.
    ENDTRY.
  ENDMETHOD.
ENDCLASS.

START-OF-SELECTION.
  WRITE 'x'.
" trailing"""


def _lines_after(lines: list[str], old: str, new: str) -> list[str]:
    text = "\n".join(lines)
    assert old in text
    return text.replace(old, new, 1).split("\n")


EDGE_EDITS = {
    "inside a block": ("      lv = 2.", "      lv = 3. write lv."),
    "opens a block": ("    DATA lv TYPE i.", "    DATA lv TYPE i.\n    LOOP AT lt INTO ls."),
    "closes a block": ("    ENDIF.\n  ENDMETHOD.", "    ENDIF."),
    "enter": ("    DATA lv TYPE i.", "    DATA lv\n TYPE i."),
    "paste of a method": (
        "  METHOD c.",
        "  method d.\ndata x type i.\n  if x = 1. x = 2. endif.\nendmethod.\n  METHOD c.",
    ),
    "delete across blocks": ("      lv = 2.\n    ENDIF.\n  ENDMETHOD.\n\n  METHOD b.", ""),
    "ends a loop of an earlier piece": (
        "  METHOD b.\n    SELECT * FROM t000 INTO @DATA(ls).\n    ENDSELECT.",
        "  METHOD b.\n    ENDSELECT.",
    ),
    "opens a loop": ("  METHOD c.", "  METHOD c.\n    SELECT * FROM t000 INTO ls."),
    "opens a native section": ("    DATA lv TYPE i.", "    EXEC SQL.\n  delete from x"),
    "opens a template": ("      lv = 2.", "      lv = |{ x"),
    "a comment before a method": ("  METHOD c.", '  " says what c does\n  METHOD c.'),
    "a class ends early": ("  METHOD c.", "ENDCLASS.\n  METHOD c."),
    "a section in the definition": (
        "    METHODS: a, b, c.",
        "    METHODS: a, b, c.\n  private section.\n    data z type i.",
    ),
    "the structure is left open": ("          END OF ms_s.", ""),
    "an event before the class": ("REPORT zfmt.", "REPORT zfmt.\nINITIALIZATION.\n  lv = 1."),
    "a comment at the end": ('" trailing', '" trailing\n    " more'),
    "everything": ("\n".join(CLASS.split("\n")[1:]), "x"),
}


@pytest.mark.parametrize("options", SETTINGS, ids=["keywordUpper", "toLower", "keywordLower"])
@pytest.mark.parametrize("edit", list(EDGE_EDITS), ids=list(EDGE_EDITS))
def test_edge_cases_print_as_the_whole(edit: str, options: PrinterSettings) -> None:
    kept = PrintedPieces()
    lines = CLASS.split("\n")
    printed, _ = _format(kept, lines, options)
    assert printed == _whole(lines, options)
    old, new = EDGE_EDITS[edit]
    for base in (lines, printed):  # the last answer not applied, and applied
        kept_now = PrintedPieces()
        _format(kept_now, base, options)
        changed = _lines_after(base, old, new) if old in "\n".join(base) else [*base, new]
        again, _ = _format(kept_now, changed, options)
        assert again == _whole(changed, options)


def test_other_settings_between_two_calls_print_the_whole_again() -> None:
    kept = PrintedPieces()
    lines = CLASS.split("\n")
    _format(kept, lines, SETTINGS[0])
    printed, plan = _format(kept, lines, SETTINGS[1])
    assert printed == _whole(lines, SETTINGS[1])
    assert plan.sent_lines == len(lines)
    same, plan = _format(kept, printed, SETTINGS[1])
    assert same == printed and not plan.jobs  # the answer applied, nothing typed: nothing sent


# --- what is sent -------------------------------------------------------------------------


def test_a_key_in_a_long_class_sends_a_method_not_the_class() -> None:
    lines = large_class_source().split("\n")
    kept = PrintedPieces()
    printed, plan = _format(kept, lines, SETTINGS[0])
    assert plan.sent_lines == len(lines)
    assert max(sum(job.lengths) for job in plan.jobs) <= JOB_LINES
    middle = next(n for n in range(len(printed) // 2, len(printed)) if "lv_total =" in printed[n])
    changed = [*printed[:middle], "    data lv_typed type i.", *printed[middle:]]
    again, plan = _format(kept, changed, SETTINGS[0])
    assert plan.sent_lines < 40, plan.sent_lines
    assert again[middle].strip() == "DATA lv_typed TYPE i."
    assert again[:middle] == printed[:middle] and again[middle + 1 :] == printed[middle:]
    far = [*again[:5], "  data lv_top type i.", *again[5:-3], "  data lv_end type i."]
    far += again[-3:]
    twice, plan = _format(kept, far, SETTINGS[0])
    assert len(plan.jobs) == 2 and plan.sent_lines < 200
    assert twice == _whole(far, SETTINGS[0])


def test_a_key_after_the_answer_was_applied_sends_only_its_piece() -> None:
    messy = [line.strip().lower() for line in large_class_source().split("\n")[:2000]]
    kept = PrintedPieces()
    printed, plan = _format(kept, messy, SETTINGS[0])
    assert printed != messy and plan.sent_lines == len(messy)
    typed = [*printed[:1000], "data lv_typed type i.", *printed[1000:]]  # applied, then a key
    again, plan = _format(kept, typed, SETTINGS[0])
    assert again == _whole(typed, SETTINGS[0])
    assert plan.sent_lines < 40, plan.sent_lines
    ignored = [*messy[:1000], "data lv_typed type i.", *messy[1000:]]  # not applied
    third, _ = _format(kept, ignored, SETTINGS[0])
    assert third == _whole(ignored, SETTINGS[0])


def test_the_class_is_cut_between_methods_in_its_context() -> None:
    lines = CLASS.split("\n")
    found = scan(lines)
    cuts = {lines[p.start].strip(): p.state for p in found.pieces}
    in_class = (("CLASS", 0, 1),)
    # comment and blank lines go with the method after them; a structure is not cut
    assert cuts['" the first method'] == cuts["METHOD c."] == in_class
    assert "METHOD a." not in cuts and "x TYPE i," not in cuts and "lv = 2." not in cuts
    assert cuts["METHODS: a, b, c."] == (("CLASS", 0, 2),)  # in a section
    assert found.end is None  # a comment line at the end waits for its statement
    assert scan(lines[:-1]).end == (("EVENT", 0, 1),) and not found.reaches_back


def test_a_long_text_goes_in_several_jobs_cut_between_pieces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from adt.workbench import printed as incremental

    monkeypatch.setattr(incremental, "JOB_LINES", 8)
    kept = PrintedPieces()
    lines = CLASS.split("\n")
    printed, plan = _format(kept, lines, SETTINGS[0])
    assert len(plan.jobs) > 3 and printed == _whole(lines, SETTINGS[0])
    assert plan.jobs[2].text.startswith("CLASS lcl_abap_adt_context")  # its context first
    changed = _lines_after(lines, "METHOD c.", "ENDMETHOD.\nENDCLASS.\n  METHOD c.")
    again, plan = _format(kept, changed, SETTINGS[0])
    assert again == _whole(changed, SETTINGS[0])


def test_an_answer_without_its_markers_is_refused_and_forgotten() -> None:
    kept = PrintedPieces()
    lines = CLASS.split("\n")
    plan = kept.plan(lines, SETTINGS[0])
    assert MARKER in plan.jobs[0].text
    answer = _print(plan.jobs[0].text, SETTINGS[0]).replace(MARKER + "\n", "")
    assert kept.complete(plan, [answer]) is None
    assert kept.plan(lines, SETTINGS[0]).sent_lines == len(lines)


def test_a_plan_made_before_another_completed_is_refused() -> None:
    kept = PrintedPieces()
    lines = CLASS.split("\n")
    _format(kept, lines, SETTINGS[0])
    first = kept.plan(_lines_after(lines, "lv = 2.", "lv = 4."), SETTINGS[0])
    second = kept.plan(_lines_after(lines, "lv = 2.", "lv = 5."), SETTINGS[0])
    assert kept.complete(second, [_print(j.text, SETTINGS[0]) for j in second.jobs])
    assert kept.complete(first, [_print(j.text, SETTINGS[0]) for j in first.jobs]) is None
