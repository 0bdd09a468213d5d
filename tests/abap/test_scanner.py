"""The statement scanner's fast path for lines of code (with literals, a comment, up to a
template) reads them exactly as the per-character step does."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from adt.abap.scanner import Scanner, scan

_PIECES = [
    "DATA",
    "lv_x",
    "=",
    "1",
    ".",
    ":",
    ",",
    " ",
    "  ",
    "\t",
    '"',
    '" c.',
    "{",
    "}",
    "->",
    "ENDMETHOD",
    "METHOD",
    "'",
    "|",
    "`",
    "x.",
    "''",
    "'a.b'",
    "`c``d`",
    "\u00a0",
    "|a{ b }|",
]


class _CharByChar(Scanner):
    """The scanner as it read such lines before: one step per character."""

    def _scan_words(self, number: int, code: str) -> None:
        for i in range(len(code)):
            self._code_step(number, code, i)
        self._flush_word()

    def _scan_code(self, number: int, line: str) -> int:
        return 0  # the steps read the whole line


def _reference(text: str) -> _CharByChar:
    scanner = _CharByChar()
    for number, line in enumerate(text.split("\n"), start=1):
        scanner.scan_line(number, line)
    scanner.finish()
    return scanner


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_PIECES), max_size=12).map("".join), max_size=12))
def test_commented_lines_scan_as_the_character_steps_do(lines: list[str]) -> None:
    text = "\n".join(lines)
    fast, slow = scan(text), _reference(text)
    assert fast.statements == slow.statements
    assert fast.findings == slow.findings


def test_a_commented_line_splits_its_statements() -> None:
    found = scan('  DATA: a, b. lv_x = 1. " set x.\n  WRITE a.').statements
    assert [(s.words, s.line, s.column, s.end_line, s.end_column) for s in found] == [
        (["DATA", "A", "B"], 1, 2, 1, 13),
        (["LV_X", "=", "1"], 1, 14, 1, 23),
        (["WRITE", "A"], 2, 2, 2, 10),
    ]
