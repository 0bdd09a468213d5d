"""Extract method through the workbench: ADT proposes the method and its signature and
answers the replacements; we write them token-checked under our locks (all or nothing) and
activate, as for a rename."""

from __future__ import annotations

import pytest
from support.emulated import GREETER

from adt.emulator import Emulator
from adt.source.errors import InvalidArgument, SourceError, VersionConflict
from adt.workbench import Workbench

MAIN = f"{GREETER}/source/main"


async def _lines_of(workbench: Workbench, first: str, last: str) -> tuple[int, int]:
    text = (await workbench.source.get_source_v2(object_source_url=MAIN)).content
    numbered = list(enumerate(text.split("\n"), start=1))
    start = next(n for n, line in numbered if first in line)
    end = next(n for n, line in numbered if n >= start and last in line)
    return start, end


async def test_a_block_becomes_a_method_that_activates(
    workbench: Workbench, emulator: Emulator
) -> None:
    first, last = await _lines_of(workbench, "IF iv_name IS INITIAL.", "ENDIF.")
    planned = await workbench.extraction.propose(MAIN, (first, 0), (last + 1, 0), "greeting_for")
    assert planned.proposal.signature() == (
        "IMPORTING iv_name TYPE string EXPORTING rv_text TYPE string"
    )
    assert planned.name == "greeting_for"
    edits = await workbench.renaming.saved_edits(planned.changes)
    outcome = await workbench.renaming.write_all(edits)
    assert [w.source_url for w in outcome.written] == [MAIN]
    assert outcome.activation is not None and outcome.activation.success
    active = emulator.source(MAIN, "active")
    assert (
        "    greeting_for(\n      EXPORTING iv_name = iv_name\n      IMPORTING rv_text = rv_text )."
        in active
    )
    assert "  METHOD greeting_for.\n    IF iv_name IS INITIAL." in active
    assert emulator.locks() == []


async def test_a_colleagues_change_stops_the_extraction(
    workbench: Workbench, emulator: Emulator
) -> None:
    first, last = await _lines_of(workbench, "mv_salutation = iv_salutation.", "NEW lcl_formatter")
    planned = await workbench.extraction.propose(MAIN, (first, 0), (last + 1, 0), "setup")
    edits = await workbench.renaming.saved_edits(planned.changes)
    theirs = emulator.source(MAIN, "inactive") + "\n* reviewed"
    emulator.write_as("COLLEAGUE", MAIN, theirs)
    with pytest.raises(VersionConflict) as refused:
        await workbench.renaming.write_all(edits)
    assert refused.value.details["objects"] == ["ZCL_DEMO_GREETER"]
    assert "COLLEAGUE" in refused.value.message
    assert emulator.source(MAIN, "inactive") == theirs  # nothing written
    assert emulator.locks() == []


async def test_a_selection_that_is_no_method_is_refused_in_words(workbench: Workbench) -> None:
    first, _ = await _lines_of(workbench, "LOOP AT it_names", "LOOP AT it_names")
    with pytest.raises(SourceError) as refused:  # half a loop
        await workbench.extraction.propose(MAIN, (first, 0), (first + 1, 0), "half")
    assert "splits a block" in refused.value.message or "opens a block" in refused.value.message
    with pytest.raises(InvalidArgument):
        await workbench.extraction.propose(MAIN, (first, 4), (first, 4))
