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

The words after a method's first ``FOR`` say what it handles, and they must fit the item:
an action's handler is ``FOR MODIFY … FOR ACTION``, a function's ``FOR READ … FOR
FUNCTION``, a determination's ``FOR DETERMINE ON MODIFY|SAVE`` (as the BDEF says ``on
…``), a validation's ``FOR VALIDATE ON SAVE``. :func:`handled` keeps each pair with that
signature (``VALIDATE ON SAVE TRAVEL~VALIDATEDATES``); :func:`signature` is the one an item
needs.

Feature, authorization and lock control (:mod:`adt.abap.cds.controls`) are handled per
entity, not per item: ``METHODS m FOR INSTANCE FEATURES IMPORTING keys REQUEST r FOR Travel
RESULT result``, ``… FOR GLOBAL AUTHORIZATION IMPORTING REQUEST r FOR Travel …``, ``… FOR
LOCK IMPORTING keys FOR LOCK Travel``; :func:`handled` keeps those as ``INSTANCE FEATURES
TRAVEL``, and :func:`required_controls` lists what a BDEF's entities ask for.
"""

from __future__ import annotations

from collections.abc import Iterable

from adt.abap.cds.model import Behavior, BehaviorItem, Control, Definition
from adt.abap.lexer import NAME, Token, lex

#: Item kinds a handler method must exist for.
HANDLED_KINDS = ("action", "function", "determination", "validation")
#: Words before the item's keyword that make the framework its implementer.
_PROVIDED = frozenset({"draft", "determine", "use", "managed", "reorder", "link", "unlink", "copy"})
#: Implementation types whose behavior pools implement the items.
_IMPLEMENTED = ("managed", "unmanaged")
#: Method categories handled per entity (``FOR INSTANCE FEATURES … FOR Travel``); the
#: release-1 ``FOR FEATURES`` is the instance one.
CONTROLS = frozenset(
    {"INSTANCE FEATURES", "GLOBAL FEATURES", "INSTANCE AUTHORIZATION", "GLOBAL AUTHORIZATION"}
    | {"LOCK", "FEATURES"}
)
_SAME = {"FEATURES": "INSTANCE FEATURES"}


def handled(texts: Iterable[str]) -> set[str]:
    """``SIGNATURE ENTITY~OPERATION`` (upper case) of every handler method declared in
    ``texts``: ``MODIFY ACTION TRAVEL~ACCEPT``, ``VALIDATE ON SAVE TRAVEL~VALIDATEDATES``."""
    found: set[str] = set()
    for text in texts:
        for statement in lex(text).statements:
            if statement.first not in ("METHODS", "CLASS-METHODS"):
                continue
            found.update(_pairs(statement.tokens))
    return found


def pair_of(entry: str) -> str:
    """The ``ENTITY~OPERATION`` of an entry of :func:`handled`."""
    return entry.rsplit(" ", 1)[-1]


def _category(tokens: list[Token]) -> str:
    """The words between the method's first ``FOR`` and ``IMPORTING``: ``VALIDATE ON SAVE``."""
    words: list[str] = []
    for token in tokens[next((i for i, t in enumerate(tokens) if t.upper == "FOR"), 0) + 1 :]:
        if token.upper == "IMPORTING" or token.kind != NAME:
            break
        words.append(token.upper)
    return " ".join(words)


def _pairs(tokens: list[Token]) -> Iterable[str]:
    """``entity~operation`` after each later ``FOR`` (or ``FOR ACTION``/``FOR FUNCTION``),
    with the method's category and that word; the entity alone for a control's method."""
    category = _category(tokens)
    category = _SAME.get(category, category)
    first = next((i for i, t in enumerate(tokens) if t.upper == "FOR"), -1)
    for index, token in enumerate(tokens):
        if token.upper != "FOR" or index == first:
            continue
        at = index + 1
        marker = ""
        if at < len(tokens) and tokens[at].upper in ("ACTION", "FUNCTION", "LOCK"):
            marker = f" {tokens[at].upper}" if tokens[at].upper != "LOCK" else ""
            at += 1
        pair = tokens[at : at + 3]
        if len(pair) == 3 and pair[1].text == "~" and pair[0].kind == pair[2].kind == NAME:
            yield f"{category}{marker} {pair[0].upper}~{pair[2].upper}"
        elif category in CONTROLS and pair and pair[0].kind == NAME:
            yield f"{category} {pair[0].upper}"


#: The signature a handler of each item kind is declared with (``{timing}``: the BDEF's).
SIGNATURES = {
    "action": "MODIFY ACTION",
    "function": "READ FUNCTION",
    "determination": "DETERMINE {timing}",
    "validation": "VALIDATE ON SAVE",
}


def signature(item: BehaviorItem) -> str:
    """What the handler method of ``item`` is declared ``FOR`` (``DETERMINE ON MODIFY``)."""
    timing = (item.timing or "on modify").upper()
    return SIGNATURES[item.kind].format(timing=timing)


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


def required_controls(definition: Definition) -> list[tuple[Behavior, Control]]:
    """The controls of ``definition``'s entities each of which needs a handler method:
    all of them in an unmanaged BDEF, all but a plain ``lock master`` in a managed one."""
    if definition.implementation not in _IMPLEMENTED:
        return []
    managed = definition.implementation == "managed"
    return [
        (behavior, control)
        for behavior in definition.behaviors
        if not behavior.extension
        for control in behavior.controls
        if not (managed and control.signature == "LOCK" and not control.unmanaged)
    ]


def names_of(behavior: Behavior) -> tuple[str, ...]:
    """How a handler may name the entity: its alias or its name (upper case)."""
    return tuple(n.upper() for n in (behavior.alias, behavior.entity) if n)


__all__ = [
    "CONTROLS",
    "HANDLED_KINDS",
    "handled",
    "names_of",
    "pair_of",
    "required",
    "required_controls",
    "signature",
]
