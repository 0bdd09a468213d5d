"""ABAP tokens with positions, grouped into statements (chains resolved).

The statement scanner (:mod:`adt.abap.scanner`) keeps only a statement's words; code
intelligence needs every identifier with its place, also inside the embedded expressions
of string templates (``|{ mv_x }|``), which the scanner skips. This lexer follows the
scanner's rules (``*`` comment lines, ``"`` comments, ``'…'``/`` `…` `` literals with the
scanner's end finder, ``|…{ … }…|`` templates, periods end statements) and adds positions:
lines 1-based, columns 0-based. A colon chain ``DATA: a TYPE i, b TYPE i.`` becomes two
statements that share the prefix tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from adt.abap.scanner import Scanner

NAME = "name"
LITERAL = "literal"
NUMBER = "number"
OP = "op"

_CODE = re.compile(
    r"(?P<ws>\s+)"
    r"|(?P<fs><[A-Za-z0-9_/]+>)"
    r"|(?P<ns>/[A-Za-z0-9_]+/[A-Za-z0-9_]+)"
    r"|(?P<name>[A-Za-z_%][A-Za-z0-9_%$]*)"
    r"|(?P<num>\d+)"
    r"|(?P<pragma>##\w*)"
    r"|(?P<op>->|=>|\?=|\+=|-=|\*=|/=|&&|<=|>=|<>|\*\*|.)"
)
_TEMPLATE_TEXT = re.compile(r"[^\\|{]+")


@dataclass(frozen=True, slots=True)
class Token:
    """One token as written, where it starts (line 1-based, column 0-based)."""

    text: str
    line: int
    column: int
    kind: str

    @property
    def upper(self) -> str:
        return self.text.upper()

    @property
    def end(self) -> int:
        """The column just past the token."""
        return self.column + len(self.text)

    def covers(self, line: int, column: int) -> bool:
        """Whether a cursor at (line, column) touches this token (its end included)."""
        return self.line == line and self.column <= column <= self.end


def adjacent(left: Token, right: Token) -> bool:
    """No blank between two tokens (``lo->m``, ``sy-index``, ``m(``)."""
    return left.line == right.line and left.end == right.column


@dataclass
class Statement:
    """The tokens of one statement (chains already expanded) and whether a period ended it."""

    tokens: list[Token]
    terminated: bool = True

    @property
    def line(self) -> int:
        return self.tokens[0].line

    @property
    def last_line(self) -> int:
        return self.tokens[-1].line

    def word(self, index: int) -> tuple[str, int]:
        """The keyword-like word starting at ``index`` (``FIELD-SYMBOLS``, ``CLASS-DATA``)
        and the index after it; ``("", index)`` past the end."""
        tokens = self.tokens
        if index >= len(tokens):
            return "", index
        text = tokens[index].upper
        i = index + 1
        while (
            i + 1 < len(tokens)
            and tokens[i].text == "-"
            and tokens[i + 1].kind == NAME
            and adjacent(tokens[i - 1], tokens[i])
            and adjacent(tokens[i], tokens[i + 1])
        ):
            text += "-" + tokens[i + 1].upper
            i += 2
        return text, i

    def words(self, count: int) -> list[str]:
        """The first ``count`` keyword-like words (fewer when the statement is shorter)."""
        found: list[str] = []
        index = 0
        while len(found) < count and index < len(self.tokens):
            text, index = self.word(index)
            found.append(text)
        return found

    @property
    def first(self) -> str:
        return self.word(0)[0]


@dataclass
class Lexed:
    """The statements of a source, its lines and its ABAP Doc comments (line → text)."""

    statements: list[Statement]
    lines: list[str]
    docs: dict[int, str] = field(default_factory=dict)


class _Lexer:
    def __init__(self) -> None:
        self.statements: list[Statement] = []
        self.docs: dict[int, str] = {}
        self._current: list[Token] = []
        self._prefix: list[Token] | None = None
        self._stack: list[str] = []  # "|" inside a template, "{" inside an embedded expression

    def line(self, number: int, text: str) -> None:
        if text.startswith("*"):
            return
        stripped = text.lstrip()
        if stripped.startswith('"!'):
            self.docs[number] = stripped[2:].strip()
        i, n = 0, len(text)
        while i < n:
            if self._stack and self._stack[-1] == "|":
                i = self._template_step(text, i)
            else:
                i = self._code_step(number, text, i)
        if self._stack and self._stack[-1] == "|":
            self._stack.clear()  # a template never spans lines

    def _template_step(self, text: str, i: int) -> int:
        ch = text[i]
        if ch == "\\":
            return i + 2
        if ch == "|":
            self._stack.pop()
        elif ch == "{":
            self._stack.append("{")
        else:
            match = _TEMPLATE_TEXT.match(text, i)
            return match.end() if match else i + 1
        return i + 1

    def _code_step(self, number: int, text: str, i: int) -> int:
        ch = text[i]
        if ch == '"':
            return len(text)
        if ch in "'`":
            end = Scanner._literal_end(text, i, ch)
            stop = len(text) if end < 0 else end + 1
            self._current.append(Token(text[i:stop], number, i, LITERAL))
            return stop
        if ch == "|":
            self._current.append(Token("|", number, i, LITERAL))
            self._stack.append("|")
            return i + 1
        if self._stack and ch == "}":
            self._stack.pop()
            return i + 1
        if not self._stack and ch in ".:,":
            self._separator(ch)
            return i + 1
        return self._token(number, text, i)

    def _token(self, number: int, text: str, i: int) -> int:
        match = _CODE.match(text, i)
        assert match is not None  # the last alternative matches any character
        group = match.lastgroup
        if group == "ns" and i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_"):
            self._current.append(Token("/", number, i, OP))  # a division, not /NS/NAME
            return i + 1
        if group in ("ws", "pragma"):
            return match.end()
        kind = {"fs": NAME, "ns": NAME, "name": NAME, "num": NUMBER}.get(group or "", OP)
        self._current.append(Token(match.group(), number, i, kind))
        return match.end()

    def _separator(self, ch: str) -> None:
        if ch == ":":
            if self._prefix is None:
                self._prefix = self._current
                self._current = []
            return
        if ch == "," and self._prefix is None:
            return  # a comma outside a chain separates nothing ABAP cares about here
        self._emit(terminated=ch == ".")
        if ch == ".":
            self._prefix = None

    def _emit(self, *, terminated: bool) -> None:
        if self._current:
            self.statements.append(Statement((self._prefix or []) + self._current, terminated))
        self._current = []

    def finish(self) -> None:
        if self._current:
            self._emit(terminated=False)


def lex(text: str) -> Lexed:
    """Tokenize canonical or CRLF text into statements."""
    lines = text.replace("\r\n", "\n").split("\n") if text else []
    lexer = _Lexer()
    for number, line in enumerate(lines, start=1):
        lexer.line(number, line)
    lexer.finish()
    return Lexed(lexer.statements, lines, lexer.docs)
