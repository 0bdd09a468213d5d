"""The first plan of a text made a window at a time (adt.workbench.printed.Planning): its
pieces are those of one scan of the whole text, its jobs cover them in order, and what it
prints is what the whole plan prints; where a loop's end closes a loop of an earlier window
it gives no plan (the caller makes the whole plan instead)."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import pytest
from abap.test_skim import EDGES, SOURCES
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from adt.abap.format.blocks import State
from adt.abap.format.pretty import PrinterSettings, pretty_print
from adt.abap.format.segments import Scan
from adt.areas.formatting import FormattedText
from adt.emulator import Emulator
from adt.emulator.large_sample import large_class_source
from adt.errors import AdtServerError
from adt.workbench import Workbench
from adt.workbench import printed as printed_module
from adt.workbench.printed import JOB_LINES, Job, Plan, Planning, PrintedPieces
from adt.workbench.sending import Sending

OPTIONS = [PrinterSettings(), PrinterSettings(style="toLower", keep_identifier=False)]
#: Loops at the top of a report (where the scan cuts between statements), their ends
#: alone, and classes (cut between methods).
BLOCKS = [
    "SELECT * FROM t000 INTO ls_t.\n  x = 1.\nENDSELECT.",
    "SELECT * FROM t000 INTO ls_t.\n  x = 1.\n  y = 2.\n  z = 3.",
    "select * from t000 into ls_t.",
    "ENDSELECT.",
    "endselect.",
    "WITH +w AS ( SELECT a FROM t ) SELECT * FROM +w INTO @DATA(r).\n  x = 1.\nENDWITH.",
    "WITH +w AS ( SELECT a FROM t ) SELECT * FROM +w INTO @DATA(r).",
    "ENDWITH.",
    "x = 1.\ny = 2.\nz = 3.",
    "START-OF-SELECTION.\n  x = 1.",
    "CLASS c IMPLEMENTATION.\n  METHOD m.\n    SELECT * FROM t INTO s.\n    ENDSELECT.\n"
    "  ENDMETHOD.\n  METHOD n.\n    x = 1.\n  ENDMETHOD.\nENDCLASS.",
    "CLASS c DEFINITION.\n  PUBLIC SECTION.\n    METHODS m.\n    DATA a TYPE i.\nENDCLASS.",
]
EDGE_LINES = [v if isinstance(v, list) else v.split("\n") for v in EDGES.values()]


@lru_cache(maxsize=256)
def _source(path: Path) -> tuple[str, ...]:
    return tuple(path.read_text(encoding="utf-8", errors="replace").split("\n"))


def _lines(parts: list[str | list[str] | tuple[Path, int, int]]) -> list[str]:
    lines = ["REPORT zwin."]
    for part in parts:
        if isinstance(part, tuple):
            path, start, count = part
            source = _source(path)
            start %= len(source)
            lines += source[start : start + count]
        else:
            lines += part.split("\n") if isinstance(part, str) else part
    return lines


PARTS = st.lists(
    st.one_of(
        st.sampled_from(BLOCKS),
        st.sampled_from(EDGE_LINES),
        st.tuples(
            st.sampled_from(SOURCES),
            st.integers(min_value=0, max_value=5_000),
            st.integers(min_value=1, max_value=120),
        ),
    ),
    min_size=1,
    max_size=12,
)


def _steps(planning: Planning) -> list[tuple[Job, ...]]:
    return list(iter(planning.step, None))


def _printed(kept: PrintedPieces, plan: Plan, options: PrinterSettings) -> list[str] | None:
    return kept.complete(plan, [pretty_print(job.text, options) for job in plan.jobs])


def _cover(jobs: tuple[Job, ...]) -> list[tuple[int, object]]:
    """The pieces the jobs send, in order: (start line, state)."""
    found: list[tuple[int, object]] = []
    for job in jobs:
        start = job.start
        for length, state in zip(job.lengths, job.states, strict=True):
            found.append((start, state))
            start += length
    return found


@settings(
    max_examples=int(os.environ.get("WINDOW_EXAMPLES", "80")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(parts=PARTS, window=st.integers(min_value=1, max_value=40), options=st.sampled_from(OPTIONS))
def test_a_first_plan_by_windows_is_the_whole_plan(
    parts: list[str | list[str] | tuple[Path, int, int]], window: int, options: PrinterSettings
) -> None:
    lines = _lines(parts)
    whole_kept = PrintedPieces()
    whole = whole_kept.plan(lines, options)
    kept = PrintedPieces()
    planning = kept.planning(lines, options, window)
    steps = _steps(planning)
    plan = planning.plan
    event("no plan (a loop across windows)" if plan is None else f"{min(len(steps), 3)}+ steps")
    if plan is None:  # a loop's end reached back into a window already sent
        text = "\n".join(lines).upper()
        assert "ENDSELECT" in text or "ENDWITH" in text
        plan = kept.plan(lines, options)  # what the caller does then
        assert (plan.jobs, plan.regions) == (whole.jobs, whole.regions)
    else:
        assert [job for step in steps for job in step] == list(plan.jobs)
        assert plan.regions[0].pieces == whole.regions[0].pieces
        assert _cover(plan.jobs) == _cover(whole.jobs) == whole.regions[0].pieces
        assert all(sum(job.lengths) <= max(JOB_LINES, max(job.lengths)) for job in plan.jobs)
    assert plan.sent_lines == len(lines)
    assert _printed(kept, plan, options) == _printed(whole_kept, whole, options)


def test_a_long_class_is_planned_in_windows_of_whole_pieces() -> None:
    lines = large_class_source().split("\n")
    kept = PrintedPieces()
    planning = kept.planning(lines, OPTIONS[0], 2_000)
    steps = _steps(planning)
    assert planning.plan is not None and len(steps) >= len(lines) // 2_000
    assert all(0 < sum(sum(job.lengths) for job in step) <= 2_000 for step in steps[:-1])
    whole = PrintedPieces().plan(lines, OPTIONS[0])
    assert planning.plan.regions == whole.regions
    assert _cover(planning.plan.jobs) == _cover(whole.jobs)


def test_a_loop_closed_in_a_later_window_gives_no_plan() -> None:
    lines = ["REPORT zwin.", "SELECT * FROM t000 INTO ls_t."]
    lines += [f"  x = {n}." for n in range(30)] + ["ENDSELECT.", "y = 1."]
    kept = PrintedPieces()
    planning = kept.planning(lines, OPTIONS[0], 10)
    steps = _steps(planning)
    assert steps and planning.plan is None  # the first window went before the end was seen
    whole = kept.plan(lines, OPTIONS[0])
    assert len(whole.regions[0].pieces) == 3  # REPORT, the loop, y = 1.
    joined = _printed(kept, whole, OPTIONS[0])
    assert joined == pretty_print("\n".join(lines), OPTIONS[0]).split("\n")
    # the same loop inside one window (the first is an eighth of the rest) is cut as the
    # whole text is
    again = PrintedPieces()
    inside = again.planning(lines, OPTIONS[0], 8 * len(lines))
    _steps(inside)
    assert inside.plan is not None and inside.plan.regions == whole.regions


def test_a_text_without_cuts_is_scanned_about_once(monkeypatch: pytest.MonkeyPatch) -> None:
    scanned: list[int] = []
    scan = printed_module.scan

    def counted(lines: list[str], state: State) -> Scan:
        scanned.append(len(lines))
        return scan(lines, state)

    monkeypatch.setattr(printed_module, "scan", counted)
    lines = ["REPORT zwin.", "START-OF-SELECTION."] + [f"  x = {n}." for n in range(3_000)]
    planning = PrintedPieces().planning(lines, OPTIONS[0], 800)
    steps = _steps(planning)
    assert planning.plan is not None and len(planning.plan.regions[0].pieces) == 2
    assert [len(step) for step in steps] == [1, 1]  # REPORT, then the event in one job
    assert sum(scanned) <= len(lines) + 2 * 800  # the ramp, a whole window, then the rest


def test_a_later_plan_is_one_step_and_other_settings_start_over() -> None:
    lines = large_class_source().split("\n")[:3_000]
    kept = PrintedPieces()
    planning = kept.planning(lines, OPTIONS[0], 500)
    steps = _steps(planning)
    assert len(steps) > 3 and planning.plan is not None
    printed = _printed(kept, planning.plan, OPTIONS[0])
    assert printed is not None
    typed = [*printed[:1500], "data lv_typed type i.", *printed[1500:]]
    later = kept.planning(typed, OPTIONS[0], 500)
    steps = _steps(later)
    assert later.plan is not None and len(steps) == 1 and later.plan.sent_lines < 40
    assert later.plan.jobs == steps[0]
    other = kept.planning(typed, OPTIONS[1], 500)
    assert len(_steps(other)) > 3 and other.plan is not None
    assert other.plan.sent_lines == len(typed)


def test_the_window_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ABAP_ADT_FORMAT_WINDOW", "25")
    assert printed_module._window_lines() == 25
    monkeypatch.setenv("ABAP_ADT_FORMAT_WINDOW", "many")
    assert printed_module._window_lines() == JOB_LINES
    monkeypatch.delenv("ABAP_ADT_FORMAT_WINDOW")
    assert printed_module._window_lines() == JOB_LINES


# --- sending ------------------------------------------------------------------------------


async def test_texts_are_printed_a_few_at_a_time_and_answered_in_order() -> None:
    import asyncio

    from adt.workbench import sending as sending_module

    running: list[str] = []
    most = 0
    release = asyncio.Event()

    async def printer(text: str) -> str:
        nonlocal most
        running.append(text)
        most = max(most, len(running))
        if len(running) == sending_module.IN_FLIGHT:
            release.set()
        await release.wait()
        running.remove(text)
        return text.upper()

    async with Sending(printer) as sending:
        sending.send(["a", "b"])
        sending.send(["c", "d", "e"])
        assert await sending.answers() == ["A", "B", "C", "D", "E"]
    assert most == sending_module.IN_FLIGHT


async def test_an_error_stops_the_texts_still_being_printed() -> None:
    import asyncio

    stopped: list[str] = []
    started = asyncio.Event()

    async def printer(text: str) -> str:
        if text == "bad":
            await started.wait()
            raise RuntimeError("the printer failed")
        started.set()
        try:
            await asyncio.Event().wait()  # until cancelled
        except asyncio.CancelledError:
            stopped.append(text)
            raise
        return text

    async def both() -> None:
        async with Sending(printer) as sending:
            sending.send(["slow", "bad"])
            await sending.answers()

    with pytest.raises(RuntimeError, match="the printer failed"):
        await both()
    assert stopped == ["slow"]


# --- through the workbench, against the emulator -----------------------------------------

LARGE = "/sap/bc/adt/oo/classes/zcl_demo_large"
PRINTER = "/sap/bc/adt/abapsource/prettyprinter"


async def test_a_first_format_sends_windows_while_the_rest_is_cut(
    workbench: Workbench, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = (await workbench.source.get_source_v2(LARGE)).content.split("\n")
    monkeypatch.setattr(printed_module, "WINDOW_LINES", 500)
    events: list[str] = []
    step = Planning.step

    def stepped(planning: Planning) -> tuple[Job, ...] | None:
        jobs = step(planning)
        events.append("cut")
        return jobs

    monkeypatch.setattr(Planning, "step", stepped)
    formatting = workbench.source.client.formatting
    pretty = formatting.pretty_print

    async def sent(text: str) -> FormattedText:
        events.append("sent")
        return await pretty(text)

    monkeypatch.setattr(formatting, "pretty_print", sent)
    kept = PrintedPieces()
    printed = await workbench.code.format_kept(lines, LARGE, kept)
    assert printed == (await pretty("\n".join(lines))).text.split("\n")
    assert kept.last_sent == len(lines)
    assert events.count("cut") > 10 and events.index("sent") < events.index("cut", 5)


async def test_a_loop_across_windows_formats_as_the_whole_text(
    workbench: Workbench, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(printed_module, "WINDOW_LINES", 10)
    lines = ["report zwin.", "select * from t000 into ls_t."]
    lines += [f"x = {n}." for n in range(30)] + ["endselect.", "write 'done'."]
    kept = PrintedPieces()
    printed = await workbench.code.format_kept(lines, None, kept)
    assert printed == (await workbench.code.format("\n".join(lines))).split("\n")
    assert printed[5] == "  x = 3." and kept.last_sent == len(lines)
    typed = [*printed[:10], "y = 1.", *printed[10:]]
    again = await workbench.code.format_kept(typed, None, kept)
    assert again == (await workbench.code.format("\n".join(typed))).split("\n")


async def test_a_refused_window_stops_the_first_format(
    workbench: Workbench, emulator: Emulator, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = (await workbench.source.get_source_v2(LARGE)).content.split("\n")
    monkeypatch.setattr(printed_module, "WINDOW_LINES", 400)
    windows = len(_steps(PrintedPieces().planning(lines, OPTIONS[0], 400)))
    emulator.reset_request_log()
    emulator.faults.fail_next(status=500, method="POST", path_prefix=PRINTER)
    kept = PrintedPieces()
    with pytest.raises(AdtServerError):
        await workbench.code.format_kept(lines, LARGE, kept)
    posts = [r for r in emulator.request_log if r.method == "POST" and r.path == PRINTER]
    assert 1 <= len(posts) < windows / 2, (len(posts), windows)
    emulator.faults.clear()
    printed = await workbench.code.format_kept(lines, LARGE, kept)  # and then it works
    assert printed == (await workbench.code.format("\n".join(lines))).split("\n")
