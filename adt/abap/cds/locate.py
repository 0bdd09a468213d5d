"""What is under a cursor in a CDS-family source: a reference to another object, a step of
a path expression (element lists, ``on`` conditions, BDEF fields and associations) or an
element's own name — and what it resolves to in a catalog."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from adt.abap.cds.catalog import ASSOCIATION, FIELD, Catalog, Entity, Field, Scope
from adt.abap.cds.model import Definition, PathStep, Reference, Source

ENTITY, ELEMENT, OBJECT = "entity", "element", "object"


@dataclass
class Found:
    """The thing under the cursor: an object (``name`` of an entity, table, class…), or an
    element (``field`` with its ``owner`` entity) or an association (``name`` = target)."""

    what: str
    name: str
    role: str = ""
    field: Field | None = None
    owner: str = ""
    line: int = 0
    column: int = 0
    length: int = 0


def _covers(line: int, column: int, at_line: int, at_column: int, name: str) -> bool:
    return line == at_line and at_column <= column <= at_column + len(name)


def _paths(definition: Definition) -> Iterator[list[PathStep]]:
    for element in definition.elements:
        if element.path and not element.computed:
            yield element.path
    for association in definition.associations:
        yield from association.condition


def _reference(source: Source, line: int, column: int) -> Reference | None:
    for reference in source.references:
        if _covers(line, column, reference.line, reference.column, reference.name):
            return reference
    return None


def _scope(catalog: Catalog, definition: Definition) -> Scope | None:
    if definition.kind == "extension":
        base = catalog.defined(definition.name)
        if base is not None and base.source.definition is not None:
            return Scope(catalog, base.source.definition, definition)
        return None
    if definition.kind in ("behavior", "service", "role", "metadata extension"):
        return None
    return Scope(catalog, definition)


def _in_path(scope: Scope, path: list[PathStep], index: int, step: PathStep) -> Found | None:
    resolution = scope.resolve(path[: index + 1])
    where = (step.line, step.column, len(step.name))
    if resolution.status == FIELD and resolution.field is not None:
        f = resolution.field
        return Found(
            ELEMENT, f.name, field=f, owner=f.owner, line=where[0], column=where[1], length=where[2]
        )
    if resolution.status == ASSOCIATION:
        return Found(
            ENTITY,
            resolution.target,
            role="association",
            line=where[0],
            column=where[1],
            length=where[2],
        )
    return None


def _entity_member(entity: Entity | None, step: PathStep) -> Found | None:
    if entity is None:
        return None
    found = entity.field(step.name)
    length = len(step.name)
    if found is not None:
        return Found(
            ELEMENT,
            found.name,
            field=found,
            owner=found.owner,
            line=step.line,
            column=step.column,
            length=length,
        )
    target = entity.target(step.name)
    if target is None:
        return None
    return Found(
        ENTITY, target, role="association", line=step.line, column=step.column, length=length
    )


def _behavior(catalog: Catalog, definition: Definition, line: int, column: int) -> Found | None:
    for behavior in definition.behaviors:
        entity = catalog.entity(behavior.entity)
        steps = list(behavior.fields) + [
            PathStep(i.name, i.line, i.column) for i in behavior.items if i.kind == "association"
        ]
        for step in steps:
            if _covers(line, column, step.line, step.column, step.name):
                return _entity_member(entity, step)
    return None


def _metadata(catalog: Catalog, definition: Definition, line: int, column: int) -> Found | None:
    for element in definition.elements:
        if _covers(line, column, element.line, element.column, element.name):
            step = PathStep(element.name, element.line, element.column)
            return _entity_member(catalog.entity(definition.name), step)
    return None


def locate(source: Source, catalog: Catalog, line: int, column: int) -> Found | None:
    """What the cursor at (1-based line, 0-based column) touches, resolved."""
    reference = _reference(source, line, column)
    if reference is not None:
        return Found(
            OBJECT,
            reference.name,
            role=reference.role,
            line=reference.line,
            column=reference.column,
            length=len(reference.name),
        )
    definition = source.definition
    if definition is None:
        return None
    if definition.kind == "behavior":
        return _behavior(catalog, definition, line, column)
    if definition.kind == "metadata extension":
        return _metadata(catalog, definition, line, column)
    scope = _scope(catalog, definition)
    if scope is None:
        return None
    for path in _paths(scope.extension or definition):
        for index, step in enumerate(path):
            if _covers(line, column, step.line, step.column, step.name):
                return _in_path(scope, path, index, step)
    return None
