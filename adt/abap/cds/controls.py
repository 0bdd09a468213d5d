"""The characteristics of a behavior entity that its pool implements with a handler method
of their own (feature control, authorization control, locking), read from a BDEF's tokens.

In the entity's header: ``authorization master ( instance )``/``( global )``/``( instance,
global )`` need ``FOR INSTANCE AUTHORIZATION``/``FOR GLOBAL AUTHORIZATION`` methods
(``( none )`` and ``authorization dependent by`` need none); ``lock master`` needs ``FOR
LOCK`` — in an unmanaged BDEF always, in a managed one only as ``lock master unmanaged``
(the framework locks otherwise; :func:`adt.abap.cds.pool.required_controls` decides). In
the body: an operation, action, association or field with ``( features : instance )``
needs ``FOR INSTANCE FEATURES``, with ``( features : global )`` ``FOR GLOBAL FEATURES``, an
item with ``( authorization : global )`` ``FOR GLOBAL AUTHORIZATION``. Each signature is
kept once per entity, where the BDEF first asks for it.
"""

from __future__ import annotations

from adt.abap.cds.model import Control
from adt.abap.cds.tokens import NAME, Token

_MASTER_MODES = {"instance": "INSTANCE AUTHORIZATION", "global": "GLOBAL AUTHORIZATION"}
_OPTIONS = {
    ("features", "instance"): "INSTANCE FEATURES",
    ("features", "global"): "GLOBAL FEATURES",
    ("authorization", "global"): "GLOBAL AUTHORIZATION",
}


def _word(tokens: list[Token], index: int) -> str:
    return tokens[index].text.lower() if index < len(tokens) else ""


def _span(first: Token, last: Token) -> int:
    return last.end - first.column if last.line == first.line else len(first.text)


def _authorization(tokens: list[Token], at: int) -> list[Control]:
    """``authorization master ( instance, global )`` starting at ``tokens[at]``."""
    found: list[Control] = []
    index = at + 2
    if _word(tokens, index) != "(":
        return found
    close = next((i for i in range(index, len(tokens)) if tokens[i].text == ")"), len(tokens))
    for token in tokens[index + 1 : close]:
        mode = token.text.lower()
        signature = _MASTER_MODES.get(mode) if token.kind == NAME else None
        if signature:
            written = f"authorization master ( {mode} )"
            found.append(Control(signature, written, token.line, token.column, len(token.text)))
    return found


def header_controls(tokens: list[Token]) -> list[Control]:
    """The controls the header of ``define behavior for …`` (up to ``{``) asks for."""
    found: list[Control] = []
    for index, token in enumerate(tokens):
        if token.kind != NAME or _word(tokens, index + 1) != "master":
            continue
        head = token.text.lower()
        if head == "authorization":
            found += _authorization(tokens, index)
        elif head == "lock":
            unmanaged = _word(tokens, index + 2) == "unmanaged"
            last = tokens[index + 2 if unmanaged else index + 1]
            written = "lock master unmanaged" if unmanaged else "lock master"
            length = _span(token, last)
            found.append(Control("LOCK", written, token.line, token.column, length, unmanaged))
    return found


def item_controls(tokens: list[Token]) -> list[Control]:
    """The controls of one item of the body (``( features : instance )`` …), nested
    blocks (``association _Booking { create ( features : instance ); }``) included."""
    found: list[Control] = []
    for index, token in enumerate(tokens):
        if token.kind != NAME or _word(tokens, index + 1) != ":":
            continue
        value = _word(tokens, index + 2)
        signature = _OPTIONS.get((token.text.lower(), value))
        if signature:
            written = f"{token.text.lower()} : {value}"
            length = _span(token, tokens[index + 2])
            found.append(Control(signature, written, token.line, token.column, length))
    return found


def merge(known: list[Control], more: list[Control]) -> None:
    """Add to ``known`` each control of ``more`` whose signature it does not have yet."""
    have = {c.signature for c in known}
    for control in more:
        if control.signature not in have:
            have.add(control.signature)
            known.append(control)


__all__ = ["header_controls", "item_controls", "merge"]
