"""The document buffer: incremental edits, position encodings, hunks back to the base."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adt.source.lines import apply_patches
from adt.text import TextLines
from lsp_server.buffer import (
    UTF8,
    UTF16,
    UTF32,
    TextBuffer,
    apply_edits,
    index_to_units,
    line_edits,
    units_to_index,
)

ENCODINGS = [UTF8, UTF16, UTF32]


def _units(prefix: str, encoding: str) -> int:
    """Independent reference for a position's code units."""
    if encoding == UTF16:
        return len(prefix.encode("utf-16-le")) // 2
    if encoding == UTF8:
        return len(prefix.encode("utf-8"))
    return len(prefix)


def _reference_apply(text: str, start: tuple[int, int], end: tuple[int, int], new: str) -> str:
    """Apply a change given as (line, str index) positions on the plain string."""
    lines = text.split("\n")

    def offset(line: int, index: int) -> int:
        return sum(len(line_) + 1 for line_ in lines[:line]) + index

    a, b = sorted([offset(*start), offset(*end)])
    return text[:a] + new.replace("\r\n", "\n").replace("\r", "\n") + text[b:]


ALPHABET = "ab é😀\x0c\u2028\x85\t"
texts = st.text(alphabet=ALPHABET + "\n", max_size=40)
inserted = st.text(alphabet=ALPHABET + "\n\r", max_size=12)


@st.composite
def edit_sessions(
    draw: st.DrawFn,
) -> tuple[str, list[tuple[tuple[int, int], tuple[int, int], str]]]:
    base = draw(texts)
    text = base
    edits = []
    for _ in range(draw(st.integers(1, 8))):
        lines = text.split("\n")
        positions = []
        for _ in range(2):
            line = draw(st.integers(0, len(lines) - 1))
            positions.append((line, draw(st.integers(0, len(lines[line])))))
        new = draw(inserted)
        edits.append((positions[0], positions[1], new))
        text = _reference_apply(text, positions[0], positions[1], new)
    return base, edits


@settings(max_examples=300)
@given(session=edit_sessions(), encoding=st.sampled_from(ENCODINGS))
def test_random_edits_match_the_reference_and_hunks_rebuild_the_text(
    session: tuple[str, list[tuple[tuple[int, int], tuple[int, int], str]]], encoding: str
) -> None:
    base, edits = session
    buffer = TextBuffer(base, encoding)
    expected = base
    for start, end, new in edits:
        lines = expected.split("\n")
        to_units = [(line, _units(lines[line][:index], encoding)) for line, index in (start, end)]
        buffer.apply_change(to_units[0], to_units[1], new)
        expected = _reference_apply(expected, start, end, new)
        assert buffer.text == expected
    patches = [hunk.as_patch() for hunk in buffer.hunks()]
    rebuilt = apply_patches(base, patches).text if patches else base
    assert rebuilt == buffer.text
    assert buffer.dirty == (buffer.text != base)
    assert buffer.clamped == 0, "valid positions are never counted as clamped"


def test_form_feed_and_unicode_separators_do_not_break_lines() -> None:
    buffer = TextBuffer("a\x0cb\nc\u2028d\ne\x85f")
    assert buffer.line_count == 3
    buffer.apply_change((2, 0), (2, 0), "X")
    assert buffer.lines[2] == "Xe\x85f"
    assert [(h.start, h.end, h.lines) for h in buffer.hunks()] == [(3, 3, ("Xe\x85f",))]


@pytest.mark.parametrize(("encoding", "units"), [(UTF16, 3), (UTF8, 5), (UTF32, 2)])
def test_positions_after_an_astral_character(encoding: str, units: int) -> None:
    line = "😀a"
    assert units_to_index(line, units, encoding) == 2
    assert index_to_units(line, 2, encoding) == units
    buffer = TextBuffer(line, encoding)
    buffer.apply_change((0, units), (0, units), "!")
    assert buffer.text == "😀a!"


