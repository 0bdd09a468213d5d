"""Rebasing a write over a colleague's change: properties of the line mapping over random
concurrent edit pairs, and the whole write against the emulator.

The oracle of "untouched" is written independently of :mod:`adt.source.rebase`: the lines a
patch replaces plus one line on each side (the text's ends count) must still stand together,
unchanged and in order, in the current text. Lines are unique, so "still there" is exact."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support.emulated import GREETER, REPORT, make_client, no_sleep

from adt.emulator import Emulator
from adt.source import Patch, SourceConfig, SourceService
from adt.source.cache import SourceCache
from adt.source.changes import Replacement
from adt.source.errors import VersionConflict
from adt.source.lines import apply_patches
from adt.source.rebase import Overlap, Rebased, rebase
from adt.text import split_lines

REPORT_SOURCE = f"{REPORT}/source/main"


# --- the oracle and the strategies ---------------------------------------------------------


def untouched(base: Sequence[str], current: Sequence[str], patch: Patch) -> bool:
    """Whether the patch's lines and one line of context around them stand unchanged and
    together in ``current`` (the start and end of the text count as context lines)."""
    low, high = max(1, patch.start_line - 1), min(len(base), patch.end_line + 1)
    window = list(base[low - 1 : high])
    if not window:
        return list(current) == []
    if window[0] not in current:
        return False
    at = list(current).index(window[0])
    if list(current[at : at + len(window)]) != window:
        return False
    if patch.start_line - 1 < 1 and at != 0:  # the top of the text was context
        return False
    return not (patch.end_line + 1 > len(base) and at + len(window) != len(current))


@st.composite
def patches(draw: st.DrawFn, size: int, tag: str, most: int) -> list[Patch]:
    """Up to ``most`` non-overlapping patches on a text of ``size`` lines, new lines tagged."""
    chosen: list[Patch] = []
    for number in range(draw(st.integers(1, most))):
        start = draw(st.integers(1, size + 1))
        end = draw(st.integers(start - 1, min(size, start + 3)))
        count = draw(st.integers(0, 3))
        patch = Patch(start, end, tuple(f"{tag} {number}.{k}" for k in range(count)))
        if patch.start_line > patch.end_line and count == 0:
            continue  # inserting nothing changes nothing
        candidate = [*chosen, patch]
        try:
            apply_patches("\n".join(f"l{k}" for k in range(size)), candidate)
        except Exception:
            continue  # overlapping another one of the same side
        chosen = candidate
    assume(chosen)
    return chosen


@st.composite
def edit_pairs(draw: st.DrawFn) -> tuple[list[str], list[Patch], list[Patch]]:
    size = draw(st.integers(1, 25))
    base = [f"base {k}" for k in range(1, size + 1)]
    ours = draw(patches(size, "ours", 2))
    theirs = draw(patches(size, "theirs", 3))
    return base, ours, theirs


def _lines(text: str) -> list[str]:
    return split_lines(text)


# --- properties of the mapping -------------------------------------------------------------


@settings(max_examples=600, deadline=None)
@given(pair=edit_pairs())
def test_a_rebase_equals_applying_both_and_an_overlap_is_always_refused(
    pair: tuple[list[str], list[Patch], list[Patch]],
) -> None:
    base, ours, theirs = pair
    current = _lines(apply_patches("\n".join(base), theirs).text)
    moved = rebase(base, current, ours)
    if all(untouched(base, current, p) for p in ours):
        assert isinstance(moved, Rebased), (ours, theirs)
        result = apply_patches("\n".join(current), moved.patches).text
        assert result == apply_patches("\n".join(base), [*ours, *theirs]).text
    else:
        assert isinstance(moved, Overlap), (ours, theirs)
        touching = [(p.start_line, p.end_line) for p in ours if not untouched(base, current, p)]
        assert sorted(moved.ours) == sorted(touching)


@settings(max_examples=400, deadline=None)
@given(pair=edit_pairs())
def test_a_colleagues_change_is_never_lost(
    pair: tuple[list[str], list[Patch], list[Patch]],
) -> None:
    base, ours, theirs = pair
    current = _lines(apply_patches("\n".join(base), theirs).text)
    moved = rebase(base, current, ours)
    if isinstance(moved, Overlap):
        return
    result = _lines(apply_patches("\n".join(current), moved.patches).text)
    added = [line for line in current if line not in base]
    removed = [line for line in base if line not in current]
    assert all(line in result for line in added), "a line they added is gone"
    assert not any(line in result for line in removed), "a line they removed came back"
    replaced_by_us = {base[k - 1] for p in ours for k in range(p.start_line, p.end_line + 1)}
    kept = [line for line in current if line in base and line not in replaced_by_us]
    assert [line for line in result if line in kept] == kept, "their order is kept"


def test_an_insertion_at_the_top_next_to_our_first_line_is_an_overlap() -> None:
    base = ["a", "b", "c"]
    moved = rebase(base, ["new", "a", "b", "c"], [Patch(1, 1, ("A",))])
    assert isinstance(moved, Overlap) and moved.theirs == ((1, 1),)


def test_a_change_two_lines_away_moves_ours_by_the_lines_it_added() -> None:
    base = ["a", "b", "c", "d", "e"]
    moved = rebase(base, ["a", "x", "y", "c", "d", "e"], [Patch(4, 4, ("D",))])
    assert isinstance(moved, Rebased) and moved.patches == (Patch(5, 5, ("D",)),)


# --- the write against the emulator ---------------------------------------------------------

CLASS_SOURCE = f"{GREETER}/source/main"


async def _greeter_methods(service: SourceService) -> tuple[str, str]:
    """Two method names of the demo class (the agent edits one, the colleague the other)."""
    from adt.abap.locate import symbols

    read = await service.get_source_v2(GREETER)
    methods = [p.name.rsplit("=>", 1)[-1] for p in symbols(read.content) if p.kind == "method"]
    assert len(methods) >= 2, methods
    return methods[0], methods[-1]


def _replace_part(text: str, name: str, body: str) -> str:
    from adt.source.symbols import locate

    part = locate(text, name, for_write=True)
    lines = text.split("\n")
    lines[part.start_line - 1 : part.end_line] = body.split("\n")
    return "\n".join(lines)


async def test_a_colleagues_change_of_another_method_is_kept_and_reported(
    service: SourceService, emulator: Emulator
) -> None:
    mine, theirs_name = await _greeter_methods(service)
    read = await service.get_source_v2(GREETER)
    theirs = _replace_part(
        read.content, theirs_name, f'  METHOD {theirs_name}.\n    " colleague\n  ENDMETHOD.'
    )
    emulator.write_as("COLLEAGUE", CLASS_SOURCE, theirs)
    ours = f'  METHOD {mine}.\n    " agent\n  ENDMETHOD.'
    written = await service.set_source_v2(
        GREETER, token=read.token, symbol=mine, content=ours, rebase=True
    )
    stored = emulator.source(CLASS_SOURCE)
    assert stored == _replace_part(theirs, mine, ours)
    assert '" colleague' in stored and '" agent' in stored
    over = written.to_dict()["rebasedOver"]
    assert over["fromToken"] == read.token and over["changedBy"] == "COLLEAGUE"
    assert over["lines"] and written.token == (await service.get_source_v2(GREETER)).token


async def test_without_rebase_the_same_write_is_refused(
    service: SourceService, emulator: Emulator
) -> None:
    mine, theirs_name = await _greeter_methods(service)
    read = await service.get_source_v2(GREETER)
    theirs = _replace_part(read.content, theirs_name, f"  METHOD {theirs_name}.\n  ENDMETHOD.")
    emulator.write_as("COLLEAGUE", CLASS_SOURCE, theirs)
    with pytest.raises(VersionConflict) as caught:
        await service.set_source_v2(
            GREETER, token=read.token, symbol=mine, content=f"  METHOD {mine}.\n  ENDMETHOD."
        )
    assert "overlap" not in caught.value.details and emulator.source(CLASS_SOURCE) == theirs


async def test_an_overlap_is_a_conflict_naming_the_lines_and_nothing_is_written(
    service: SourceService, emulator: Emulator
) -> None:
    read = await service.get_source_v2(REPORT)
    lines = read.content.split("\n")
    lines[4] = "* colleague"  # line 5
    theirs = "\n".join(lines)
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, theirs)
    with pytest.raises(VersionConflict) as caught:  # line 6 touches their line 5
        await service.set_source_v2(
            REPORT, token=read.token, start_line=6, end_line=6, content="* agent", rebase=True
        )
    error = caught.value
    assert error.code == 4003 and error.details["changedBy"] == "COLLEAGUE"
    assert error.details["overlap"] == {"yourLines": [[6, 6]], "theirLines": [[5, 5]]}
    assert "lines 5 " in error.message and "lines 6 " in error.message
    assert emulator.source(REPORT_SOURCE) == theirs


async def test_an_unknown_base_is_a_conflict_that_says_so(emulator: Emulator) -> None:
    reader = SourceService(make_client(emulator), system="A4H", sleep=no_sleep)
    writer = SourceService(  # another process: it never handed out the reader's token
        make_client(emulator),
        system="A4H",
        config=SourceConfig(retry_delays=(0.0,)),
        cache=SourceCache(),
        sleep=no_sleep,
    )
    try:
        draft = emulator.source(REPORT_SOURCE) + "\n* draft"  # saved, never activated: in
        emulator.write_as("COLLEAGUE", REPORT_SOURCE, draft)  # no version list once replaced
        read = await reader.get_source_v2(REPORT)
        theirs = read.content + "\n* colleague"
        emulator.write_as("COLLEAGUE", REPORT_SOURCE, theirs)
        with pytest.raises(VersionConflict) as caught:
            await writer.set_source_v2(
                REPORT, token=read.token, start_line=1, end_line=1, content="* a", rebase=True
            )
        assert caught.value.details["baseUnknown"] is True
        assert "no longer known" in caught.value.message
        assert emulator.source(REPORT_SOURCE) == theirs
    finally:
        for service in (reader, writer):
            await service.close()
            await service.client.close()
    assert emulator.locks() == []


async def test_an_active_version_from_adts_list_serves_as_the_base(emulator: Emulator) -> None:
    """A token of the active version, unknown to this process, is found in the versions feed."""
    reader = SourceService(make_client(emulator), system="A4H", sleep=no_sleep)
    writer = SourceService(make_client(emulator), system="A4H", sleep=no_sleep)
    try:
        read = await reader.get_source_v2(REPORT)
        lines = read.content.split("\n")
        theirs = "\n".join([*lines, "* colleague"])
        emulator.write_as("COLLEAGUE", REPORT_SOURCE, theirs)
        written = await writer.set_source_v2(
            REPORT, token=read.token, start_line=1, end_line=1, content="* agent", rebase=True
        )
        assert written.rebased_over is not None
        assert emulator.source(REPORT_SOURCE) == "\n".join(["* agent", *lines[1:], "* colleague"])
    finally:
        for service in (reader, writer):
            await service.close()
            await service.client.close()
    assert emulator.locks() == []


# --- random concurrent edit pairs through the whole write -----------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(pair=edit_pairs())
def test_random_concurrent_edits_through_the_emulator(
    pair: tuple[list[str], list[Patch], list[Patch]],
) -> None:
    base, ours, theirs = pair

    async def run() -> None:
        emulator = Emulator(users={"DEVELOPER": "developer", "COLLEAGUE": "colleague"})
        emulator.write_as("DEVELOPER", REPORT_SOURCE, "\n".join(base))
        service = SourceService(make_client(emulator), system="A4H", sleep=no_sleep)
        try:
            read = await service.get_source_v2(REPORT, fresh=True)
            current = apply_patches(read.content, theirs).text
            emulator.write_as("COLLEAGUE", REPORT_SOURCE, current)
            clear = all(untouched(base, _lines(current), p) for p in ours)
            try:
                await service.set_source_v2(REPORT, token=read.token, patches=ours, rebase=True)
            except VersionConflict:
                assert not clear, "a change that touches nothing of theirs was refused"
                assert emulator.source(REPORT_SOURCE) == current, "nothing is written"
            else:
                assert clear, "an overlapping change was written"
                both = apply_patches("\n".join(base), [*ours, *theirs]).text
                assert emulator.source(REPORT_SOURCE) == both
        finally:
            await service.close()
            await service.client.close()
        assert emulator.locks() == []

    asyncio.run(run())


# --- replaceInObjectSource: the replacement found in the token's text ----------------------


@st.composite
def replacement_pairs(draw: st.DrawFn) -> tuple[list[str], str, str, list[Patch]]:
    """A base, a replacement of text from inside one line to inside a later one (at most two
    lines further), and a colleague's patches made meanwhile."""
    size = draw(st.integers(1, 20))
    base = [f"base {k}" for k in range(1, size + 1)]
    first = draw(st.integers(1, size))
    last = draw(st.integers(first, min(size, first + 2)))
    text = "\n".join(base)
    start = sum(len(line) + 1 for line in base[: first - 1]) + draw(st.integers(0, 4))
    end = sum(len(line) + 1 for line in base[: last - 1])
    end += draw(st.integers(5, len(base[last - 1])))
    old = text[start:end]
    assume(old and text.count(old) == 1)
    new = "\n".join(f"ours {k}" for k in range(draw(st.integers(1, 3))))
    return base, old, new, draw(patches(size, "theirs", 3))


