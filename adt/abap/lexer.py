"""The project's one ABAP lexer: the lexical rules, and tokens with positions grouped into
statements (chains resolved).

ABAP's lexical rules live here once: ``*`` in column 0 starts a comment line, ``"`` a
comment to the end of the line; ``'…'`` and `` `…` `` literals stay on one line (a doubled
quote escapes one); ``|…{ … }…|`` templates embed expressions; a period outside literals
ends a statement, ``:`` opens a chain and ``,`` separates its elements. Two views are built
on them: :func:`lex` (code intelligence: every identifier with its place, also inside the
embedded expressions of templates) and :mod:`adt.abap.format.tokens` (rewriting: every
token as written, comments included, and which lines must stay verbatim), which uses
:func:`literal_end` and :data:`WORD` from here.

Each line is matched token by token with one regular expression (no per-character state
machine). Lines are 1-based, columns 0-based. A colon chain ``DATA: a TYPE i, b TYPE i.``
becomes two statements that share the prefix tokens.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple

NAME = "name"
LITERAL = "literal"
NUMBER = "number"
OP = "op"

#: A word as the rewriting view sees it: up to a blank, quote, template bar or separator.
WORD = re.compile(r"[^ \t\"'`|.:,]+")
_LITERALS = {"'": re.compile(r"'(?:[^']|'')*+'"), "`": re.compile(r"`(?:[^`]|``)*+`")}
_CODE = re.compile(  # names first: most tokens are names, and no other alternative starts alike
    r"\s*(?:(?P<name>[A-Za-z_%][A-Za-z0-9_%$]*)"
    r"|(?P<ws>$)"
    r'|(?P<comment>")'
    r"|(?P<lit>'(?:[^']|'')*+'|`(?:[^`]|``)*+`)"
    r"|(?P<broken>['`])"
    r"|(?P<bar>\|)"
    r"|(?P<sep>[.:,])"
    r"|(?P<close>\})"
    r"|(?P<fs><[A-Za-z0-9_/]+>)"
    r"|(?P<ns>(?<![A-Za-z0-9_])/[A-Za-z0-9_]+/[A-Za-z0-9_]+)"
    r"|(?P<num>\d+)"
    r"|(?P<pragma>##\w*)"
    r"|(?P<op>->|=>|\?=|\+=|-=|\*=|/=|&&|<=|>=|<>|\*\*|.))"
)
_TEMPLATE_TEXT = re.compile(r"[^\\|{]+")
_KINDS = {"fs": NAME, "ns": NAME, "name": NAME, "num": NUMBER, "op": OP, "lit": LITERAL}


def literal_end(line: str, start: int) -> int:
    """The column of the quote that closes the literal opening at ``start``; -1 when the
    line ends first."""
    found = _LITERALS[line[start]].match(line, start)
    return found.end() - 1 if found is not None else -1


class Token(NamedTuple):
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

    def is_word(self, *words: str) -> bool:
        """A name equal (case-insensitively) to one of ``words`` (lower case)."""
        return self.kind == NAME and self.text.lower() in words


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
        if '"!' in text:
            stripped = text.lstrip()
            if stripped.startswith('"!'):
                self.docs[number] = stripped[2:].strip()
        stack = self._stack
        if not stack and "|" not in text:
            self._code_line(number, text)
            return
        i, n = 0, len(text)
        while i < n:
            if stack and stack[-1] == "|":
                i = self._template_step(text, i)
            else:
                i = self._code_step(number, text, i)
        if stack and stack[-1] == "|":
            stack.clear()  # a template never spans lines

    def _code_line(self, number: int, text: str) -> None:
        """A line without templates: the tokens of :meth:`_code_step` in one loop (most
        lines; a call per token was a third of what lexing a large code base cost)."""
        match, kinds, n, i = _CODE.match, _KINDS, len(text), 0
        new = tuple.__new__
        while i < n:
            found = match(text, i)
            assert found is not None  # the last alternative matches any character
            group = found.lastgroup or "op"
            kind = kinds.get(group)
            i = found.end()
            if kind is not None:
                start = found.start(group)
                self._current.append(new(Token, (found.group(group), number, start, kind)))
            elif group in ("sep", "close"):
                start = found.start(group)
                self._punctuation(number, text[start], start)
            elif group == "broken":
                start = found.start(group)
                self._current.append(Token(text[start:], number, start, LITERAL))
                return
            elif group == "comment":
                return

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
        """One token of code (or of an embedded expression); where the next one starts."""
        match = _CODE.match(text, i)
        assert match is not None  # the last alternative matches any character
        group = match.lastgroup or "op"
        i = match.start(group)
        kind = _KINDS.get(group)
        if kind is not None:
            self._current.append(Token(match.group(group), number, i, kind))
        elif group == "comment":
            return len(text)
        elif group == "broken":
            self._current.append(Token(text[i:], number, i, LITERAL))
            return len(text)
        elif group == "bar":
            self._current.append(Token("|", number, i, LITERAL))
            self._stack.append("|")
        elif group in ("sep", "close"):
            self._punctuation(number, text[i], i)
        return match.end()

    def _punctuation(self, number: int, ch: str, i: int) -> None:
        """``.:,`` separate statements outside templates; ``}`` closes an embedded
        expression; elsewhere they are operators."""
        if self._stack and ch == "}":
            self._stack.pop()
        elif not self._stack and ch != "}":
            self._separator(ch)
        else:
            self._current.append(Token(ch, number, i, OP))

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


def lex(text: str, first: int = 1) -> Lexed:
    """Tokenize canonical or CRLF text into statements; ``first`` is the number of its
    first line (a part of a source lexed alone keeps the source's line numbers)."""
    lines = text.replace("\r\n", "\n").split("\n") if text else []
    lexer = _Lexer()
    for number, line in enumerate(lines, start=first):
        if line:  # an empty line changes nothing (many: blanked method bodies)
            lexer.line(number, line)
    lexer.finish()
    return Lexed(lexer.statements, lines, lexer.docs)
