"""The components an internal table of a CDS entity names bare: in a table expression
(``lt_travels[ travelid = … ]``) and in the statements on the table — ``LOOP AT lt … WHERE
travelid = …``, ``READ TABLE lt WITH [TABLE] KEY travelid = …``, ``DELETE lt WHERE …``,
``MODIFY lt … TRANSPORTING travelid WHERE …``, ``SORT lt BY travelid``, ``DELETE ADJACENT
DUPLICATES FROM lt COMPARING travelid``. Only when the table's type is the entity's
(:mod:`.abap_typing`); in a ``WHERE`` only the left operand of a comparison (the right one
is the program's data). No I/O."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from adt.abap.cds.abap_typing import Wanted, data_typed, touching
from adt.abap.index import ProgramIndex
from adt.abap.lexer import NAME, Token

#: Where the table is named: the words a statement starts with → the table's token index.
_TABLE_AT = {
    ("LOOP", "AT"): 2,
    ("READ", "TABLE"): 2,
    ("SORT",): 1,
    ("DELETE", "ADJACENT", "DUPLICATES", "FROM"): 4,
    ("DELETE", "TABLE"): 2,
    ("DELETE",): 1,
    ("MODIFY", "TABLE"): 2,
    ("MODIFY",): 1,
}
_COMPARISONS = frozenset(
    {"=", "<>", "<", ">", "<=", ">=", "EQ", "NE", "LT", "GT", "LE", "GE", "IS", "IN"}
    | {"BETWEEN", "CO", "CN", "CA", "NA", "CS", "NS", "CP", "NP"}
)
_LEFT = frozenset({"WHERE", "AND", "OR", "NOT", "("})
#: Clause words: what the names after them are.
_CLAUSES = {"WHERE": "where", "KEY": "key", "BY": "list", "COMPARING": "list"}
_CLAUSES |= {"TRANSPORTING": "list"}
_ENDS = frozenset({"INTO", "ASSIGNING", "REFERENCE", "FROM", "INDEX", "USING", "CASTING"})
_ORDER = frozenset({"ASCENDING", "DESCENDING", "AS", "TEXT", "STABLE", "NO", "FIELDS"})
_FOREIGN = frozenset({"-", "~", "->", "=>", "@"})

__all__ = ["table_names"]


def table_names(
    index: ProgramIndex, unit: str, tokens: Sequence[Token], wanted: Wanted
) -> Iterator[tuple[int, str]]:
    """(token index, ENTITY) of the components a table of a wanted entity names bare."""
    yield from _expressions(index, unit, tokens, wanted)
    yield from _statement(index, unit, tokens, wanted)


def _bare(tokens: Sequence[Token], at: int) -> bool:
    return tokens[at].kind == NAME and (at == 0 or tokens[at - 1].text not in _FOREIGN)


def _expressions(
    index: ProgramIndex, unit: str, tokens: Sequence[Token], wanted: Wanted
) -> Iterator[tuple[int, str]]:
    """``lt[ c = … ]``: the names before ``=`` directly inside the brackets."""
    for start, token in enumerate(tokens[1:], start=1):
        owner = tokens[start - 1]
        if token.text != "[" or owner.kind != NAME or not touching(owner, token):
            continue
        typed = data_typed(index, unit, owner, wanted)
        if typed is None or not typed[1]:
            continue
        depth = 0
        for at in range(start, len(tokens) - 1):
            text = tokens[at].text
            depth += text in ("[", "(")
            depth -= text in ("]", ")")
            if depth == 0:
                break
            if depth == 1 and tokens[at + 1].text == "=" and _bare(tokens, at):
                yield at, typed[0]


def _statement(
    index: ProgramIndex, unit: str, tokens: Sequence[Token], wanted: Wanted
) -> Iterator[tuple[int, str]]:
    words = [t.upper for t in tokens]
    table_at = next(
        (at for lead, at in _TABLE_AT.items() if tuple(words[: len(lead)]) == lead), None
    )
    if table_at is None or table_at >= len(tokens) or "ENTITIES" in words:
        return
    typed = data_typed(index, unit, tokens[table_at], wanted)
    if typed is None or not typed[1]:
        return
    clause = ""
    for at in range(table_at + 1, len(tokens)):
        word = words[at]
        if word in _CLAUSES or word in _ENDS:
            clause = _CLAUSES.get(word, "")
            continue
        if _named(tokens, words, at, clause):
            yield at, typed[0]


def _named(tokens: Sequence[Token], words: list[str], at: int, clause: str) -> bool:
    """Whether the name at ``at`` is a component in its clause."""
    if not clause or not _bare(tokens, at):
        return False
    after = words[at + 1] if at + 1 < len(words) else ""
    if clause == "where":
        return words[at - 1] in _LEFT and after in _COMPARISONS
    if clause == "key":
        return after == "="
    return words[at] not in _ORDER and words[at] not in _CLAUSES
