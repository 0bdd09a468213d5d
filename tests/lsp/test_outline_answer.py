"""The outline answer written from compiled chunks is the ``DocumentSymbol[]`` that
:func:`adt.abap.outline.outline_of` describes, and the folds of chunks placed at their lines
are those of the whole text, after any edit, in every position encoding; the buffer tells a
reader which lines an edit left alone."""

from __future__ import annotations

import random

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adt.abap import folding, outline
from adt.abap.chunked import ChunkedStatements
from adt.abap.folding import KeptFolds, fold_ranges, folds
from adt.abap.outline import Symbol, outline_of
from lsp_server.buffer import UTF8, UTF16, UTF32, TextBuffer, index_to_units
from lsp_server.outline_answer import OutlineWriter

HEADS = outline.HEADS | folding.HEADS
_KINDS = {"class": 5, "interface": 11, "method": 6, "function": 12, "module": 2}
_LINES = [
    "CLASS zcl_x DEFINITION PUBLIC.",
    "  PUBLIC SECTION.",
    "    METHODS m IMPORTING iv TYPE i.",
    "    CLASS-METHODS",
    "      create RETURNING VALUE(r) TYPE REF TO zcl_x.",
    "ENDCLASS.",
    "CLASS zcl_x IMPLEMENTATION.",
    '  METHOD m. " é ünïcode 𝄞',
    "    WRITE 'ENDMETHOD.'.",
    "  ENDMETHOD.",
    "  METHOD m2. ENDMETHOD.",
    "INTERFACE zif_%d_x.",
    "ENDINTERFACE.",
    "FORM f.",
    "ENDFORM.",
    "FUNCTION z_f.",
    "MODULE status_0100 OUTPUT.",
    "ENDMODULE.",
    "CLASS zcl_y DEFINITION DEFERRED.",
    "* comment",
    "    x = |open",
]


def _reference(symbols: list[Symbol], lines: list[str], encoding: str) -> list[object]:
    """The answer as the server built it before (one dict per symbol)."""

    def position(line: int, index: int) -> dict[str, int]:
        if line < len(lines):
            index = index_to_units(lines[line], index, encoding)
        return {"line": line, "character": index}

    def symbol(found: Symbol) -> dict[str, object]:
        line, end_line = found.start[0] - 1, found.end[0] - 1
        start, end = position(line, found.start[1]), position(end_line, found.end[1])
        first_end = end if line == end_line else position(line, 1 << 30)
        answer: dict[str, object] = {
            "name": found.name,
            "kind": _KINDS[found.kind],
            "range": {"start": start, "end": end},
            "selectionRange": {"start": start, "end": first_end},
            "children": [symbol(child) for child in found.children],
        }
        if found.detail:
            answer["detail"] = found.detail
        return answer

    return [symbol(s) for s in symbols]


def _line(rnd: random.Random) -> str:
    if rnd.random() < 0.6:
        return rnd.choice(_LINES)
    return f"    lv_{rnd.randrange(5000)} = {rnd.randrange(9)}."


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 200), st.sampled_from([UTF8, UTF16, UTF32]))
def test_the_written_outline_is_the_outline_after_every_edit(
    seed: int, size: int, encoding: str
) -> None:
    rnd = random.Random(seed)
    buffer = TextBuffer([_line(rnd) for _ in range(size)], encoding)
    scan, writer, kept = ChunkedStatements(HEADS), OutlineWriter(encoding), KeptFolds()
    since = buffer.changes
    found = scan.read(buffer.lines)
    for _ in range(6):
        written = orjson.loads(writer.write(buffer.lines, found.placed()))
        assert written == _reference(outline_of(found.statements), buffer.lines, encoding)
        whole = [(f.start, f.end, f.kind) for f in folds("\n".join(buffer.lines))]
        assert fold_ranges(found.placed(), found.comments) == whole
        assert kept.ranges(found.placed(), found.comments) == whole
        for _ in range(rnd.randrange(1, 3)):  # edits as an editor sends them
            line = rnd.randrange(len(buffer.lines))
            text = rnd.choice(["", "\n", _line(rnd), "\n" + _line(rnd) + "\n", "x."])
            end = min(len(buffer.lines) - 1, line + rnd.randrange(3))
            buffer.apply_change((line, rnd.randrange(4)), (end, rnd.randrange(6)), text)
        found = scan.read(buffer.lines, buffer.changed_since(since))
        since = buffer.changes


def test_kept_folds_make_events_only_for_the_chunks_an_edit_scanned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lines = [f"  METHOD m{i}.\n    IF x = {i}.\n    ENDIF.\n  ENDMETHOD." for i in range(3_000)]
    buffer = TextBuffer(["CLASS c IMPLEMENTATION.", *"\n".join(lines).split("\n"), "ENDCLASS."])
    scan, kept = ChunkedStatements(HEADS), KeptFolds()
    found = scan.read(buffer.lines)
    before = kept.ranges(found.placed(), found.comments)
    made: list[int] = []
    real = folding.block_events
    monkeypatch.setattr(folding, "block_events", lambda run: made.append(len(run)) or real(run))
    since = buffer.changes
    buffer.apply_change((6_001, 0), (6_001, 0), "    DO.\n    ENDDO.\n")  # Enter: lines move
    found = scan.read(buffer.lines, buffer.changed_since(since))
    after = kept.ranges(found.placed(), found.comments)
    assert 0 < len(made) <= 3  # the chunks around the edit, not the document's hundred
    assert sum(made) < 1_000  # of its 12,004 statements
    assert (6_001, 6_002, "region") in after and len(after) == len(before) + 1
    assert after == [(f.start, f.end, f.kind) for f in folds("\n".join(buffer.lines))]


def test_the_buffer_tells_which_lines_stayed_the_same() -> None:
    buffer = TextBuffer([f"line {i}" for i in range(100)])
    start = buffer.changes
    assert buffer.changed_since(start) == (100, 100)
    buffer.apply_change((10, 0), (10, 0), "new\n")  # Enter: 101 lines, 10 above, 90 below
    buffer.apply_change((50, 2), (52, 0), "")  # two lines joined away
    assert buffer.changed_since(start) == (10, 48)
    assert buffer.changed_since(start + 1) == (50, 48)
    assert buffer.changed_since(buffer.changes + 1) is None
    for _ in range(100):
        buffer.apply_change((1, 0), (1, 0), "x")
    assert buffer.changed_since(start) is None  # too long ago: read everything
    buffer.apply_change(None, None, "all new")
    assert buffer.changed_since(buffer.changes - 1) == (0, 0)
