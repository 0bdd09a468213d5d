"""Where ABAP names an element of a CDS entity, read over a program's symbol index.

The forms, each only where the entity behind the name is certain:

* a component of data typed by the entity: ``ls_travel-travelid`` where the variable, the
  parameter or the field symbol is declared ``TYPE zi_travel`` (also through a local
  ``TYPES`` of it, ``LIKE`` other such data, an inline ``DATA(ls) = VALUE zi_travel( … )``),
  and ``lt_travels[ … ]-travelid`` of a table ``TYPE [STANDARD|SORTED|HASHED] TABLE OF
  zi_travel`` (or ``LIKE LINE OF`` one), ``row-travelid`` of its row declared inline by
  ``LOOP AT``/``READ TABLE``;
* a component of the entity's type itself: ``TYPE zi_travel-travelid``;
* a component named in a constructor of the entity: ``VALUE zi_travel( travelid = … )``
  (rows of a table type: ``VALUE tt( ( travelid = … ) )``);
* a name of an ABAP SQL statement reading the entity (after ``FROM`` or ``JOIN``), except
  the program's own data: host variables (after ``@``), ``INTO``/``APPENDING`` targets,
  components of other data, names qualified by another data source (``a~name``);
* a name of an EML statement after ``ENTITY x``, x the entity or its alias in the behavior
  of the ``ENTITIES OF`` root (``ENTITY Travel FIELDS ( TravelID )``), up to a ``BY
  \\_association`` or the results (``RESULT``, ``FAILED``, …); ``%control-x`` and
  ``%data-x`` included.

And the components an internal table of the entity names bare (:mod:`.abap_tables`). Data
whose type the index cannot tell (:mod:`.abap_typing`: a method's returning value used in
place, a generic type, an inline declaration other than a row of such a table or ``VALUE
e( )``) is never followed. No I/O."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from adt.abap.cds.abap_tables import table_names
from adt.abap.cds.abap_typing import (
    ANY_KIND,
    Wanted,
    data_typed,
    local,
    plain,
    statements,
    touching,
    typed_by,
)
from adt.abap.index import ProgramIndex
from adt.abap.lexer import NAME, Token
from adt.abap.symbols import SymbolKind

#: (ENTITY, ELEMENT) as written in ABAP (the element as spelled), with its token.
Named = tuple[str, Token]
#: Does the entity (upper case) have an element of this name (upper case)?
Owns = Callable[[str, str], bool]
#: The entity (upper case) a behavior of the root entity calls ``name`` (``ENTITY Travel``
#: of ``… ENTITIES OF zi_travel``), None when it calls none so.
Behaves = Callable[[str, str], str | None]
#: A place: unit, line, column, length.
Spot = tuple[str, int, int, int]

_CLAUSES = frozenset(
    {"FROM", "WHERE", "GROUP", "HAVING", "ORDER", "UP", "FIELDS", "UNION", "BYPASSING"}
)
_TARGETS = frozenset({"INTO", "APPENDING"})

__all__ = ["Behaves", "Named", "Owns", "Spot", "Wanted", "abap_names", "name_at"]


def _component_owner(
    index: ProgramIndex, unit: str, tokens: Sequence[Token], at: int, wanted: Wanted
) -> str | None:
    """The entity whose component ``tokens[at]`` is, when it follows ``-`` of data typed
    by it (``ls-x``, ``lt[ … ]-x``) or of the entity's own type (``TYPE zi_travel-x``)."""
    if at < 2 or tokens[at - 1].text != "-":
        return None
    dash = tokens[at - 1]
    if not (touching(dash, tokens[at]) and touching(tokens[at - 2], dash)):
        return None
    before, table = at - 2, tokens[at - 2].text == "]"
    if table:
        found = _opening(tokens, before)
        if found is None or not touching(tokens[found], tokens[found + 1]):
            return None
        before = found
    owner = tokens[before]
    if owner.kind != NAME:
        return None
    occurrence = index.occurrence_at(unit, owner.line, owner.column)
    if occurrence is not None and occurrence.column == owner.column:
        typed = data_typed(index, unit, owner, wanted)
        return typed[0] if typed is not None and typed[1] == table else None
    leads = before > 0 and tokens[before - 1].upper in ("TYPE", "LIKE")
    scope = index.scope_at(unit, owner.line)
    if leads and not table and wanted(owner.upper) and local(scope, owner.upper, ANY_KIND) is None:
        return owner.upper
    return None


def _opening(tokens: Sequence[Token], close: int) -> int | None:
    """The index of the name before the ``[`` matching ``tokens[close]`` (``]``)."""
    depth = 0
    for index in range(close, -1, -1):
        text = tokens[index].text
        depth += text == "]"
        depth -= text == "["
        if depth == 0:
            return index - 1 if index > 0 else None
    return None


