"""Split ABAP source into statements: the shared scanner of the checker and the outline.

It does not know ABAP's grammar. It respects ``*`` comment lines, ``"`` end-of-line
comments and the literals ``'…'``, `` `…` `` and ``|…{ … }…|``, splits at periods, and
records each statement's first words, where it starts and where it ends. Lines are 1-based,
columns 0-based (as in ADT fragments ``#start=L,C``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from adt.abap.lexer import literal_end

#: A run of a word's characters, or a period, in code without literals (what the
#: per-character step reads as words and statement ends).
_WORD_PIECE = re.compile(r"\.|[^\s:,.]+")
#: What the per-character step reads in code outside templates, a piece at a time: a
#: literal, an opening quote without its end, a comment, a template's bar (the steps take
#: over there), a period, separators, or a run of a word's characters.
_CODE_PIECE = re.compile(
    r"(?P<literal>'(?:[^']|'')*+'|`(?:[^`]|``)*+`)|(?P<open>['`])|(?P<comment>\")"
    r"|(?P<bar>\|)|(?P<period>\.)|(?P<blank>[\s:,]+)|(?P<word>[^\s:,.'`\"|]+)"
)

MULTILINE_LITERAL = "Literals that take up more than one line are not permitted."


@dataclass(frozen=True)
class ScanIssue:
    """One finding: where and what; ``severity`` as ADT writes it (``E`` error, ``W``
    warning, which does not stop an activation)."""

    line: int
    column: int
    end_column: int
    message: str
    severity: str = "E"


@dataclass
class Statement:
    """The words of one statement (upper case), where it starts and where it ends
    (``end_line``/``end_column`` point just past the period, or the last character)."""

    words: list[str]
    line: int
    column: int
    terminated: bool
    end_line: int = 0
    end_column: int = 0


class Scanner:
    """Splits ABAP text into statements, tracking literal and comment state."""

    def __init__(self) -> None:
        self.statements: list[Statement] = []
        self.findings: list[ScanIssue] = []
        self._word = ""
        self._words: list[str] = []
        self._start: tuple[int, int] | None = None
        self._last: tuple[int, int] = (0, 0)
        self._stack: list[str] = []  # literal/template nesting: "|", "{"

    @property
    def between_statements(self) -> bool:
        """No statement, literal or embedded expression is open: what follows scans as if
        the text started there."""
        return self._start is None and not self._words and not self._word and not self._stack

    def _flush_word(self) -> None:
        if self._word:
            self._words.append(self._word.upper())
            self._word = ""

    def _mark(self, line: int, col: int) -> None:
        if self._start is None:
            self._start = (line, col)
        self._last = (line, col + 1)

    def _end_statement(self, terminated: bool, end: tuple[int, int] | None = None) -> None:
        self._flush_word()
        if self._start is not None:
            line, col = self._start
            end_line, end_column = end or self._last
            self.statements.append(
                Statement(self._words, line, col, terminated, end_line, end_column)
            )
        self._words = []
        self._start = None

    def scan_line(self, number: int, line: str) -> None:
        if line.startswith("*"):
            return
        i, n = 0, len(line)
        if not self._stack:
            if not any(c in line for c in "'`|\"{}"):
                self._scan_plain(number, line)
                return
            code = line.split('"', 1)[0]
            if not any(c in code for c in "'`|"):  # code, then at most a comment
                self._scan_words(number, code)
                return
            i = self._scan_code(number, line)
        while i < n:
            if self._stack and self._stack[-1] == "|":
                i = self._template_step(line, i)
            else:
                i = self._code_step(number, line, i)
        if self._stack and self._stack[-1] == "|":
            self.findings.append(ScanIssue(number, 0, n, MULTILINE_LITERAL))
            self._stack.clear()
        self._flush_word()

    def _template_step(self, line: str, i: int) -> int:
        """Inside ``|…|``: skip escapes, leave at ``|``, enter an embedded ``{ … }``."""
        ch = line[i]
        if ch == "\\" and i + 1 < len(line):
            return i + 2
        if ch == "|":
            self._stack.pop()
        elif ch == "{":
            self._stack.append("{")
        return i + 1

    def _code_step(self, number: int, line: str, i: int) -> int:
        """In code (or an embedded expression ``{ … }``): one character or literal."""
        ch, n = line[i], len(line)
        embedded = bool(self._stack)  # the top is "{"
        if ch == '"':
            return n  # the rest of the line is a comment
        if ch in "'`":
            end = self._literal_end(line, i, ch)
            self._mark(number, i)
            self._word += "'"
            if end < 0:
                self.findings.append(ScanIssue(number, i, n, MULTILINE_LITERAL))
                return n
            return end + 1
        if ch == "|":
            self._mark(number, i)
            self._stack.append("|")
        elif ch == "}" and embedded:
            self._stack.pop()
        elif not embedded and ch == ".":
            self._end_statement(True, (number, i + 1))
        elif (not embedded and ch in ":,") or ch.isspace():
            self._flush_word()
        else:
            self._mark(number, i)
            if not embedded:
                self._word += ch
        return i + 1

    def _scan_words(self, number: int, code: str) -> None:
        """What :meth:`_code_step` does over ``code`` (no literal, no template), a regular
        expression match per word instead of a step per character: most commented lines."""
        for piece in _WORD_PIECE.finditer(code):
            if piece.group() == ".":
                self._end_statement(True, (number, piece.end()))
                continue
            if self._start is None:
                self._start = (number, piece.start())
            self._last = (number, piece.end())
            self._words.append(piece.group().upper())

    def _scan_code(self, number: int, line: str) -> int:
        """What :meth:`_code_step` does over ``line`` (no template open), a regular
        expression match per word, literal or blank run instead of a step per character,
        up to a template's bar; where the steps go on (the line's end when nothing is
        left)."""
        for piece in _CODE_PIECE.finditer(line):
            kind = piece.lastgroup
            if kind == "word":
                if self._start is None:
                    self._start = (number, piece.start())
                self._last = (number, piece.end())
                self._word += piece.group()
            elif kind == "blank":
                self._flush_word()
            elif kind == "period":
                self._end_statement(True, (number, piece.end()))
            elif kind == "literal" or kind == "open":
                self._mark(number, piece.start())
                self._word += "'"
                if kind == "open":
                    self.findings.append(
                        ScanIssue(number, piece.start(), len(line), MULTILINE_LITERAL)
                    )
                    return len(line)
            else:  # a comment ends the line; a template's bar goes to the steps
                return len(line) if kind == "comment" else piece.start()
        return len(line)

    def _scan_plain(self, number: int, line: str) -> None:
        col = 0
        for piece in line.split("."):
            segment = piece
            stripped = segment.strip()
            if stripped:
                self._mark(number, col + len(segment) - len(segment.lstrip()))
                self._last = (number, col + len(segment.rstrip()))
                for word in stripped.replace(":", " ").replace(",", " ").split():
                    self._words.append(word.upper())
            col += len(piece) + 1
            if col <= len(line):
                self._end_statement(True, (number, col))

    @staticmethod
    def _literal_end(line: str, start: int, quote: str) -> int:
        return literal_end(line, start)

    def finish(self) -> None:
        self._end_statement(False)


def scan(text: str) -> Scanner:
    """Scan canonical (LF) text; the result holds ``statements`` and literal ``findings``."""
    scanner = Scanner()
    for number, line in enumerate(text.split("\n") if text else [], start=1):
        scanner.scan_line(number, line)
    scanner.finish()
    return scanner


def statements(text: str) -> list[Statement]:
    return scan(text).statements
