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
from functools import lru_cache

from .keywords import AFTER_OF, AFTER_TYPE, ASSIGNMENTS, DECLARING, GLUED, KEYWORDS, words
from .tokens import SourceLine, Token, TokenKind, TokenStatement

_UPPER = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)
_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
_GLUED = re.compile(r"(@?)([A-Za-z][A-Za-z-]*)(\(.*)", re.DOTALL)
_NOT_NAMES = frozenset({"BEGIN", "END"})
#: Comparison operators: the word before one is an operand (``WHERE package NOT IN r``).
_COMPARED = words("IN IS BETWEEN EQ NE LT GT LE GE CP NP CS NS CA NA CO CN < > <= >= <>")
#: Keywords that stand before a comparison operator without being its operand.
_LOGIC = words("NOT AND OR WHERE IF ELSEIF CHECK WHILE WHEN ASSERT EQUIV THEN ELSE UNTIL")
#: Clauses followed by component names, and the keywords that may follow them instead.
_COMPONENT_LISTS = {
    "BY": frozenset({"PRIMARY", "DATABASE", "KERNEL"}),
    "COMPARING": frozenset({"ALL"}),
    "KEY": frozenset({"COMPONENTS"}),
    "DISTINCT": frozenset(),
    "ASCENDING": frozenset({"AS"}),
    "DESCENDING": frozenset({"AS"}),
    "SELECT": frozenset({"SINGLE", "DISTINCT", "FROM", "COUNT", "FOR", "UP"}),
}


def to_case(text: str, upper: bool | None) -> str:
    """``text`` in upper or lower case (ASCII letters only); unchanged for ``None``."""
    if upper is None:
        return text
    return text.translate(_UPPER if upper else _LOWER)


def glued_keyword(token: Token) -> tuple[str, str, str] | None:
    """``(prefix, keyword, rest)`` for ``DATA(x)``, ``@DATA(x)``, ``VALUE(x)``; else None."""
    return _glued(token.text)


@lru_cache(maxsize=8192)
def _glued(text: str) -> tuple[str, str, str] | None:
    """By text: a source repeats its words, and each is asked twice (keyword, case)."""
    match = _GLUED.fullmatch(text)
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
    if _operand(tokens, i, previous):
        return False
    if previous in ("TYPE", "LIKE") and word not in AFTER_TYPE:
        return False
    if previous == "TYPE" and word == "ANY" and not _followed_by(tokens, i, "TABLE"):
        return False  # the generic type ``any``, not ``ANY TABLE``
    if previous == "OF" and word not in AFTER_OF:
        return False
    if previous == "TO" and before == "REF":
        return False
    return not _names_declared(tokens, i)


def _followed_by(tokens: list[Token], i: int, word: str) -> bool:
    return i + 1 < len(tokens) and tokens[i + 1].upper == word


def _operand(tokens: list[Token], i: int, previous: str) -> bool:
    """A keyword-like word that names a component or a data object where it stands: the
    first of a component list (``SORT t BY object``, ``WITH KEY type``, ``COMPARING
    object``, ``SELECT DISTINCT language``) or the left side of a comparison."""
    word = tokens[i].upper
    if previous in _COMPONENT_LISTS and word not in _COMPONENT_LISTS[previous]:
        if previous == "SELECT":
            return tokens[0].upper == "SELECT"  # the field list, not ``FOR ALL … SELECT``
        return word not in _COMPONENT_LISTS
    if word in _LOGIC or i + 1 >= len(tokens):
        return False
    following = tokens[i + 1].upper
    if following == "NOT" and i + 2 < len(tokens):
        following = tokens[i + 2].upper
    return following in _COMPARED


def keyword_map(statements: Iterable[TokenStatement]) -> dict[Token, bool]:
    """Every word of ``statements`` → whether it is a keyword (glued forms included)."""
    result: dict[Token, bool] = {}
    for statement in statements:
        tokens = statement.tokens
        flags: list[bool] = []
        for i, token in enumerate(tokens):
            flag = token.kind is TokenKind.WORD and (
                ("(" in token.text and glued_keyword(token) is not None)
                or is_keyword(tokens, i, flags)
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


def recased_text(
    line: SourceLine, keywords: dict[Token, bool], keyword_case: bool | None, names: bool | None
) -> str:
    """The text of ``line`` with its words in keyword case ``keyword_case`` or identifier
    case ``names`` (``keywords`` says which is which); every word keeps its length."""
    text = line.text
    for token in line.tokens:
        if token.kind is TokenKind.WORD:
            keyword = keywords.get(token, False)
            case = keyword_case if keyword else names
            if (case is None or (case and token.text == token.upper)) and "(" not in token.text:
                continue  # as it should be already (most words): no glued keyword either
            new = recase(token, keyword, keyword_case, names)
            if new != token.text:  # most words are written as they should be already
                text = text[: token.column] + new + text[token.column + len(new) :]
    return text
