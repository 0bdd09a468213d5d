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
#: A word that starts with a keyword glued to a parenthesis (:func:`casing.glued_keyword`):
#: its keyword part.
_GLUED_WORD = re.compile(
    r"(?:^|[ \t.:,])@?(" + "|".join(sorted(map(re.escape, GLUED))) + r")\(", re.IGNORECASE
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
    texts = lines[run.first - 1 : run.end - 1]
    codes = [text.lstrip(BLANKS) for text in texts]
    statements = [
        n for n, code in enumerate(codes) if code and code[0] != '"' and texts[n][0] != "*"
    ]
    recase = _to_recase(texts, codes, statements, style)
    last = statements[-1] if statements else -1
    indent, tail = style.indent, style.tail_indent
    printed: list[list[str]] = []
    for n, text in enumerate(texts):
        code = codes[n]
        if not code or text[0] == "*":
            printed.append([text if code else ""])
        elif code[0] == '"':
            printed.append([_comment(text, code, indent if n < last else tail, style)])
        else:
            if n in recase:
                code = _recased(run.first + n, text, style).lstrip(BLANKS)
            printed.append([_statement(text, code, style)])
    return printed


def _to_recase(
    texts: Sequence[str], codes: list[str], statements: list[int], style: RunStyle
) -> set[int]:
    """The statement lines where a word may change case. Most runs have none: that is asked
    of the run's statements at once (one text of their code), and only where some word may
    change is each line asked."""
    if not statements or (style.keywords is None and style.names is None):
        return set()
    joined = " ".join([codes[n].split('"', 1)[0] for n in statements])
    if not _may_change(joined, style):
        return set()
    return {n for n in statements if _may_change(texts[n], style)}


def _comment(text: str, code: str, indent: int, style: RunStyle) -> str:
    """A ``"`` comment line, at the indentation of the statement after it."""
    if not style.indentation:
        return text.rstrip(BLANKS)
    return " " * indent + code.rstrip(BLANKS)


def _statement(text: str, code: str, style: RunStyle) -> str:
    """A statement line from its first word (``code``), at the run's indentation."""
    segment = code.rstrip(BLANKS)
    blanks = style.indent if style.indentation else len(text) - len(code)
    if blanks == 0 and segment[0] == "*":
        blanks = 1  # in column 0 it would become a comment line
    return " " * blanks + segment


def _may_change(text: str, style: RunStyle) -> bool:
    """Whether a word of the statement (or of statements joined by blanks) may be written
    in another case (where unsure: yes; the line is then lexed alone)."""
    keywords, names = style.keywords, style.names
    if keywords is None and names is None:
        return False
    code = text.split('"', 1)[0]
    if not code.isascii():  # case folding beyond ASCII
        return True
    if names is not None and to_case(code, names) != code:
        return True  # a word not written as a name is (unless a keyword)
    if "(" in code:  # ``DATA(x)``, ``VALUE(rv)``: the keyword part may change, the rest not
        for glued in _GLUED_WORD.finditer(code):
            if to_case(glued[1], keywords) != glued[1]:
                return True
    # a run's statement holds no ``'`|"`` (skim): what ends a word is a blank or ``.:,``
    words = code.upper().replace(".", " ").replace(":", " ").replace(",", " ").split()
    found = _MAY_BE_KEYWORDS.intersection(words)
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