def test_multi_line_insert_and_delete_give_minimal_hunks() -> None:
    buffer = TextBuffer("one\ntwo\nthree\nfour")
    buffer.apply_change((1, 3), (1, 3), "\nnew a\nnew b")
    assert buffer.text == "one\ntwo\nnew a\nnew b\nthree\nfour"
    buffer.apply_change((3, 0), (4, 0), "")
    assert buffer.text == "one\ntwo\nnew a\nthree\nfour"
    assert [(h.start, h.end, h.lines) for h in buffer.hunks()] == [(3, 2, ("new a",))]


def test_undo_to_the_base_is_clean() -> None:
    buffer = TextBuffer("alpha\nbeta")
    buffer.apply_change((0, 5), (0, 5), " gamma")
    assert buffer.dirty
    buffer.apply_change((0, 5), (0, 11), "")
    assert not buffer.dirty and buffer.hunks() == []


def test_full_replacement_and_positions_past_the_end() -> None:
    buffer = TextBuffer("a\nb")
    buffer.apply_change(None, None, "x\ny\nz")
    assert [(h.start, h.end, h.lines) for h in buffer.hunks()] == [(1, 2, ("x", "y", "z"))]
    buffer.apply_change((99, 0), (99, 0), "\nend")
    assert buffer.text == "x\ny\nz\nend"


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_positions_past_the_end_of_a_line_or_document_are_clamped_and_counted(
    encoding: str,
) -> None:
    buffer = TextBuffer("ab\nü😀\nc", encoding)
    at_end = _units("ü😀", encoding)
    buffer.apply_change((1, at_end), (1, at_end), "!")  # the end of a non-ASCII line
    buffer.apply_change((0, 2), (0, 2), "?")  # the end of an ASCII line
    assert buffer.text == "ab?\nü😀!\nc" and buffer.clamped == 0
    buffer.apply_change((1, at_end + 2), (1, 99), "#")  # past the end of the line
    assert buffer.text == "ab?\nü😀!#\nc" and buffer.clamped == 2
    buffer.apply_change((0, 1), (0, 40), "")  # the end past the end of an ASCII line
    assert buffer.text == "a\nü😀!#\nc" and buffer.clamped == 3
    buffer.apply_change((9, 0), (9, 5), "\nend")  # past the end of the document
    assert buffer.text == "a\nü😀!#\nc\nend" and buffer.clamped == 5


def test_empty_base_and_emptied_document() -> None:
    empty = TextBuffer("")
    empty.apply_change((0, 0), (0, 0), "REPORT z.")
    assert [(h.start, h.end, h.lines) for h in empty.hunks()] == [(1, 0, ("REPORT z.",))]
    cleared = TextBuffer("a\nb")
    cleared.apply_change((0, 0), (1, 1), "")
    assert [(h.start, h.end, h.lines) for h in cleared.hunks()] == [(1, 2, ())]
    assert apply_patches("a\nb", [cleared.hunks()[0].as_patch()]).text == ""


def test_rebase_adopts_the_saved_text() -> None:
    buffer = TextBuffer("a")
    buffer.apply_change((0, 1), (0, 1), "b")
    buffer.rebase()
    assert not buffer.dirty and buffer.base_text == "ab"
    buffer.rebase("server\ntext")
    assert buffer.text == "server\ntext" and not buffer.dirty


line_lists = st.lists(st.sampled_from(["a", "b", "", "c c"]), min_size=1, max_size=8)


@given(old=line_lists, new=line_lists)
def test_line_edits_turn_old_into_new(old: list[str], new: list[str]) -> None:
    edits = line_edits(old, new)
    assert apply_edits(old, edits) == "\n".join(new)
    for before, after in itertools.pairwise(edits):
        assert before.end < after.start, "edits never meet at a position"
    if old == new:
        assert edits == []


