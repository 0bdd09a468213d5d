"""``client.fixes``: typed proposals and edits on the emulator, the edits applied to the
text, and the parsers over A4H's recorded answers (805, 809, 810)."""

from __future__ import annotations

import pytest
from support.emulated import REPORT, make_client

from adt.areas.fixes import (
    FixEdit,
    FixEdits,
    FixProposal,
    Position,
    apply_edits,
    parse_evaluation,
    parse_proposal_result,
)
from adt.emulator import Emulator
from adt.errors import NotFoundError, UnexpectedResponseError

PROBE = "/sap/bc/adt/programs/programs/zmcp_qf_probe1/source/main"
PROBE_CLASS = (
    "REPORT zmcp_qf_probe1.\n\nCLASS lcl DEFINITION.\n  PUBLIC SECTION.\n"
    "    METHODS run.\nENDCLASS.\n\nCLASS lcl IMPLEMENTATION.\nENDCLASS."
)
QF = 'xmlns:qf="http://www.sap.com/adt/quickfixes"'
CORE = 'xmlns:adtcore="http://www.sap.com/adt/core"'
# A4H 810: two units in descending order, the second a deletion (empty content).
A4H_810 = (
    f'<?xml version="1.0" encoding="utf-8"?><qf:proposalResult {QF}><deltas><unit><content>\n'
    "  PRIVATE SECTION.\n    METHODS run.</content><adtcore:objectReference adtcore:uri="
    f'"{PROBE}#start=5,16" adtcore:type="PROG/P" adtcore:name="Insert member definition" {CORE}/>'
    "</unit><unit><content/><adtcore:objectReference adtcore:uri="
    f'"{PROBE}#start=5,4;end=5,16" adtcore:type="PROG/P" adtcore:name="Remove declaration" '
    f"{CORE}/></unit></deltas><variableSourceStates><adtcore:objectReferences {CORE}/>"
    "</variableSourceStates></qf:proposalResult>"
)
A4H_809 = (
    f'<?xml version="1.0" encoding="utf-8"?><qf:proposalResult {QF}><deltas/>'
    f"<variableSourceStates><adtcore:objectReferences {CORE}/></variableSourceStates>"
    "</qf:proposalResult>"
)


async def test_proposals_and_edits_are_typed(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        [proposal] = await client.fixes.evaluate(PROBE, PROBE_CLASS, 3, 0)
        edits = await client.fixes.apply(proposal, PROBE_CLASS)
    assert proposal == FixProposal(
        uri="/sap/bc/adt/quickfixes/proposals/providers/refactoring/quickfixes/unimplemented_methods",
        kind="add_unimplemented_method",
        name="Add implementation for 'run'",
        description="<p>Creates an empty method implementation for method <b>run</b> in class "
        "<b>lcl</b>.</p>",
        user_content="",
        source_url=PROBE,
        position=Position(3, 0),
    )
    assert edits == FixEdits(
        (
            FixEdit(
                PROBE,
                Position(9, 0),
                Position(9, 0),
                "  METHOD run.\n\n  ENDMETHOD.\n\n",
                "Insert method implementation",
                "PROG/P",
            ),
        ),
        selection=Position(10, 0),
    )
    assert edits.edits[0].is_insertion
    assert apply_edits(PROBE_CLASS, edits.edits).endswith(
        "CLASS lcl IMPLEMENTATION.\n  METHOD run.\n\n  ENDMETHOD.\n\nENDCLASS."
    )


async def test_declaring_a_variable_of_the_sample_report(emulator: Emulator) -> None:
    source_url = f"{REPORT}/source/main"
    async with make_client(emulator) as client:
        text = (await client.read_source(source_url)).text
        text = text.replace("  WRITE: / |", "  lv_total = lv_sum + 1.\n  WRITE: / |")
        line = text.split("\n").index("  lv_total = lv_sum + 1.") + 1
        proposals = await client.fixes.evaluate(source_url, text, line, 2)
        assert [p.kind for p in proposals] == ["declare_local_variable"]
        edits = await client.fixes.apply(proposals[0], text)
        fixed = apply_edits(text, edits.edits)
        assert "  DATA lv_sum TYPE i.\n  DATA lv_total TYPE any.\n" in fixed
        assert await client.fixes.evaluate(source_url, fixed, line + 1, 2) == []


async def test_nothing_to_fix_is_an_empty_list(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        assert await client.fixes.evaluate(PROBE, "BREAK-POINT.", 1, 0) == []


async def test_an_unknown_proposal_is_not_found_and_a_foreign_uri_is_refused(
    emulator: Emulator,
) -> None:
    unknown = FixProposal(
        "/sap/bc/adt/quickfixes/proposals/providers/refactoring/quickfixes/qf_rename",
        "rename_quickfix",
        "Rename",
        "",
        "",
        PROBE,
        Position(3, 6),
    )
    foreign = FixProposal("/sap/bc/adt/oo/classes/x", "x", "x", "", "", PROBE, Position(1, 0))
    async with make_client(emulator) as client:
        with pytest.raises(NotFoundError):
            await client.fixes.apply(unknown, PROBE_CLASS)
        with pytest.raises(ValueError, match="not a quick fix"):
            await client.fixes.apply(foreign, PROBE_CLASS)


def test_recorded_units_are_parsed_unsorted_and_applied_bottom_up() -> None:
    result = parse_proposal_result(A4H_810.encode())
    assert [(e.start, e.end, e.text, e.label) for e in result.edits] == [
        (
            Position(5, 16),
            Position(5, 16),
            "\n  PRIVATE SECTION.\n    METHODS run.",
            "Insert member definition",
        ),
        (Position(5, 4), Position(5, 16), "", "Remove declaration"),
    ]
    assert result.selection is None
    before = (
        "REPORT zmcp_qf_probe1.\n\nCLASS lcl DEFINITION.\n  PUBLIC SECTION.\n"
        "    METHODS run.\nENDCLASS."
    )
    assert apply_edits(before, result.edits) == (
        "REPORT zmcp_qf_probe1.\n\nCLASS lcl DEFINITION.\n  PUBLIC SECTION.\n    \n"
        "  PRIVATE SECTION.\n    METHODS run.\nENDCLASS."
    )
    assert parse_proposal_result(A4H_809.encode()) == FixEdits(())


def test_evaluations_are_read_by_namespace() -> None:
    body = (
        '<r:evaluationResults xmlns:r="http://www.sap.com/adt/quickfixes"><evaluationResult>'
        '<c:objectReference xmlns:c="http://www.sap.com/adt/core" c:uri="/sap/bc/adt/quickfixes/x"'
        ' c:type="t" c:name="n" c:description="&lt;p&gt;d&lt;/p&gt;"/><userContent>&lt;a/&gt;'
        "</userContent></evaluationResult></r:evaluationResults>"
    )
    [proposal] = parse_evaluation(body.encode(), PROBE, Position(1, 2))
    assert (proposal.uri, proposal.kind, proposal.description, proposal.user_content) == (
        "/sap/bc/adt/quickfixes/x",
        "t",
        "<p>d</p>",
        "<a/>",
    )
    with pytest.raises(UnexpectedResponseError):
        parse_evaluation(b"<other/>", PROBE, Position(1, 2))
