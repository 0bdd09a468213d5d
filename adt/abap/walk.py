"""Resolving the identifiers of one statement: a left-to-right walk with component contexts.

The walk knows what a name after ``->``/``=>``/``~``/``-`` is looked up in (the context
the name before it left), which names are formal parameters of a call (``m( p = v )``,
``CALL FUNCTION … EXPORTING p = v``), which are types (after ``TYPE``, ``REF TO``,
``NEW``/``CAST``/``CONV``…), and which words are keywords rather than names.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from adt.abap.keywords import CONSTRUCTORS, KEYWORDS
from adt.abap.lexer import LITERAL, NAME, Token, adjacent
from adt.abap.lookup import (
    callable_of,
    enclosing_class,
    lookup,
    member,
    selector_target,
    superclass,
    type_of,
)
from adt.abap.lookup import returning as returning_of
from adt.abap.symbols import Occurrence, Scope, Symbol, SymbolKind

SELECTORS = frozenset({"->", "=>", "~"})
ASSIGNMENTS = frozenset({"=", "?=", "+=", "-=", "*=", "/=", "&&="})
OPERAND_FOLLOWERS = frozenset({"(", "->", "=>", "~", "["})
PARAMETER_SECTIONS = frozenset(
    {"EXPORTING", "IMPORTING", "CHANGING", "TABLES", "RECEIVING", "EXCEPTIONS"}
)
INLINE = frozenset({"DATA", "FINAL", "FIELD-SYMBOL"})
_TYPE_AFTER = {"TYPE": "", "TO": "REF", "OF": "INSTANCE TABLE RANGE LINE"}


@dataclass
class Frame:
    """An open parenthesis: the routine it calls (if any) and whether formal names follow."""

    call: Symbol | None
    is_call: bool
    exceptions: bool = False


def inline_declaration(tokens: Sequence[Token], i: int) -> tuple[Token, int] | None:
    """``DATA(x)``, ``FINAL(x)``, ``FIELD-SYMBOL(<x>)`` at ``i``: the name token and the
    index after the closing parenthesis."""
    word = tokens[i].upper
    j = i + 1
    if word == "FIELD" and i + 2 < len(tokens) and tokens[i + 1].text == "-":
        word, j = "FIELD-" + tokens[i + 2].upper, i + 3
    if word not in INLINE or j + 1 >= len(tokens):
        return None
    if (
        tokens[j].text != "("
        or not adjacent(tokens[j - 1], tokens[j])
        or tokens[j + 1].kind != NAME
    ):
        return None
    end = j + 3 if j + 2 < len(tokens) and tokens[j + 2].text == ")" else j + 2
    return tokens[j + 1], end


Record = Callable[[Symbol, Token, str, bool], None]


class Walk:
    """Resolves the names of one statement from ``start`` on."""

    def __init__(
        self,
        tokens: Sequence[Token],
        scope: Scope,
        record: Record,
        contexts: dict[tuple[int, int], Symbol],
    ) -> None:
        self.tokens = tokens
        self.scope = scope
        self.record = record
        self.contexts = contexts
        self.frames: list[Frame] = []
        self.context: dict[int, Symbol | None] = {}  # selector index → what follows it
        self.resolved: dict[int, Symbol | None] = {}  # name index → what it resolved to
        self.last_callable: Symbol | None = None
        self.section_frame: Frame | None = None

    # driving ---------------------------------------------------------------------------
    def run(self, start: int = 0) -> None:
        i = start
        while i < len(self.tokens):
            token = self.tokens[i]
            if token.kind == NAME:
                i = self.name(i)
            elif token.text == "(":
                self.open(i)
                i += 1
            elif token.text == ")":
                self.close(i)
                i += 1
            else:
                i += 1

    def open(self, i: int) -> None:
        before = self.tokens[i - 1] if i > 0 else None
        is_call = (
            before is not None
            and adjacent(before, self.tokens[i])
            and (before.kind == NAME or before.text == "#")
        )
        call = callable_of(self.resolved.get(i - 1)) if is_call else None
        self.frames.append(Frame(call, is_call))

    def close(self, i: int) -> None:
        frame = self.frames.pop() if self.frames else None
        after = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
        if frame is None or after is None or not adjacent(self.tokens[i], after):
            return
        if after.text in SELECTORS or after.text == "-":
            result = type_of(returning_of(frame.call)) if frame.call else None
            self._set_context(i + 1, result)

    # names -----------------------------------------------------------------------------
    def name(self, i: int) -> int:
        tokens = self.tokens
        inline = inline_declaration(tokens, i)
        if inline is not None:
            return inline[1]
        token = tokens[i]
        prev = tokens[i - 1] if i > 0 else None
        if token.upper in PARAMETER_SECTIONS:
            self._section(token.upper)
            return i + 1
        if (
            prev is not None
            and adjacent(prev, token)
            and (prev.text in SELECTORS or prev.text == "-")
        ):
            if (i - 1) in self.context:
                found = self._component(i, self.context[i - 1])
                self._resolved(i, found)
            return i + 1
        if token.upper in CONSTRUCTORS and self._constructor(i):
            return i + 2
        if token.upper in ("ME", "SUPER") and self._self_reference(i):
            return i + 1
        formal = self._formal(i)
        if formal is not None:
            return formal
        if not self._operand(i):
            return i + 1
        found = lookup(token.text, self.scope, types=self._type_position(i))
        self._resolved(i, found)
        return i + 1

    def _component(self, i: int, owner: Symbol | None) -> Symbol | None:
        token = self.tokens[i]
        following = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
        if following is not None and following.text == "~" and adjacent(token, following):
            return lookup(token.text, self.scope, types=True)  # lo->zif~m
        return member(owner, token.text)

    def _resolved(self, i: int, found: Symbol | None) -> None:
        token = self.tokens[i]
        if found is not None:
            following = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
            write = i == 0 and following is not None and following.text in ASSIGNMENTS
            self.record(found, token, "reference", write)
            if callable_of(found) is not None:
                self.last_callable = callable_of(found)
        self._remember(i, found)

    def _remember(self, i: int, found: Symbol | None) -> None:
        """What token ``i`` means, and what a selector right after it continues in."""
        self.resolved[i] = found
        following = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
        if following is None or not adjacent(self.tokens[i], following):
            return
        if following.text in SELECTORS or following.text == "-":
            self._set_context(i + 1, selector_target(found, following.text))

    def _set_context(self, selector: int, target: Symbol | None) -> None:
        self.context[selector] = target
        if target is not None:
            token = self.tokens[selector]
            self.contexts[(token.line, token.column)] = target

    # special words ---------------------------------------------------------------------
    def _constructor(self, i: int) -> bool:
        """``NEW zcl_x( … )``, ``CAST zif_x( … )``, ``VALUE #( … )``: the type name."""
        following = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
        if following is None or adjacent(self.tokens[i], following):
            return False
        if following.text == "#":
            return True
        if following.kind != NAME:
            return False
        found = lookup(following.text, self.scope, types=True)
        if found is not None:
            self.record(found, following, "reference", False)
        constructor = member(found, "CONSTRUCTOR") if found is not None else None
        self.resolved[i + 1] = constructor
        self._remember_selector(i + 1, found)
        return True

    def _remember_selector(self, i: int, found: Symbol | None) -> None:
        following = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
        if following is not None and following.text in ("=>", "-"):
            self._set_context(i + 1, selector_target(found, following.text))

    def _self_reference(self, i: int) -> bool:
        following = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
        if following is None or following.text != "->" or not adjacent(self.tokens[i], following):
            return False
        cls = enclosing_class(self.scope)
        if cls is not None and self.tokens[i].upper == "SUPER":
            cls = superclass(cls)
        self._set_context(i + 1, cls)
        return True

    def _section(self, word: str) -> None:
        if self.frames:
            self.frames[-1].exceptions = word == "EXCEPTIONS"
            return
        if self.section_frame is None:
            self.section_frame = Frame(self.last_callable, True)
        self.section_frame.exceptions = word == "EXCEPTIONS"

    def _formal(self, i: int) -> int | None:
        """A formal parameter name (``p = v`` inside a call or a parameter section)."""
        tokens = self.tokens
        following = tokens[i + 1] if i + 1 < len(tokens) else None
        if following is None or following.text != "=":
            return None
        frame = self.frames[-1] if self.frames else self.section_frame
        if frame is None or not frame.is_call:
            return None
        if frame.call is not None and not frame.exceptions and frame.call.members is not None:
            found = frame.call.members.local(tokens[i].text)
            if found is not None and found.kind is SymbolKind.PARAMETER:
                self.record(found, tokens[i], "reference", False)
        return i + 1

    def _operand(self, i: int) -> bool:
        """Whether the name at ``i`` can be an identifier (not a keyword) here."""
        token = self.tokens[i]
        if token.kind != NAME:
            return False
        if token.upper not in KEYWORDS:
            return True
        following = self.tokens[i + 1] if i + 1 < len(self.tokens) else None
        return (
            following is not None
            and following.text in OPERAND_FOLLOWERS
            and adjacent(token, following)
        )

    def _type_position(self, i: int) -> bool:
        if i == 0:
            return False
        before = self.tokens[i - 1].upper
        if before not in _TYPE_AFTER:
            return False
        needed = _TYPE_AFTER[before]
        return not needed or (i > 1 and self.tokens[i - 2].upper in needed.split())


def literal_name(token: Token) -> tuple[str, int] | None:
    """The name inside ``'Z_DEMO_ADD'`` and its column."""
    if token.kind != LITERAL or len(token.text) < 3 or token.text[0] != "'":
        return None
    return token.text[1:-1].upper(), token.column + 1


def occurrence(symbol: Symbol, unit: str, token: Token, role: str, write: bool) -> Occurrence:
    return Occurrence(symbol, unit, token.line, token.column, len(token.text), role, write)