def test_set_base_keeps_current_lines() -> None:
    buffer = TextBuffer("a\nb")
    buffer.apply_change((1, 1), (1, 1), "!")
    buffer.set_base("a\nb!")
    assert not buffer.dirty and buffer.hunks() == []
    buffer.set_base("a\nB")
    assert buffer.dirty and [(h.start, h.end, h.lines) for h in buffer.hunks()] == [(2, 2, ("b!",))]


def test_encoding_names() -> None:
    from lsprotocol.types import PositionEncodingKind

    from lsp_server.buffer import encoding_name

    assert encoding_name(PositionEncodingKind.Utf16) == "utf-16"
    assert encoding_name("utf-8") == "utf-8" and encoding_name(None) == "utf-16"
    with pytest.raises(ValueError, match="unsupported"):
        encoding_name("latin-1")


def test_lines_map_to_the_base_after_incremental_and_whole_edits() -> None:
    buffer = TextBuffer("a\nb\nc\nd\ne")
    buffer.apply_change((0, 0), (0, 0), "new\n")  # a line above everything
    buffer.apply_change((3, 1), (3, 1), "!")  # "c" becomes "c!"
    assert [buffer.base_line(i) for i in range(6)] == [None, 0, 1, None, 3, 4]
    assert [buffer.line_of_base(i) for i in range(5)] == [1, 2, None, 4, 5]
    buffer.apply_change(None, None, "a\nb\nnew\nd\ne")  # a client without increments
    assert [buffer.base_line(i) for i in range(5)] == [0, 1, None, 3, 4]
    assert buffer.line_of_base(2) is None and buffer.base_line(9) is None


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "c", ""]), min_size=1, max_size=12),
    st.lists(st.tuples(st.integers(0, 20), st.sampled_from(["x", "\n", "y\nz", ""])), max_size=6),
)
def test_a_mapped_line_is_the_same_text_in_the_base(base: list[str], edits: list) -> None:
    buffer = TextBuffer("\n".join(base))
    for line, text in edits:
        line = min(line, len(buffer.lines) - 1)
        buffer.apply_change((line, 0), (line, 0), text)
    saved = buffer.base_text.split("\n")
    for index, text in enumerate(buffer.lines):
        origin = buffer.base_line(index)
        if origin is not None:
            assert saved[origin] == text
            assert buffer.line_of_base(origin) == index


def test_range_formatting_keeps_only_the_changes_in_the_selection() -> None:
    from lsp_server.features.formatting import only_lines

    old = ["report z.", "if 1 = 1.", "write 'a'. write 'b'.", "endif.", "write 'c'."]
    new = ["REPORT z.", "IF 1 = 1.", "  WRITE 'a'.", "  WRITE 'b'.", "ENDIF.", "WRITE 'c'."]
    assert only_lines(old, new, 2, 2) == [
        "report z.",
        "if 1 = 1.",
        "  WRITE 'a'.",
        "  WRITE 'b'.",
        "endif.",
        "write 'c'.",
    ]
    assert only_lines(old, new, 0, 4) == new
    assert only_lines(old, new, 4, 4) == [*old[:4], "WRITE 'c'."]


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "A", " a", "b", "c c", ""]), min_size=1, max_size=8),
    st.lists(st.sampled_from(["a", "B", "  b", "c  c", "d"]), min_size=1, max_size=8),
)
def test_formatting_every_line_is_formatting_the_document(old: list[str], new: list[str]) -> None:
    from lsp_server.features.formatting import only_lines

    assert only_lines(old, new, 0, len(old) - 1) == new
    assert only_lines(old, new, len(old) + 5, len(old) + 9) == old


