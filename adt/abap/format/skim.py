"""A source skimmed for its blocks: the statements that may change them, lexed, and the runs
of lines between them that cannot, passed over by one regular expression.

Cutting a source into pieces (:mod:`adt.abap.format.segments`) needs the blocks open after
each statement. Most lines of a source either hold no code (blank, a ``*`` or ``"`` comment)
or one whole statement of words and punctuation whose first word opens, closes or changes no
block (:data:`adt.abap.format.blocks.SIGNIFICANT`): ``rv_y = iv_x * 2.``. Such a statement
leaves every block as it found it, and the next statement starts on a later line, so all a
scan needs of it is its line. Lexing it (tokens, statements) cost about 60 µs a line, so
a first format of 100,000 lines spent seconds before sending anything; matching runs of such
lines with one expression over the joined text costs about a microsecond a line.

A run is only taken where the lexer rests (no template, native section or statement open),
so the lexer sees every other line as it would in a whole lexing, and its statements are the
same. A head word with a character beyond ASCII goes to the lexer (case folding there is
``str.upper``'s, which the expression's ignoring of case does not always match).

A *wide* skim (for the cut, which needs only the blocks) also passes over such statements
that hold literals or go on over several lines (with comment and blank lines among them):
two thirds of real code's lines are of these, where the printer's runs
(:mod:`adt.abap.format.runs`, which print each line by itself) take only one-line
statements without literals.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from .blocks import DECLARATIONS, SIGNIFICANT
from .tokens import Lexer, SourceLine, TokenKind, TokenStatement, token_statements


def _alternation(words: Iterable[str]) -> str:
    """An expression matching exactly ``words``, as a tree of their common prefixes (an
    expression engine tries the branches of a plain alternation one after the other)."""
    groups: dict[str, list[str]] = {}
    for word in sorted(set(words)):
        groups.setdefault(word[:1], []).append(word[1:])
    branches = []
    for first, rests in groups.items():
        if not first:
            continue
        tails = [rest for rest in rests if rest]
        inner = _alternation(tails) if tails else ""
        optional = "?" if "" in rests and tails else ""
        branches.append(re.escape(first) + (f"(?:{inner}){optional}" if tails else ""))
    return "|".join(branches)


_HEAD = r"[^ \t\"'`|.:,\n\x80-\U0010ffff]++(?=[ \t.:,])"
_PLAIN_HEAD = rf"(?!(?i:{_alternation(SIGNIFICANT)})[ \t.:,\n]){_HEAD}"
#: A declaration changes a block only with ``BEGIN OF``/``END OF`` (as the head of one of
#: its elements): one with neither word up to its period, comments and literals aside,
#: leaves the blocks as it found them.
_STRUCTURE = (
    r"(?:[^.'`\"\n]|\n|'(?:[^'\n]|'')*+'|`(?:[^`\n]|``)*+`|\"[^\n]*+)*?"
    r"(?<![^ \t\n:,])(?i:BEGIN|END)(?![^ \t\n.:,])"
)
_WIDE_HEAD = (
    rf"(?!(?i:{_alternation(SIGNIFICANT - DECLARATIONS)})[ \t.:,\n])"
    rf"(?!(?i:{_alternation(DECLARATIONS)})[ \t.:,\n]{_STRUCTURE}){_HEAD}"
)
_ONE_STATEMENT = rf"{_PLAIN_HEAD}[^\"'`|.\n]*+\.[ \t]*+"
#: What a statement's line holds up to its period, its comment or its end: anything but a
#: period, a quote or a template's bar, and literals (a doubled quote escapes one).
_BODY = r"(?:[^\"'`|.\n]++|'(?:[^'\n]|'')*+'|`(?:[^`\n]|``)*+`)*+"
_LINE_END = r"(?:\"[^\n]*+)?+\n"
#: A statement with literals, maybe over several lines (star, comment and blank lines among
#: them), whose first word is not significant (or a declaration's without a structure).
_WIDE_STATEMENT = (
    rf"{_WIDE_HEAD}{_BODY}"
    rf"(?:{_LINE_END}(?:\*[^\n]*+\n|[ \t]*+{_BODY}{_LINE_END})*+[ \t]*+{_BODY})?+\.[ \t]*+"
)


def _run(statement: str) -> re.Pattern[str]:
    """Lines (each ending with a line break; maybe none) that change no block where the
    lexer rests: a star comment, or blanks, then one ``statement`` (or none), then a ``"``
    comment (or none). Possessive: a run never gives back."""
    return re.compile(rf"(?:\*[^\n]*+\n|[ \t]*+(?:{statement})?+{_LINE_END})*+")


#: One-line statements of words and punctuation (the printer's runs).
_RUN = _run(_ONE_STATEMENT)
#: Statements with literals and over several lines too (the cut's runs).
_WIDE_RUN = _run(_WIDE_STATEMENT)
#: A line of a run that ends a statement.
_ENDS = re.compile(rf"[ \t]*+{_BODY}\.")


@dataclass(frozen=True, slots=True)
class Run:
    """Lines ``first`` to ``end`` (1-based, ``end`` excluded), taken by a run expression."""

    first: int
    end: int


Part = TokenStatement | Run


@dataclass(frozen=True)
class Skim:
    """The parts of a source in order, its lexed statements, the lines lexed (each keeps
    its number), and the line of the last statement's end (0 when there is none)."""

    parts: list[Part]
    statements: list[TokenStatement]
    lexed: list[SourceLine]
    last_line: int


