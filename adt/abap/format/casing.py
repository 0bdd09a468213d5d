"""Which words of a statement are keywords, and how to write a word in upper or lower case.

A word is a keyword when it is in :data:`~adt.abap.format.keywords.KEYWORDS` and its position does
not make it a name: right before an assignment operator (``value = 1``), after ``TYPE`` or
``LIKE`` (``TYPE data``), after ``REF TO`` or ``OF`` (``TABLE OF string``), or where a
declaration puts its name (``METHODS run``, ``DATA: value TYPE i``). Words glued to a
parenthesis (``DATA(x)``, ``VALUE(rv)``) have their keyword part recognised. Only ASCII letters
change case, so a word never changes length and nothing outside words is touched.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable

from .keywords import AFTER_OF, AFTER_TYPE, ASSIGNMENTS, DECLARING, GLUED, KEYWORDS
from .tokens import Token, TokenKind, TokenStatement

_UPPER = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)
_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_GLUED = re.compile(r"(@?)([A-Za-z][A-Za-z-]*)(\(.*)", re.DOTALL)
_NOT_NAMES = frozenset({"BEGIN", "END"})


def to_case(text: str, upper: bool | None) -> str:
    """``text`` in upper or lower case (ASCII letters only); unchanged for ``None``."""
    if upper is None:
        return text
    return text.translate(_UPPER if upper else _LOWER)


def glued_keyword(token: Token) -> tuple[str, str, str] | None:
    """``(prefix, keyword, rest)`` for ``DATA(x)``, ``@DATA(x)``, ``VALUE(x)``; else None."""
    match = _GLUED.fullmatch(token.text)
    if match is None or match.group(2).upper() not in GLUED:
        return None
    return match.group(1), match.group(2), match.group(3)


def _names_declared(tokens: list[Token], i: int) -> bool:
    """Whether position ``i`` is where a declaration statement puts a name."""
    head = tokens[0].upper if tokens[0].kind is TokenKind.WORD else ""
    if head not in DECLARING or i == 0 or tokens[i].upper in _NOT_NAMES:
        return False
    before = tokens[i - 1].kind
    if i == 1:
        return True
    if before is TokenKind.COLON:
        return i == 2
    return before is TokenKind.COMMA and any(t.kind is TokenKind.COLON for t in tokens[:i])


def _previous_words(tokens: list[Token], i: int, keywords: list[bool]) -> tuple[str, str]:
    """The two words before ``tokens[i]`` where they are keywords ("" otherwise)."""

    def word(k: int) -> str:
        return tokens[k].upper if k >= 0 and keywords[k] else ""

    return word(i - 1), word(i - 2)


def is_keyword(tokens: list[Token], i: int, keywords: list[bool]) -> bool:
    """Whether the word ``tokens[i]`` is a keyword where it stands (see the module doc);
    ``keywords`` says it for the tokens before it."""
    word = tokens[i].upper
    if word == "OTHERS":
        return True
    if word not in KEYWORDS:
        return False
    following = tokens[i + 1] if i + 1 < len(tokens) else None
    if following is not None and following.text in ASSIGNMENTS:
        return False
    previous, before = _previous_words(tokens, i, keywords)
    if previous in ("TYPE", "LIKE") and word not in AFTER_TYPE:
        return False
    if previous == "OF" and word not in AFTER_OF:
        return False
    if previous == "TO" and before == "REF":
        return False
    return not _names_declared(tokens, i)


def keyword_map(statements: Iterable[TokenStatement]) -> dict[Token, bool]:
    """Every word of ``statements`` → whether it is a keyword (glued forms included)."""
    result: dict[Token, bool] = {}
    for statement in statements:
        tokens = statement.tokens
        flags: list[bool] = []
        for i, token in enumerate(tokens):
            flag = token.kind is TokenKind.WORD and (
                glued_keyword(token) is not None or is_keyword(tokens, i, flags)
            )
            flags.append(flag)
            if token.kind is TokenKind.WORD:
                result[token] = flag
    return result


def recase(token: Token, keyword: bool, keywords: bool | None, names: bool | None) -> str:
    """The text of a word with keyword case ``keywords`` and identifier case ``names``
    (``True`` upper, ``False`` lower, ``None`` as written)."""
    glued = glued_keyword(token)
    if glued is not None:
        prefix, head, rest = glued
        return prefix + to_case(head, keywords) + to_case(rest, names)
    return to_case(token.text, keywords if keyword else names)
