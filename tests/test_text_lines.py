"""A text's lines kept as the one string (``adt.text.TextLines``): every way of reading them
gives what the list of split lines gives, for any text, and the whole text costs no copy."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adt.text import TextLines, split_lines

texts = st.text(alphabet="ab é😀\x0c\u2028\x85\t\n", max_size=40)


@settings(max_examples=300)
@given(text=texts, data=st.data())
def test_reading_the_lines_matches_the_split_list(text: str, data: st.DataObject) -> None:
    lines, reference = TextLines(text), split_lines(text)
    assert len(lines) == len(reference)
    assert list(lines) == reference
    assert lines == reference and reference == lines and lines == tuple(reference)
    assert lines == TextLines(text) and lines != [*reference, "x"]
    count = len(reference)
    for index in range(-count, count):
        assert lines[index] == reference[index]
    for index in (count, -count - 1):
        with pytest.raises(IndexError):
            lines[index]
    start = data.draw(st.integers(-count - 2, count + 2))
    stop = data.draw(st.integers(-count - 2, count + 2))
    step = data.draw(st.sampled_from([None, 1, 2, -1]))
    assert lines[start:stop:step] == reference[start:stop:step]
    first = data.draw(st.integers(0, count))
    last = data.draw(st.integers(first, count))
    assert lines.joined(first, last) == "\n".join(reference[first:last])


def test_the_whole_text_is_the_text_itself() -> None:
    text = "REPORT z.\nWRITE 'x'.\n"
    lines = TextLines(text)
    assert lines.joined(0, len(lines)) is text
    assert lines.text is text
    assert lines[1:] == ["WRITE 'x'.", ""]


def test_the_empty_text_has_no_lines() -> None:
    assert len(TextLines("")) == 0 and list(TextLines("")) == [] and TextLines("")[0:5] == []
    assert len(TextLines("\n")) == 2 and TextLines("\n")[1] == ""