def skim(lines: Sequence[str], wide: bool = False) -> Skim:
    """``lines`` as statements and runs (see the module doc; ``wide``: the cut's runs)."""
    text = "\n".join(lines) + "\n"
    # a line holding a line break is lexed as it is (the text's lines would not be its)
    blocked = 0 if text.count("\n") == len(lines) else len(text)
    parts: list[Part] = []
    statements: list[TokenStatement] = []
    lexer = Lexer()
    done = 0  # lexed lines whose statements are in parts
    position, number, count = 0, 1, len(lines)
    match = (_WIDE_RUN if wide else _RUN).match
    while number <= count:
        end = 0  # a run may start where the lexer rests after a whole statement
        if position >= blocked and lexer.resting and not _open(lexer.lines, done):
            found = match(text, position)  # (always a match, maybe an empty one)
            end = found.end() if found is not None else 0
        if end > position:
            ready = token_statements(lexer.lines[done:])
            parts += ready
            statements += ready
            done = len(lexer.lines)
            taken = text.count("\n", position, end)
            parts.append(Run(number, number + taken))
            position, number = end, number + taken
            continue
        lexer.add(number, lines[number - 1])
        position = text.find("\n", position) + 1
        number += 1
    lexer.finish()
    ready = token_statements(lexer.lines[done:])
    parts += ready
    statements += ready
    return Skim(parts, statements, lexer.lines, _last_line(lines, parts))


def _open(lexed: list[SourceLine], done: int) -> bool:
    """Whether the lines lexed after ``done`` end inside a statement (their last code token
    is no period)."""
    for position in range(len(lexed) - 1, done - 1, -1):
        code = lexed[position].code_tokens
        if code:
            return code[-1].kind is not TokenKind.PERIOD
    return False


def statement_lines(lines: Sequence[str], run: Run) -> Iterator[int]:
    """The numbers of the lines of ``run`` that end a statement, in order."""
    for number in range(run.first, run.end):
        if _ends_statement(lines[number - 1]):
            yield number


def _ends_statement(text: str) -> bool:
    """Whether a line of a run ends a statement (it holds one, or the last of one's)."""
    return not text.startswith("*") and _ENDS.match(text) is not None


def _last_line(lines: Sequence[str], parts: list[Part]) -> int:
    """The line of the last statement's end."""
    for part in reversed(parts):
        if isinstance(part, TokenStatement):
            return part.last.line
        for number in range(part.end - 1, part.first - 1, -1):
            if _ends_statement(lines[number - 1]):
                return number
    return 0
