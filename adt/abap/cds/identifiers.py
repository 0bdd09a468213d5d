"""ADT's "case preserving formatter for identifiers" of DDL sources: every name that stands
for something defined in CDS is written the way its definition writes it.

Real systems offer it at ``POST /sap/bc/adt/ddic/ddl/formatter/identifiers`` (also for
metadata extensions and service definitions); Eclipse's DDL formatter lays the text out
itself and asks the system only for this. Recased here: entities named as data sources,
association or composition targets, projected, extended, annotated, protected, exposed or
redirected entities; the steps of element paths, ``on`` conditions and computed elements
(an alias or association of the source itself, a field or association of a CDS entity).
Dictionary tables and their fields are left as written (DDIC names have no case of their
own), as is everything else: keywords, annotations, literals, comments and blanks. Only
the case of a name changes, so tokens stay the same and in the same order, and a second
run changes nothing.
"""

from __future__ import annotations

import re

from adt.abap.cds import model as m
from adt.abap.cds.catalog import Catalog, Entity, Scope
from adt.abap.cds.model import Definition, PathStep, Source

Spellings = dict[tuple[int, int], tuple[str, str]]
_RECASED_ROLES = m.ENTITY_ROLES
_BREAK = re.compile(r"(\r\n|\n)")


def recase(text: str, source: Source, catalog: Catalog) -> str:
    """``text`` (the text ``source`` was parsed from) with defined names in their case."""
    spellings: Spellings = {}
    for reference in source.references:
        if reference.role in _RECASED_ROLES:
            _entity_name(reference, catalog, spellings)
    definition = source.definition
    if definition is not None and definition.sources:
        _paths(definition, Scope(catalog, definition), spellings)
    return _apply(text, spellings) if spellings else text


def _note(spellings: Spellings, step: PathStep | m.Reference, spelled: str | None) -> None:
    written = step.name
    if spelled and spelled != written and spelled.upper() == written.upper():
        spellings[step.line, step.column] = (written, spelled)


def _entity_name(reference: m.Reference, catalog: Catalog, spellings: Spellings) -> None:
    entity = catalog.entity(reference.name)
    if entity is not None and entity.object_type == "DDLS":
        _note(spellings, reference, entity.name)


def _paths(definition: Definition, scope: Scope, spellings: Spellings) -> None:
    paths: list[list[PathStep]] = []
    for element in definition.elements:
        if element.path and not element.computed:
            paths.append(element.path)
        paths.extend(element.uses)
    for association in definition.associations:
        paths.extend(association.condition)
    aliases = {(s.alias or s.name).upper(): s.alias or s.name for s in definition.sources}
    local = {a.name.upper(): a.name for a in definition.associations}
    for path in paths:
        _path(path, scope, aliases, local, spellings)


def _path(
    path: list[PathStep],
    scope: Scope,
    aliases: dict[str, str],
    local: dict[str, str],
    spellings: Spellings,
) -> None:
    head = path[0]
    key = head.name.upper()
    entity: Entity | None
    rest = path[1:]
    if key.startswith("$"):
        return
    if len(path) > 1 and key in aliases:
        _note(spellings, head, aliases[key])
        entity = scope.aliases.get(key)
    elif key in local:
        _note(spellings, head, local[key])
        entity = scope.catalog.entity(scope.local[key])
    else:
        entity = next(
            (e for e in scope.sources if e is not None and _knows(e, head.name)),
            None,
        )
        rest = path
    _walk(entity, rest, scope.catalog, spellings)


def _knows(entity: Entity, name: str) -> bool:
    return entity.field(name) is not None or entity.target(name) is not None


def _walk(
    entity: Entity | None, steps: list[PathStep], catalog: Catalog, spellings: Spellings
) -> None:
    for step in steps:
        if entity is None or entity.opaque:
            return
        found = entity.field(step.name)
        target = entity.target(step.name)
        if entity.object_type == "DDLS":
            if found is not None:
                _note(spellings, step, found.name)
            elif target is not None:
                _note(spellings, step, _association_name(entity, step.name))
        if target is None:
            return
        entity = catalog.entity(target)


def _association_name(entity: Entity, name: str) -> str | None:
    definition = entity.definition
    if definition is None:
        return None
    key = name.upper()
    names = [a.name for a in definition.associations] + [e.name for e in definition.elements]
    return next((n for n in names if n.upper() == key), None)


def _apply(text: str, spellings: Spellings) -> str:
    """Replace each noted name where it stands (same length, so columns stay valid)."""
    pieces = _BREAK.split(text)
    for index in range(0, len(pieces), 2):
        number = index // 2 + 1
        line = pieces[index]
        for (at_line, column), (written, spelled) in spellings.items():
            if at_line == number and line[column : column + len(written)] == written:
                line = line[:column] + spelled + line[column + len(written) :]
        pieces[index] = line
    return "".join(pieces)


__all__ = ["recase"]
