"""Quick fixes: which ones apply at a position of a source, and the text edits of one.

A small, honest set, each computed from the text alone (plus related sources for
declarations, see :mod:`adt.abap.format.declarations`):

``add_unimplemented_method`` (id ``unimplemented_methods``)
    on a ``CLASS`` statement, or a ``METHODS`` statement in a definition, whose class declares
    methods (not ``ABSTRACT``) that its implementation in the same source lacks: inserts empty
    ``METHOD … ENDMETHOD.`` blocks before the implementation's ``ENDCLASS``.
``create_method_def`` (id ``create_method_def``)
    on a ``METHOD`` statement whose method the class definition in the same source does not
    declare: adds ``METHODS name.`` to the private section (creating it if needed).
``declare_local_variable`` (id ``declare_local_variable``)
    on a name that is assigned or read in executable code (a method, form, function module,
    module, report event or the report's top level) and declared nowhere: declares it
    ``TYPE any``, in the block's chained ``DATA:`` if it has one, else after its last ``DATA``
    statement, else at the start of the block.
``pretty_print_statement`` (id ``pretty_print_statement``)
    on a statement the pretty printer would change: replaces its lines with their printed
    form (an emulator addition, not a kind SAP offers).

Generated keywords take the case of the statement they attach to. Positions: lines 1-based,
columns 0-based; edit ranges refer to the text that was evaluated, end exclusive.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from adt.abap.format.pretty import PrinterSettings, Source, split_text
from adt.abap.format.tokens import Token, TokenKind

from .classes import definition, implementations, offer_definition, offer_implementations
from .declare import declaration, offer_declaration
from .model import Edit, Fix, FixEdits, Site, end_of
from .printing import offer_printing, printing

__all__ = ["FIX_IDS", "Edit", "Fix", "FixEdits", "evaluate", "propose"]

_Offer = Callable[[Site], Fix | None]
_Apply = Callable[[Site], FixEdits]
_FIXES: dict[str, tuple[_Offer, _Apply]] = {
    "declare_local_variable": (offer_declaration, declaration),
    "unimplemented_methods": (offer_implementations, implementations),
    "create_method_def": (offer_definition, definition),
    "pretty_print_statement": (offer_printing, printing),
}
FIX_IDS = frozenset(_FIXES)


def _token_at(source: Source, line: int, column: int) -> Token | None:
    if not 1 <= line <= len(source.lines):
        return None
    for token in source.lines[line - 1].tokens:
        width = len(token.text.split("\n")[0])
        if token.column <= column <= token.column + width:
            return token
    return None


def _statement_at(source: Source, line: int, column: int, token: Token | None) -> int | None:
    if token is not None and token.kind is not TokenKind.COMMENT:
        owner = source.statement_of()
        return owner.get(token)
    for index, statement in enumerate(source.statements):
        first = statement.first
        if (first.line, first.column) <= (line, column) <= end_of(statement):
            return index
    return None


def _site(
    text: str, line: int, column: int, context: Sequence[str], settings: PrinterSettings
) -> Site | None:
    lines, _ = split_text(text)
    source = Source.parse(lines)
    token = _token_at(source, line, column)
    index = _statement_at(source, line, column, token)
    if index is None:
        return None
    related = tuple(Source.parse(split_text(other)[0]) for other in context)
    return Site(source, index, token, related, settings, lines)


def evaluate(
    text: str,
    line: int,
    column: int,
    *,
    context: Sequence[str] = (),
    settings: PrinterSettings | None = None,
) -> list[Fix]:
    """The fixes that apply at ``line``/``column`` of ``text`` (none: an empty list)."""
    site = _site(text, line, column, context, settings or PrinterSettings())
    if site is None:
        return []
    return [fix for offer, _ in _FIXES.values() if (fix := offer(site)) is not None]


def propose(
    fix_id: str,
    text: str,
    line: int,
    column: int,
    *,
    context: Sequence[str] = (),
    settings: PrinterSettings | None = None,
) -> FixEdits | None:
    """The edits of fix ``fix_id`` at the position (no edits when it does not apply there);
    ``None`` for an id that is not one of :data:`FIX_IDS`."""
    if fix_id not in _FIXES:
        return None
    site = _site(text, line, column, context, settings or PrinterSettings())
    if site is None:
        return FixEdits(())
    return _FIXES[fix_id][1](site)