def test_every_change_of_the_lines_is_counted() -> None:
    """What reads the lines keeps its result until this count moves (the outline's scan)."""
    buffer = TextBuffer("a\nb")
    counted = buffer.changes
    buffer.rebase()  # a save: the lines stay
    buffer.set_base("a\nc")
    assert buffer.changes == counted
    buffer.apply_change((0, 1), (0, 1), "x")
    buffer.apply_change(None, None, "whole")
    buffer.rebase("reloaded")
    assert buffer.changes == counted + 3 and buffer.lines == ["reloaded"]


# --- a document kept as one string until its first change (adt.text.TextLines) ------------

crlf_texts = st.text(alphabet=ALPHABET + "\n\r", max_size=40)


@settings(max_examples=300)
@given(text=crlf_texts, data=st.data(), encoding=st.sampled_from(ENCODINGS))
def test_a_buffer_kept_as_one_string_edits_like_the_list_of_lines(
    text: str, data: st.DataObject, encoding: str
) -> None:
    """The same random edits (positions in the editor's encoding, at line ends and the end of
    the document included) on a buffer opened from a text, one opened from the cache's
    lines and one opened from a list of lines give the same text, lines, hunks and mapping
    to the base, read before and after each change."""
    canonical = text.replace("\r\n", "\n").replace("\r", "\n")
    plain = canonical.split("\n")
    buffers = [
        TextBuffer(text, encoding),
        TextBuffer(TextLines(canonical), encoding),
        TextBuffer(plain, encoding),
    ]
    expected = canonical
    for _ in range(data.draw(st.integers(0, 6))):
        for buffer in buffers:
            assert list(buffer.lines) == expected.split("\n") and buffer.text == expected
            assert buffer.line_count == len(plain) or buffer.changes
        lines = expected.split("\n")
        positions = []
        for _ in range(2):
            line = data.draw(st.integers(0, len(lines) - 1))
            positions.append((line, data.draw(st.integers(0, len(lines[line])))))
        new = data.draw(inserted)
        units = [(line, _units(lines[line][:index], encoding)) for line, index in positions]
        for buffer in buffers:
            buffer.apply_change(units[0], units[1], new)
        expected = _reference_apply(expected, positions[0], positions[1], new)
    first = buffers[0]
    for buffer in buffers:
        assert buffer.text == expected and list(buffer.lines) == expected.split("\n")
        assert buffer.base_text == canonical
        assert buffer.hunks() == first.hunks() and buffer.dirty == (expected != canonical)
        for line in range(len(buffer.lines)):
            assert buffer.base_line(line) == first.base_line(line)
        patches = [hunk.as_patch() for hunk in buffer.hunks()]
        rebuilt = apply_patches(canonical, patches).text if patches else canonical
        assert rebuilt == expected


def test_an_opened_read_shares_the_cached_text_until_its_first_change() -> None:
    cached = TextLines("REPORT z.\nWRITE '😀'.\n")
    buffer = TextBuffer(cached, UTF16)
    assert buffer.lines is cached and buffer.text is cached.text, "no copy of the text"
    assert buffer.base_text is cached.text and not buffer.dirty and buffer.hunks() == []
    assert buffer.base_line(2) == 2 and buffer.line_of_base(1) == 1
    buffer.apply_change((1, 10), (1, 11), "!")  # the period, in UTF-16 units
    assert buffer.lines == ["REPORT z.", "WRITE '😀'!", ""]
    assert buffer.base_text == cached.text
    assert [(h.start, h.end, h.lines) for h in buffer.hunks()] == [(2, 2, ("WRITE '😀'!",))]
    buffer.rebase()
    assert not buffer.dirty and buffer.base_text == "REPORT z.\nWRITE '😀'!\n"


def test_a_reader_keeping_the_lines_shares_their_strings_with_the_buffer() -> None:
    buffer = TextBuffer(TextLines("a\nb\nc"))
    changes = buffer.changes
    lines = buffer.line_list()
    assert buffer.lines is lines and buffer.line_list() is lines and buffer.changes == changes
    buffer.apply_change((0, 1), (0, 1), "x")
    assert buffer.lines is lines and lines[1] is buffer.line_list()[1]
    assert [(h.start, h.end, h.lines) for h in buffer.hunks()] == [(1, 1, ("ax",))]