def _constructed(
    index: ProgramIndex, unit: str, tokens: Sequence[Token], wanted: Wanted
) -> Iterator[tuple[int, str]]:
    """(token index, ENTITY) of the component names of ``VALUE t( c = … )`` of an entity
    (or a table of it: ``VALUE tt( ( c = … ) )``)."""
    for start, token in enumerate(tokens[:-2]):
        if token.upper != "VALUE" or tokens[start + 2].text != "(":
            continue
        typed = _type_named(index, unit, tokens[start + 1], wanted)
        if typed is None:
            continue
        entity, table = typed
        yield from ((at, entity) for at in _components(tokens, start + 2, 2 if table else 1))


def _components(tokens: Sequence[Token], opening: int, level: int) -> Iterator[int]:
    """Token indexes of ``name =`` at ``level`` inside the parentheses opening at
    ``opening`` (the names a ``LET … IN`` declares are left out)."""
    depth, declaring = 0, False
    for at in range(opening, len(tokens) - 1):
        token = tokens[at]
        depth += token.text == "("
        depth -= token.text == ")"
        if depth == 0:
            return
        if token.upper in ("LET", "IN"):
            declaring = token.upper == "LET"
        named = token.kind == NAME and tokens[at - 1].text not in ("-", "~", "->", "=>")
        if depth == level and named and not declaring and tokens[at + 1].text == "=":
            yield at


_KEY_WORDS = frozenset(
    {"UNIQUE", "NON", "DEFAULT", "EMPTY", "PRIMARY_KEY", "ALIAS", "SORTED", "HASHED"}
    | {"KEY", "COMPONENTS", "TABLE_LINE", "WITH", "INITIAL", "SIZE", "READ-ONLY"}
)


def _table_keys(
    index: ProgramIndex, unit: str, tokens: Sequence[Token], wanted: Wanted
) -> Iterator[tuple[int, str]]:
    """(token index, ENTITY) of the key components of ``TABLE OF <entity> WITH … KEY c``
    (a secondary key's own name, before ``COMPONENTS``, is left out)."""
    for start in range(len(tokens) - 2):
        if tokens[start].upper != "TABLE" or tokens[start + 1].upper != "OF":
            continue
        typed = _type_named(index, unit, tokens[start + 2], wanted)
        if typed is None or typed[1]:
            continue
        keyed = False
        for at in range(start + 3, len(tokens)):
            token = tokens[at]
            if token.text in (",", "."):
                break
            keyed = keyed or token.upper == "KEY"
            after = tokens[at + 1].upper if at + 1 < len(tokens) else ""
            bare = token.kind == NAME and tokens[at - 1].text != "-"
            if keyed and bare and token.upper not in _KEY_WORDS and after != "COMPONENTS":
                yield at, typed[0]


def _type_named(
    index: ProgramIndex, unit: str, token: Token, wanted: Wanted
) -> tuple[str, bool] | None:
    if token.kind != NAME or not plain(token.text):
        return None
    declared = local(index.scope_at(unit, token.line), token.upper, ANY_KIND)
    if declared is None:
        return (token.upper, False) if wanted(token.upper) else None
    return typed_by(declared, wanted) if declared.kind == SymbolKind.TYPE else None


def _read_entities(tokens: Sequence[Token]) -> list[str]:
    """The data sources an SQL statement reads (``FROM``/``JOIN`` x), in order."""
    found: list[str] = []
    for at, token in enumerate(tokens[1:], start=1):
        if tokens[at - 1].upper in ("FROM", "JOIN"):
            name = token.text.lstrip("@").upper()
            if name not in found:
                found.append(name)
    return found


#: Where the names of an EML statement stop being the entity's: its result and responses.
_EML_TARGETS = frozenset({"RESULT", "FAILED", "REPORTED", "MAPPED", "LINK"})


def _eml_names(
    tokens: Sequence[Token], wanted: Wanted, owns: Owns, behaves: Behaves
) -> Iterator[tuple[int, str]]:
    """(token index, ENTITY) of the names of an EML statement after ``ENTITY x``: x is the
    entity or its alias in the behavior of the ``ENTITIES OF`` root; what follows ``BY
    \\_assoc`` (another entity) or starts the results is left out."""
    words = [t.upper for t in tokens]
    pairs = range(len(words) - 2)
    root = next((words[i + 2] for i in pairs if words[i : i + 2] == ["ENTITIES", "OF"]), "")
    current: str | None = None
    for at, token in enumerate(tokens):
        previous = tokens[at - 1].text if at else ""
        if previous.upper() == "ENTITY":
            current = behaves(root, token.upper) if root else None
            current = current or (token.upper if wanted(token.upper) else None)
            continue
        if token.upper in _EML_TARGETS or (token.upper == "BY" and at + 1 < len(tokens)):
            current = None
        named = current is not None and _eml_word(tokens, at)
        if named and current is not None and wanted(current) and owns(current, token.upper):
            yield at, current


