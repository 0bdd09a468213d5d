"""The quick fix that declares a variable (see the package doc)."""

from __future__ import annotations

import itertools

from adt.abap.format.declarations import declared_names, is_plain_name, superclass
from adt.abap.format.keywords import ASSIGNMENTS
from adt.abap.format.pretty import Source
from adt.abap.format.tokens import LineKind, Token, TokenKind, TokenStatement

from .model import (
    PROCEDURES,
    Edit,
    Fix,
    FixEdits,
    Site,
    case,
    class_name,
    end_of,
    find_class,
    text_of,
)

_OPERAND_HEADS = frozenset({"IF", "ELSEIF", "WHILE", "CHECK", "WRITE", "CASE", "WHEN"})


def _procedure(site: Site) -> tuple[int | None, bool]:
    """The innermost procedure block around the position (an index into the blocks), and
    whether the position is executable code at all (not a class or interface body)."""
    layout = site.source.layout
    block = layout.enclosing[site.index]
    while block is not None:
        kind = layout.blocks[block].kind
        if kind in PROCEDURES:
            return block, True
        if kind in ("CLASS", "INTERFACE"):
            return None, False
        block = layout.blocks[block].parent
    return None, True


def _is_usage(site: Site, token: Token) -> bool:
    """Whether ``token`` is assigned to or read: the target or an operand of an assignment,
    or an operand of ``IF``, ``WHILE``, ``CHECK``, ``WRITE``, ``CASE`` or ``WHEN``."""
    tokens = site.statement.tokens
    i = tokens.index(token)
    previous = tokens[i - 1].upper if i > 0 else ""
    following = tokens[i + 1].text if i + 1 < len(tokens) else ""
    if previous in ("TYPE", "LIKE", "OF", "TO"):
        return False
    if len(tokens) > 1 and tokens[1].text in ASSIGNMENTS:
        return i == 0 or (i > 1 and following not in ASSIGNMENTS)
    return i > 0 and tokens[0].upper in _OPERAND_HEADS


def _class_known(site: Site, method: str) -> bool:
    """Inside a method: whether the class definition, every class it inherits from and, for
    an interface method (``lif~m``), the interface are among the sources, so that every
    attribute and parameter is known."""
    name = class_name(site)
    sources = (site.source, *site.context)
    if "~" in method:
        interface = method.split("~", 1)[0]
        if not any(_defines_interface(s, interface) for s in sources):
            return False
    seen: set[str] = set()
    while name is not None and name not in seen:
        seen.add(name)
        found = [(s, b) for s in sources if (b := find_class(s, name, "DEFINITION"))]
        if not found:
            return False
        source, block = found[0]
        name = superclass(source, block.start)
    return True


def _defines_interface(source: Source, name: str) -> bool:
    return any(
        block.kind == "INTERFACE" and source.statements[block.start].words[1:2] == [name]
        for block in source.layout.blocks
    )


def _undeclared(site: Site) -> str | None:
    token = site.token
    if token is None or token.kind is not TokenKind.WORD or not is_plain_name(token.text):
        return None
    if site.source.keywords.get(token, False) or not _is_usage(site, token):
        return None
    procedure, executable = _procedure(site)
    if not executable:
        return None
    block = site.source.layout.blocks[procedure] if procedure is not None else None
    if block is not None and block.kind == "METHOD":
        method = site.source.statements[block.start].words[1:2]
        if not _class_known(site, method[0] if method else ""):
            return None
    if token.upper in declared_names((site.source, *site.context)):
        return None
    return token.text


def offer_declaration(site: Site) -> Fix | None:
    name = _undeclared(site)
    if name is None:
        return None
    description = (
        f"<p>Declares <b>{name}</b> (<b>TYPE any</b>) with the other declarations of its block; "
        "replace the type with the one you need.</p>"
    )
    return Fix(
        "declare_local_variable",
        "declare_local_variable",
        f"Declare local variable '{name}'",
        description,
    )


def _data_statements(site: Site, procedure: int | None) -> list[TokenStatement]:
    """The ``DATA`` statements of the block before the position (no structures)."""
    layout, statements = site.source.layout, site.source.statements
    return [
        statements[i]
        for i in range(site.index)
        if layout.enclosing[i] == procedure
        and statements[i].first.upper == "DATA"
        and not _structure(statements[i].words)
    ]


def _structure(words: list[str]) -> bool:
    return any(pair in (("BEGIN", "OF"), ("END", "OF")) for pair in itertools.pairwise(words))


def _extend_chain(site: Site, chain: TokenStatement, name: str) -> FixEdits:
    colon = chain.colon
    assert colon is not None
    after = chain.tokens[colon + 1]
    head = chain.first
    anchor = (
        after.column if after.line == head.line else site.source.lines[head.line - 1].indent + 2
    )
    text = text_of(site.lines, chain)
    content = f"{text[:-1]},\n{' ' * anchor}{name} {case(head, 'TYPE')} any."
    end_line = end_of(chain)[0]
    edit = Edit((head.line, head.column), end_of(chain), content, "Insert variable declaration")
    return FixEdits((edit,), (end_line + 1, anchor))


def _declaration_after(
    site: Site, anchor: Token, end: tuple[int, int], indent: int, name: str
) -> FixEdits:
    words = f"{case(anchor, 'DATA')} {name} {case(anchor, 'TYPE')} any."
    edit = Edit(end, None, f"\n{' ' * indent}{words}", "Insert variable declaration")
    return FixEdits((edit,), (end[0] + 1, indent))


def declaration(site: Site) -> FixEdits:
    name = _undeclared(site)
    if name is None:
        return FixEdits(())
    procedure, _ = _procedure(site)
    data = _data_statements(site, procedure)
    chained = [d for d in data if d.colon is not None]
    if chained:
        return _extend_chain(site, chained[-1], name)
    if data:
        indent = site.source.lines[data[-1].first.line - 1].indent
        return _declaration_after(site, data[-1].first, end_of(data[-1]), indent, name)
    if procedure is not None:
        opener = site.source.statements[site.source.layout.blocks[procedure].start]
        indent = site.source.lines[opener.first.line - 1].indent + 2
        return _declaration_after(site, opener.first, _after_interface(site, opener), indent, name)
    first = site.statement.first
    indent = site.source.lines[first.line - 1].indent
    sample = next((t for t, is_kw in site.source.keywords.items() if is_kw), first)
    words = f"{case(sample, 'DATA')} {name} {case(sample, 'TYPE')} any."
    if first.column == indent:
        edit = Edit(
            (first.line, 0), None, f"{' ' * indent}{words}\n", "Insert variable declaration"
        )
        return FixEdits((edit,), (first.line, indent))
    edit = Edit(
        (first.line, first.column), None, f"{words}\n{' ' * indent}", "Insert variable declaration"
    )
    return FixEdits((edit,), (first.line, first.column))


def _after_interface(site: Site, opener: TokenStatement) -> tuple[int, int]:
    """Where a function module's body starts: after the opener and its ``*"`` comment lines."""
    end = end_of(opener)
    number = end[0]
    while number < len(site.source.lines):
        line = site.source.lines[number]
        if line.kind is not LineKind.STAR or not line.text.startswith('*"'):
            break
        number += 1
        end = (number, len(line.text))
    return end
