"""ABAP source as positioned tokens: what a tool needs to rewrite text without changing it.

:mod:`adt.abap.scanner` answers "which statements, where, and their first words". Rewriting
code (the pretty printer, quick fixes) needs more: every token with its line and column, and
which ones must never be touched — comments, literals, string templates. This is the
rewriting view of the project's one lexer (:mod:`adt.abap.lexer`, whose rules, word pattern
and literal rule it uses); templates stay one token here (their embedded expressions may
continue on the next line), and it adds two rules of its own:

* a line the lexer cannot rewrite safely is marked ``verbatim``: one with an unterminated
  literal or template, one that starts inside a template, and the native sections whose text
  is not ABAP (native SQL up to ``ENDEXEC``, an AMDP method's SQLScript up to
  ``ENDMETHOD``), with the line that opens them;
* whitespace is only blank and tab, so no other character is ever dropped.

Lines are 1-based, columns 0-based (as in ADT fragments ``#start=L,C``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from adt.abap.lexer import WORD as _WORD
from adt.abap.lexer import literal_end

BLANKS = " \t"
#: Blanks, then a word (the lexer's word pattern) or any other character (or the line end).
_NEXT = re.compile(r"[ \t]*(?:(" + _WORD.pattern + r")|(.))?")
#: What a line without comments, literals and templates is made of.
_PLAIN = re.compile("(" + _WORD.pattern + r")|([.:,])")
_SPECIAL = re.compile("[\"'`|]")
_WORD_END = BLANKS + "\"'`|.:,"


class TokenKind(Enum):
    WORD = "word"
    LITERAL = "literal"  # '…' or `…`
    TEMPLATE = "template"  # |…| with its embedded expressions; may span lines
    COMMENT = "comment"  # " to the end of the line
    PERIOD = "period"
    COLON = "colon"
    COMMA = "comma"
    BROKEN = "broken"  # an unterminated literal or template: the rest of its line


_MARKS = {".": TokenKind.PERIOD, ":": TokenKind.COLON, ",": TokenKind.COMMA}


class LineKind(Enum):
    BLANK = "blank"
    STAR = "star"  # a comment line: * in column 0
    CODE = "code"


@dataclass(eq=False, slots=True)
class Token:
    """One token. ``text`` of a template that spans lines holds its line breaks (LF).

    A token is itself (equality and hash by identity): within one source no two tokens
    share a position, and the printer keys its tables by token hundreds of thousands of
    times, so comparing the fields each time cost a fifth of its work. Nothing changes a
    token once the lexer made it (a frozen dataclass cost a second per 100,000 tokens to
    make)."""

    kind: TokenKind
    text: str
    line: int
    column: int
    _upper: str | None = field(default=None, repr=False)

    @property
    def upper(self) -> str:
        """The text in upper case (computed once: the printer asks for it often)."""
        if self._upper is None:
            self._upper = self.text.upper()
        return self._upper


@dataclass
class SourceLine:
    """One line, the tokens that start on it, and whether a tool must leave it as it is."""

    number: int
    text: str
    kind: LineKind
    tokens: list[Token] = field(default_factory=list)
    verbatim: bool = False
    _code: list[Token] | None = field(default=None, repr=False, compare=False)

    @property
    def indent(self) -> int:
        return len(self.text) - len(self.text.lstrip(BLANKS))

    @property
    def code_tokens(self) -> list[Token]:
        """The tokens but the comment (kept: the lexer forgets it when it adds a token;
        a plain attribute, as ``cached_property`` takes a lock on every read)."""
        if self._code is None:
            tokens = self.tokens
            if tokens and tokens[-1].kind is TokenKind.COMMENT:
                self._code = [t for t in tokens if t.kind is not TokenKind.COMMENT]
            else:
                self._code = tokens
        return self._code

    def add(self, token: Token) -> None:
        """A token added after the line was scanned (a template that ended further down)."""
        self.tokens.append(token)
        self._code = None


@dataclass
class TokenStatement:
    """The tokens of one statement (comments left out), up to and including its period."""

    tokens: list[Token]
    terminated: bool
    _words: list[str] | None = field(default=None, repr=False, compare=False)
    _colon: int | None = field(default=-1, repr=False, compare=False)

    @property
    def first(self) -> Token:
        return self.tokens[0]

    @property
    def last(self) -> Token:
        return self.tokens[-1]

    @property
    def words(self) -> list[str]:
        """Its words in upper case (literals, templates and punctuation left out; read
        often, so kept: a statement's tokens do not change once it is made)."""
        if self._words is None:
            self._words = [t.upper for t in self.tokens if t.kind is TokenKind.WORD]
        return self._words

    @property
    def is_empty(self) -> bool:
        return self.tokens[0].kind is TokenKind.PERIOD

    @property
    def colon(self) -> int | None:
        """Index (in ``tokens``) of the chain colon, if it is a chained statement."""
        if self._colon == -1:
            self._colon = next(
                (i for i, t in enumerate(self.tokens) if t.kind is TokenKind.COLON), None
            )
        return self._colon

    def elements(self) -> list[list[Token]]:
        """The chain elements after the colon (split at commas), or everything after the
        first word for a statement that is not chained."""
        colon = self.colon
        body = self.tokens[1:] if colon is None else self.tokens[colon + 1 :]
        if colon is None:
            return [[t for t in body if t.kind is not TokenKind.PERIOD]]
        parts: list[list[Token]] = [[]]
        for token in body:
            if token.kind is TokenKind.COMMA:
                parts.append([])
            elif token.kind is not TokenKind.PERIOD:
                parts[-1].append(token)
        return parts


@dataclass
class _Template:
    """A template still open at the end of a line (inside an embedded expression);
    ``index``: its first line's place in the lexer's lines (a lexer may be given only some
    lines of a source, :mod:`adt.abap.format.segments`)."""

    index: int
    line: int
    column: int
    parts: list[str]
    stack: list[str]


_NATIVE_HEADS = frozenset({"EXEC", "METHOD"})


def native_closer(words: list[str]) -> str | None:
    """The word that ends the native section a statement opens: native SQL after
    ``EXEC SQL``, SQLScript in an AMDP method (``METHOD m BY DATABASE PROCEDURE …``)."""
    if words[:2] == ["EXEC", "SQL"]:
        return "ENDEXEC"
    if words[:1] == ["METHOD"] and "BY" in words:
        by = words.index("BY")
        if words[by + 1 : by + 2] == ["DATABASE"]:
            return "ENDMETHOD"
    return None


def _starts_word(text: str, word: str) -> bool:
    stripped = text.lstrip(BLANKS).upper()
    return stripped.startswith(word) and (
        len(stripped) == len(word) or stripped[len(word)] in _WORD_END
    )


class Lexer:
    """Lexes lines fed one at a time (:func:`lex` feeds all of a source's); a caller may
    leave out lines while :attr:`resting` (:mod:`adt.abap.format.segments`)."""

    def __init__(self) -> None:
        self.lines: list[SourceLine] = []
        self._template: _Template | None = None
        self._words: list[str] = []
        self._native: str | None = None  # the word that ends a native (non-ABAP) section
        self._opened_at: int | None = None  # where the native section opened on this line

    @property
    def resting(self) -> bool:
        """No template and no native section open: a line fed next is lexed afresh."""
        return self._template is None and self._native is None

    # lines -------------------------------------------------------------------------------
    def add(self, number: int, text: str) -> None:
        if self._template is not None:
            line = SourceLine(number, text, LineKind.CODE, verbatim=True)
            self.lines.append(line)
            self._scan(line, self._continue_template(line, 0))
        elif self._native is not None and not _starts_word(text, self._native):
            self.lines.append(SourceLine(number, text, LineKind.CODE, verbatim=True))
        elif text.startswith("*"):
            self.lines.append(SourceLine(number, text, LineKind.STAR))
        elif not text.strip(BLANKS):
            self.lines.append(SourceLine(number, text, LineKind.BLANK))
        else:
            self._native = None
            line = SourceLine(number, text, LineKind.CODE)
            self.lines.append(line)
            self._scan(line, 0)
        self._after_native_opening()

    def _after_native_opening(self) -> None:
        """The line that opens a native section stays as it is if native text follows."""
        if self._opened_at is not None:
            line, opened_at = self.lines[-1], self._opened_at
            self._opened_at = None
            if any(t.column > opened_at for t in line.code_tokens) or self._template:
                line.verbatim = True

    def finish(self) -> None:
        if self._template is not None:
            self._break_template(self.lines[-1])

    def _scan(self, line: SourceLine, start: int) -> None:
        """The tokens of ``line`` from ``start``: words and punctuation by one expression
        each (most of a source), the rest by :meth:`_step`."""
        text, number, tokens = line.text, line.number, line.tokens
        if not start and self._native is None:
            special = _SPECIAL.search(text)
            stop = len(text) if special is None else special.start()
            if special is None or text[stop] == '"':  # a comment may end the line
                start = self._plain(line, stop)
        i, size = start, len(text)
        while i < size and self._template is None:
            found = _NEXT.match(text, i)
            assert found is not None  # every alternative may be empty but the last
            word, mark = found.group(1, 2)
            if word is not None:
                tokens.append(Token(TokenKind.WORD, word, number, found.start(1)))
                self._words.append(word)  # a new list after each period
                if self._native is not None and word.upper() == self._native:
                    self._native = None  # a native section that ends on the line it started
                i = found.end()
            elif mark is not None:
                i = self._step(line, found.start(2))
            else:
                return  # blanks to the end of the line

    def _plain(self, line: SourceLine, stop: int) -> int:
        """A line of words and punctuation only (no comment, literal or template): most
        lines of a source (up to ``stop``, where a comment may begin), scanned by one
        iteration of an expression. Answers where the rest of the line is to be scanned
        word by word: ``stop``, or the end of a statement that opens a native section
        (whose end may follow on the line)."""
        number, tokens, words = line.number, line.tokens, self._words
        for found in _PLAIN.finditer(line.text, 0, stop):
            word = found.group(1)
            if word is not None:
                tokens.append(Token(TokenKind.WORD, word, number, found.start()))
                words.append(word)
            else:
                mark = found.group(2)
                tokens.append(Token(_MARKS[mark], mark, number, found.start()))
                if mark == ".":
                    self._end_statement(line)
                    if self._native is not None:
                        return found.end()
                    words = self._words
        return stop

    def _emit(self, line: SourceLine, kind: TokenKind, column: int, text: str) -> None:
        line.tokens.append(Token(kind, text, line.number, column))  # scanned: not kept yet

    # code --------------------------------------------------------------------------------
    def _step(self, line: SourceLine, i: int) -> int:
        text, ch = line.text, line.text[i]
        if ch in BLANKS:
            return i + 1
        if ch == '"':
            self._emit(line, TokenKind.COMMENT, i, text[i:])
            return len(text)
        if ch in "'`":
            return self._literal(line, i)
        if ch == "|":
            self._template = _Template(len(self.lines) - 1, line.number, i, [], [])
            return self._continue_template(line, i)
        if ch == ".":
            self._emit(line, TokenKind.PERIOD, i, ch)
            self._end_statement(line)
            return i + 1
        if ch in ":,":
            self._emit(line, TokenKind.COLON if ch == ":" else TokenKind.COMMA, i, ch)
            return i + 1
        found = _WORD.match(text, i)
        j = found.end() if found is not None else i + 1
        word = text[i:j]
        self._emit(line, TokenKind.WORD, i, word)
        self._words.append(word)
        if self._native is not None and word.upper() == self._native:
            self._native = None  # a native section that ends on the line it started
        return j

    def _literal(self, line: SourceLine, i: int) -> int:
        end = literal_end(line.text, i)
        if end < 0:
            self._emit(line, TokenKind.BROKEN, i, line.text[i:])
            line.verbatim = True
            return len(line.text)
        self._emit(line, TokenKind.LITERAL, i, line.text[i : end + 1])
        return end + 1

    def _end_statement(self, line: SourceLine) -> None:
        words = self._words
        head = words[0].upper() if words else ""
        closer = native_closer([w.upper() for w in words]) if head in _NATIVE_HEADS else None
        if closer is not None:
            self._native = closer
            self._opened_at = line.tokens[-1].column
        self._words = []

    # templates ---------------------------------------------------------------------------
    def _continue_template(self, line: SourceLine, start: int) -> int:
        """Scan template text from ``start``; returns where code resumes (or the line end)."""
        template = self._template
        assert template is not None
        text, i = line.text, start
        if not template.stack:
            template.stack.append("|")
            i += 1
        while 0 <= i < len(text) and template.stack:
            i = self._template_char(template, text, i)
        if i < 0 or (template.stack and template.stack[-1] == "|"):
            template.parts.append(text[start:])
            self._break_template(line)
            return len(text)
        template.parts.append(text[start:i])
        if template.stack:
            return len(text)  # inside an embedded expression: the template goes on
        self._template = None
        self._emit_template(template)
        return i

    @staticmethod
    def _template_char(template: _Template, text: str, i: int) -> int:
        """One step inside a template; -1 for an unterminated literal in an expression."""
        ch, stack = text[i], template.stack
        if stack[-1] == "|":
            if ch == "\\":
                return i + 2
            if ch == "|":
                stack.pop()
            elif ch == "{":
                stack.append("{")
            return i + 1
        if ch == '"':
            return len(text)  # a comment inside an embedded expression
        if ch in "'`":
            end = literal_end(text, i)
            return -1 if end < 0 else end + 1
        if ch == "|":
            stack.append("|")
        elif ch == "}":
            stack.pop()
        return i + 1

    def _emit_template(self, template: _Template) -> None:
        owner = self.lines[template.index]
        owner.add(
            Token(TokenKind.TEMPLATE, "\n".join(template.parts), template.line, template.column)
        )

    def _break_template(self, line: SourceLine) -> None:
        """An unterminated template: a broken token, and every line it touched verbatim."""
        template = self._template
        assert template is not None
        self._template = None
        for touched in self.lines[template.index :]:  # up to the current line, the last
            touched.verbatim = True
        owner = self.lines[template.index]
        owner.add(
            Token(TokenKind.BROKEN, "\n".join(template.parts), template.line, template.column)
        )


def lex(lines: list[str]) -> list[SourceLine]:
    """The lines of a source (already split, without line ends) with their tokens."""
    lexer = Lexer()
    for number, text in enumerate(lines, start=1):
        lexer.add(number, text)
    lexer.finish()
    return lexer.lines


def token_statements(lines: list[SourceLine]) -> list[TokenStatement]:
    """The statements of lexed lines, in order; a last one without period is unterminated."""
    result: list[TokenStatement] = []
    current: list[Token] = []
    for line in lines:
        for token in line.code_tokens:
            current.append(token)
            if token.kind is TokenKind.PERIOD:
                result.append(TokenStatement(current, terminated=True))
                current = []
    if current:
        result.append(TokenStatement(current, terminated=False))
    return result
