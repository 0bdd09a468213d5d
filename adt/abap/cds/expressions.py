"""The path expressions inside a computed element (``case … end``, ``cast( … as … )``,
arithmetic, function calls, literals), so that the check resolves the names they use.

What is not a path: keywords of expressions (``case``, ``when``, ``and`` …), a function's
name (a name before ``(``), a named argument (``amount =>``), a parameter binding
(``p_date :``), the type after ``as`` (``abap.char( 10 )``, ``/dmo/price preserving type``),
typed literals (``abap.int4'1'``), strings, numbers and ``#enum`` values. The filter of a
path (``_Text[1: Language = …]``) is skipped: its names belong to the association's target.
"""

from __future__ import annotations

from adt.abap.cds.model import PathStep
from adt.abap.cds.tokens import NAME, Token

KEYWORDS = frozenset(
    {
        "case",
        "when",
        "then",
        "else",
        "end",
        "and",
        "or",
        "not",
        "is",
        "null",
        "initial",
        "between",
        "like",
        "escape",
        "distinct",
        "all",
        "preserving",
        "type",
        "in",
    }
)
_NOT_A_START = (".", ":", "=>")


def expression_paths(tokens: list[Token]) -> list[list[PathStep]]:
    """Every path expression ``tokens`` use, in text order."""
    paths: list[list[PathStep]] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        following = tokens[i + 1].text if i + 1 < len(tokens) else ""
        if token.is_word("as"):
            i = _past_type(tokens, i + 1)
        elif token.kind != NAME or token.text.lower() in KEYWORDS:
            i += 1
        elif following in ("(", "=>", ":") or (i > 0 and tokens[i - 1].text in _NOT_A_START):
            i += 1  # a function, a named argument or parameter, a step after a call
        else:
            steps, i = _path(tokens, i)
            if steps[0].name.lower() != "abap" or len(steps) == 1:
                paths.append(steps)
    return paths


def _path(tokens: list[Token], i: int) -> tuple[list[PathStep], int]:
    """The steps of the path starting at ``i`` and the index after it."""
    steps = [PathStep(tokens[i].text, tokens[i].line, tokens[i].column)]
    i += 1
    while i < len(tokens):
        if tokens[i].text == "[":
            i = _past_group(tokens, i)
        elif tokens[i].text == "(" and len(steps) > 1:
            i = _past_group(tokens, i)  # parameters of an association
        elif tokens[i].text == "." and i + 1 < len(tokens) and tokens[i + 1].kind == NAME:
            steps.append(PathStep(tokens[i + 1].text, tokens[i + 1].line, tokens[i + 1].column))
            i += 2
        else:
            break
    return steps, i


def _past_group(tokens: list[Token], i: int) -> int:
    """From an opening ``(`` or ``[`` to just past its match."""
    depth = 0
    while i < len(tokens):
        text = tokens[i].text
        if tokens[i].kind == "op" and text in "([":
            depth += 1
        elif tokens[i].kind == "op" and text in ")]":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def _past_type(tokens: list[Token], i: int) -> int:
    """Past the type written at ``i`` (``abap.curr( 16, 2 )``, ``/dmo/price``)."""
    if i < len(tokens) and tokens[i].kind == NAME:
        i += 1
        while i + 1 < len(tokens) and tokens[i].text == "." and tokens[i + 1].kind == NAME:
            i += 2
    if i < len(tokens) and tokens[i].text == "(":
        i = _past_group(tokens, i)
    return i


__all__ = ["KEYWORDS", "expression_paths"]
