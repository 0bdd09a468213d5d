"""Printing a run of lines that change no block (:mod:`adt.abap.format.skim`) without lexing
it: what :mod:`adt.abap.format.pretty` would print for them, line by line.

In a run every line is blank, a ``*`` comment, a ``"`` comment, or one whole statement of
words and punctuation (a comment may end it) whose first word opens nothing; the blocks open
around the run are the same for all of its statements. So a statement line is its text from
the first word, trailing blanks gone, at the run's indentation; a ``"`` comment line takes
the indentation of the statement after it (the run's, or — after the run's last statement —
that of the statement after the run, which the caller knows). Only case needs the words: a
line is lexed alone (it is one whole statement, so its tokens are those of the whole
source) where a word of it may change case.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from adt.abap.lexer import WORD

from .casing import keyword_map, recased_text, to_case
from .keywords import GLUED, KEYWORDS
from .skim import Run
from .tokens import BLANKS, Lexer, token_statements

#: Words a position may make keywords (anything else is a name).
_MAY_BE_KEYWORDS = KEYWORDS | {"OTHERS"}
#: A word that starts with a keyword glued to a parenthesis (:func:`casing.glued_keyword`).
_GLUED_WORD = re.compile(
    r"(?:^|[ \t.:,])@?(?:" + "|".join(sorted(map(re.escape, GLUED))) + r")\(", re.IGNORECASE
)


@dataclass(frozen=True)
class RunStyle:
    """Blanks before a statement of the run and before a comment line after its last
    statement; whether to indent at all, and the case of keywords and names (True upper,
    False lower, None as written)."""

    indent: int
    tail_indent: int
    indentation: bool
    keywords: bool | None
    names: bool | None


def print_run(lines: Sequence[str], run: Run, style: RunStyle) -> list[list[str]]:
    """The printed form of each line of ``run`` (one line each)."""
    printed: list[list[str]] = []
    indent = style.tail_indent  # after the run's last statement
    for number in range(run.end - 1, run.first - 1, -1):  # backwards: the next statement
        text = lines[number - 1]
        code = text.lstrip(BLANKS)
        if text.startswith("*"):
            printed.append([text])
        elif not code:
            printed.append([""])
        elif code.startswith('"'):
            comment = code.rstrip(BLANKS)
            printed.append([" " * indent + comment if style.indentation else text.rstrip(BLANKS)])
        else:
            printed.append([_statement(number, text, style)])
            indent = style.indent
    printed.reverse()
    return printed


def _statement(number: int, text: str, style: RunStyle) -> str:
    start = len(text) - len(text.lstrip(BLANKS))
    if _may_change(text, style):
        text = _recased(number, text, style)
    segment = text[start:].rstrip(BLANKS)
    indent = style.indent if style.indentation else start
    if indent == 0 and segment.startswith("*"):
        indent = 1  # in column 0 it would become a comment line
    return " " * indent + segment


def _may_change(text: str, style: RunStyle) -> bool:
    """Whether a word of the statement may be written in another case (where unsure: yes;
    the line is then lexed alone)."""
    keywords, names = style.keywords, style.names
    if keywords is None and names is None:
        return False
    code = text.split('"', 1)[0]
    if not code.isascii():  # case folding beyond ASCII
        return True
    if "(" in code and _GLUED_WORD.search(code) is not None:  # ``DATA(x)``, ``VALUE(rv)``
        return True
    if names is not None and to_case(code, names) != code:
        return True  # a word not written as a name is (unless a keyword)
    found = _MAY_BE_KEYWORDS.intersection(WORD.findall(code.upper()))
    if not found or keywords is None:
        return False
    return any(
        to_case(word, keywords) != word for word in WORD.findall(code) if word.upper() in found
    )


def _recased(number: int, text: str, style: RunStyle) -> str:
    """``text`` lexed alone, its words in their case."""
    lexer = Lexer()
    lexer.add(number, text)
    lexer.finish()
    statements = token_statements(lexer.lines)
    return recased_text(lexer.lines[0], keyword_map(statements), style.keywords, style.names)