def replaced_where_it_was(
    base: Sequence[str], current: Sequence[str], at: int, old: str, new: str
) -> str:
    """The occurrence at offset ``at`` of the base replaced where its first line stands in
    ``current`` (lines are unique; a copy of ``old`` elsewhere in ``current`` is left)."""
    text = "\n".join(base)
    first = text.count("\n", 0, at)
    column = at - sum(len(line) + 1 for line in base[:first])
    moved = current.index(base[first])
    start = sum(len(line) + 1 for line in current[:moved]) + column
    after = "\n".join(current)
    assert after[start : start + len(old)] == old
    return after[:start] + new + after[start + len(old) :]


@settings(max_examples=80, deadline=None)
@given(pair=replacement_pairs())
def test_a_replacement_rebases_as_the_line_patch_over_the_lines_it_spans(
    pair: tuple[list[str], str, str, list[Patch]],
) -> None:
    base, old, new, theirs = pair
    text = "\n".join(base)
    current = apply_patches(text, theirs).text
    at = text.index(old)
    spanned = Patch(text.count("\n", 0, at) + 1, text.count("\n", 0, at + len(old)) + 1, ())
    moved = rebase(base, _lines(current), Replacement(old, new).patches(text))
    if untouched(base, _lines(current), spanned):
        assert isinstance(moved, Rebased), (old, theirs)
        result = apply_patches(current, moved.patches).text
        assert result == replaced_where_it_was(base, _lines(current), at, old, new)
    else:
        assert isinstance(moved, Overlap), (old, theirs)