def test_one_string_documents_at_the_edges() -> None:
    """An empty document is one empty line however it is opened; CRLF and lone CR break
    lines; an edit at the very end of a document kept as one string."""
    for empty in ("", TextLines(""), []):
        buffer = TextBuffer(empty)
        assert buffer.lines == [""] and buffer.text == ""
        buffer.apply_change((0, 0), (0, 0), "x\n")
        assert buffer.text == "x\n" and [(h.start, h.end) for h in buffer.hunks()] == [(1, 0)]
    buffer = TextBuffer("a\r\nb\rc", UTF8)
    assert list(buffer.lines) == ["a", "b", "c"] and buffer.line_count == 3
    buffer.apply_change((2, 1), (2, 1), "\r\nd")
    assert buffer.text == "a\nb\nc\nd"
    assert buffer.line_of_base(2) == 2 and buffer.base_line(3) is None
    whole = TextBuffer("a\nb")
    whole.apply_change(None, None, "a\r\nb\r\nc")
    assert whole.text == "a\nb\nc" and [(h.start, h.end) for h in whole.hunks()] == [(3, 2)]


# --- keys inside one line (the fast path of apply_change) ---------------------------------

ascii_lines = st.lists(st.text(alphabet="ab =.", max_size=8), min_size=1, max_size=6)


@st.composite
def in_line_keys(draw: st.DrawFn) -> list[tuple[tuple[int, int], tuple[int, int], str]]:
    """Changes as an editor sends keys, mostly inside one line; now and then a position past
    the end of its line, the two ends given in either order, or a change across lines."""
    keys = []
    for _ in range(draw(st.integers(1, 12))):
        line = draw(st.integers(0, 7))
        other = line if draw(st.booleans()) else draw(st.integers(0, 7))
        start, end = (line, draw(st.integers(0, 10))), (other, draw(st.integers(0, 10)))
        keys.append((start, end, draw(st.text(alphabet="xy\n", max_size=3))))
    return keys


def _clamped(lines: list[str], point: tuple[int, int]) -> tuple[tuple[int, int], int]:
    """A position moved inside the text as the buffer does, and whether it had to move."""
    line, column = point
    if line >= len(lines):
        return (len(lines) - 1, len(lines[-1])), 1
    return (line, min(column, len(lines[line]))), int(column > len(lines[line]))


@settings(max_examples=300)
@given(base=ascii_lines, keys=in_line_keys(), encoding=st.sampled_from(ENCODINGS))
def test_keys_in_ascii_lines_edit_count_and_log_like_any_change(
    base: list[str], keys: list[tuple[tuple[int, int], tuple[int, int], str]], encoding: str
) -> None:
    buffer = TextBuffer("\n".join(base), encoding)
    expected, clamped = "\n".join(base), 0
    for start, end, new in keys:
        lines = expected.split("\n")
        (start_at, start_moved), (end_at, end_moved) = _clamped(lines, start), _clamped(lines, end)
        first, last = sorted([start_at, end_at])
        count = buffer.changes
        buffer.apply_change(start, end, new)
        expected = _reference_apply(expected, first, last, new)
        clamped += start_moved + end_moved
        assert buffer.text == expected and buffer.clamped == clamped
        # what a reader of the lines is told changed: the lines around the change are kept
        after = expected.split("\n")
        assert buffer.changed_since(count) == (first[0], len(lines) - 1 - last[0])
        assert buffer.lines[: first[0]] == after[: first[0]]
    patches = [hunk.as_patch() for hunk in buffer.hunks()]
    assert (apply_patches("\n".join(base), patches).text if patches else "\n".join(base)) == (
        buffer.text
    )
    assert buffer.dirty == (buffer.text != "\n".join(base))
