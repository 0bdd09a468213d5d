"""What a behavior pool implements, read from its ABAP source, and what a behavior
definition requires of it.

A RAP handler method names the operation it handles after ``FOR``: ``METHODS m FOR
VALIDATE ON SAVE IMPORTING keys FOR Travel~validateDates``, ``… FOR MODIFY IMPORTING keys
FOR ACTION Travel~acceptTravel RESULT result``, ``… FOR READ … FOR FUNCTION Travel~f``.
:func:`handled` collects those ``entity~operation`` pairs of one class's sources (its local
handler classes live in the ``implementations`` include). :func:`required` lists the
actions, functions, determinations and validations of a BDEF that need such a method:
draft actions (``draft action Edit``), determine actions, managed ones (``managed reorder
action``, the ``link``/``unlink``/``copy`` actions of hierarchies and associations), reused
ones of a projection (``use action``) and events are provided by the framework or raised,
not handled.
"""

from __future__ import annotations

from collections.abc import Iterable

from adt.abap.cds.model import Behavior, BehaviorItem, Definition
from adt.abap.lexer import NAME, Token, lex

#: Item kinds a handler method must exist for.
HANDLED_KINDS = ("action", "function", "determination", "validation")
#: Words before the item's keyword that make the framework its implementer.
_PROVIDED = frozenset({"draft", "determine", "use", "managed", "reorder", "link", "unlink", "copy"})
#: Implementation types whose behavior pools implement the items.
_IMPLEMENTED = ("managed", "unmanaged")


def handled(texts: Iterable[str]) -> set[str]:
    """``ENTITY~OPERATION`` (upper case) of every handler method declared in ``texts``."""
    found: set[str] = set()
    for text in texts:
        for statement in lex(text).statements:
            if statement.first not in ("METHODS", "CLASS-METHODS"):
                continue
            found.update(_pairs(statement.tokens))
    return found


def _pairs(tokens: list[Token]) -> Iterable[str]:
    """``entity~operation`` after each ``FOR`` (or ``FOR ACTION``/``FOR FUNCTION``)."""
    for index, token in enumerate(tokens):
        if token.upper != "FOR":
            continue
        at = index + 1
        if at < len(tokens) and tokens[at].upper in ("ACTION", "FUNCTION"):
            at += 1
        pair = tokens[at : at + 3]
        if len(pair) == 3 and pair[1].text == "~" and pair[0].kind == pair[2].kind == NAME:
            yield f"{pair[0].upper}~{pair[2].upper}"


def required(definition: Definition) -> list[tuple[Behavior, BehaviorItem]]:
    """The items of ``definition`` each of which needs a handler method in its pool."""
    if definition.implementation not in _IMPLEMENTED:
        return []
    found: list[tuple[Behavior, BehaviorItem]] = []
    for behavior in definition.behaviors:
        if behavior.extension:
            continue
        for item in behavior.items:
            if item.kind in HANDLED_KINDS and not _PROVIDED & set(item.detail.split()):
                found.append((behavior, item))
    return found


def names_of(behavior: Behavior) -> tuple[str, ...]:
    """How a handler may name the entity: its alias or its name (upper case)."""
    return tuple(n.upper() for n in (behavior.alias, behavior.entity) if n)


__all__ = ["HANDLED_KINDS", "handled", "names_of", "required"]