def _eml_word(tokens: Sequence[Token], at: int) -> bool:
    """A name of the EML statement itself: not the program's (after ``@``, ``->``, ``=>``,
    ``~``, a component of data) — but ``%control-x`` and ``%data-x``, components of EML's
    derived types, are the entity's element ``x``."""
    if tokens[at].kind != NAME or at == 0:
        return tokens[at].kind == NAME
    previous = tokens[at - 1].text
    if previous == "-":
        return at > 1 and tokens[at - 2].upper in ("%CONTROL", "%DATA")
    return previous not in ("@", "->", "=>", "~")


def _statement_names(
    tokens: Sequence[Token], wanted: Wanted, owns: Owns, behaves: Behaves
) -> Iterator[tuple[int, str]]:
    """(token index, ENTITY) of the names of a statement reading wanted entities, except
    the program's data: host variables, ``INTO``/``APPENDING`` targets, result names
    after ``AS``, components; a name qualified by a data source (``a~name``) is that
    source's, an unqualified one the only source's that has it (else it is left alone)."""
    words = {t.upper for t in tokens}
    if "ENTITY" in words or "ENTITIES" in words:
        yield from _eml_names(tokens, wanted, owns, behaves)
        return
    entities = _read_entities(tokens)
    if not any(wanted(e) for e in entities):
        return
    sources = _aliases(tokens)
    target = False
    for at, token in enumerate(tokens):
        target = token.upper in _TARGETS or (target and token.upper not in _CLAUSES)
        previous = tokens[at - 1].upper if at else ""
        if target or token.kind != NAME or previous in ("@", "-", "->", "=>", "AS"):
            continue
        qualified = sources.get(tokens[at - 2].upper) if previous == "~" and at > 1 else None
        candidates = [qualified] if qualified is not None else entities
        owners = [e for e in candidates if owns(e, token.upper)]
        if len(owners) == 1 and wanted(owners[0]):
            yield at, owners[0]


def _aliases(tokens: Sequence[Token]) -> dict[str, str]:
    """Alias (or name) → data source of every ``FROM``/``JOIN``, upper case."""
    found: dict[str, str] = {}
    for at, token in enumerate(tokens[:-1]):
        if token.upper in ("FROM", "JOIN"):
            name = tokens[at + 1].text.lstrip("@").upper()
            found[name] = name
            if at + 3 < len(tokens) and tokens[at + 2].upper == "AS":
                found[tokens[at + 3].upper] = name
    return found


def _named_in(
    index: ProgramIndex,
    unit: str,
    tokens: Sequence[Token],
    wanted: Wanted,
    owns: Owns,
    behaves: Behaves,
) -> Iterator[tuple[int, str]]:
    """(token index, ENTITY) of every name of the statement that names an element."""
    yield from _statement_names(tokens, wanted, owns, behaves)
    yield from _constructed(index, unit, tokens, wanted)
    yield from _table_keys(index, unit, tokens, wanted)
    yield from table_names(index, unit, tokens, wanted)
    for at, token in enumerate(tokens):
        if token.kind == NAME:
            owner = _component_owner(index, unit, tokens, at, wanted)
            if owner is not None:
                yield at, owner


def abap_names(
    index: ProgramIndex, wanted: Wanted, name: str, owns: Owns, behaves: Behaves
) -> Iterator[Spot]:
    """Every place of the element ``name`` (upper case) of a wanted entity in the
    program's units."""
    for unit in index.unit_ids:
        for tokens in statements(index, unit):
            if not any(t.upper == name for t in tokens):
                continue
            for at, _entity in _named_in(index, unit, tokens, wanted, owns, behaves):
                token = tokens[at]
                if token.upper == name:
                    yield unit, token.line, token.column, len(token.text)


def name_at(
    index: ProgramIndex,
    unit: str,
    line: int,
    column: int,
    wanted: Wanted,
    owns: Owns,
    behaves: Behaves,
) -> Named | None:
    """The entity and the token of an element name the cursor is on; None elsewhere."""
    for tokens in statements(index, unit):
        first, last = tokens[0], tokens[-1]
        if (first.line, first.column) > (line, column) or (last.line, last.end) < (line, column):
            continue
        hits = [
            (tokens[at], entity)
            for at, entity in _named_in(index, unit, tokens, wanted, owns, behaves)
            if tokens[at].line == line and tokens[at].column <= column <= tokens[at].end
        ]
        return (hits[0][1], hits[0][0]) if hits else None
    return None