@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
@given(pair=replacement_pairs())
def test_random_replacements_beside_a_colleagues_edits_through_the_emulator(
    pair: tuple[list[str], str, str, list[Patch]],
) -> None:
    base, old, new, theirs = pair

    async def run() -> None:
        emulator = Emulator(users={"DEVELOPER": "developer", "COLLEAGUE": "colleague"})
        emulator.write_as("DEVELOPER", REPORT_SOURCE, "\n".join(base))
        service = SourceService(make_client(emulator), system="A4H", sleep=no_sleep)
        try:
            read = await service.get_source_v2(REPORT, fresh=True)
            current = apply_patches(read.content, theirs).text
            emulator.write_as("COLLEAGUE", REPORT_SOURCE, current)
            refused: dict[str, object] = {}
            try:
                written = await service.replace_in_source(
                    REPORT, old_string=old, new_string=new, token=read.token, rebase=True
                )
            except VersionConflict as exc:
                refused = exc.details
            if refused:
                assert "overlap" in refused, refused
                assert emulator.source(REPORT_SOURCE) == current, "nothing is written"
            else:
                at = read.content.index(old)
                after = replaced_where_it_was(base, _lines(current), at, old, new)
                assert emulator.source(REPORT_SOURCE) == after
                assert written.rebased_over is not None or current == read.content
        finally:
            await service.close()
            await service.client.close()
        assert emulator.locks() == []

    asyncio.run(run())


async def test_a_replacement_unique_in_the_tokens_text_wins_over_a_copy_added_since(
    service: SourceService, emulator: Emulator
) -> None:
    read = await service.get_source_v2(REPORT)
    lines = read.content.split("\n")
    n = next(k for k, line in enumerate(lines) if line and lines.count(line) == 1)
    theirs = "\n".join([*lines, lines[n]])  # the colleague copied that line to the end
    emulator.write_as("COLLEAGUE", REPORT_SOURCE, theirs)
    written = await service.replace_in_source(
        REPORT, old_string=lines[n], new_string="* agent", token=read.token, rebase=True
    )
    ours = [*lines[:n], "* agent", *lines[n + 1 :], lines[n]]
    assert emulator.source(REPORT_SOURCE) == "\n".join(ours)
    assert written.to_dict()["rebasedOver"]["changedBy"] == "COLLEAGUE"
