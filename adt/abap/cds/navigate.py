"""Go-to-definition and where-used across the kinds.

From a CDS-family source: a data source, association target, projected/exposed/annotated
entity or table goes to its definition, an element path step to the element where it is
defined, a behavior pool to its class. From ABAP: the entity or table after ``FROM``,
``JOIN`` or ``ENTITIES OF`` goes to its DDLS/TABL. Where-used lists every reference to a
name in the catalog's sources and every such ABAP use."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from adt.abap.cds import model as m
from adt.abap.cds.bdef import EXTENDED_BEHAVIOR
from adt.abap.cds.catalog import Catalog, CatalogObject
from adt.abap.cds.locate import ELEMENT, locate
from adt.abap.lexer import NAME, lex

SELECTED = "selected in ABAP"
_ABAP_LEADS = {("FROM",), ("JOIN",), ("ENTITIES", "OF"), ("ENTITY", "OF")}


@dataclass(frozen=True)
class Location:
    """A place in an object: its name and ADT type, 1-based line, 0-based column."""

    object_name: str
    object_type: str
    line: int
    column: int
    length: int = 0
    role: str = ""


def _object_location(obj: CatalogObject, role: str = "") -> Location:
    definition = obj.source.definition
    line, column = (definition.line, definition.column) if definition else (1, 0)
    return Location(
        obj.name, obj.type.upper(), line, column, len(definition.name) if definition else 0, role
    )


def _behavior_of(catalog: Catalog, name: str) -> Location | None:
    key = name.upper()
    for obj in catalog.sources():
        definition = obj.source.definition
        if obj.type.upper() != "BDEF" or definition is None:
            continue
        for behavior in definition.behaviors:
            if not behavior.extension and key in (behavior.entity.upper(), behavior.alias.upper()):
                return Location(
                    obj.name, "BDEF", behavior.line, behavior.column, len(behavior.entity)
                )
    return None


def object_definition(catalog: Catalog, name: str, role: str = "") -> Location | None:
    """Where the object called ``name`` is defined (a class: its pool, line 1)."""
    if role in m.CLASS_ROLES:
        return Location(name.upper(), "CLAS", 1, 0) if name.upper() in catalog.classes else None
    if role == EXTENDED_BEHAVIOR:
        return _behavior_of(catalog, name)
    obj = catalog.named(name)
    return _object_location(obj) if obj is not None else None


def definition_at(source: m.Source, catalog: Catalog, line: int, column: int) -> Location | None:
    """The definition of what the cursor touches in a CDS-family source."""
    found = locate(source, catalog, line, column)
    if found is None:
        return None
    if found.what == ELEMENT and found.field is not None:
        owner = catalog.defined(found.owner)
        if owner is None:
            return None
        return Location(
            owner.name,
            owner.type.upper(),
            found.field.line,
            found.field.column,
            len(found.field.name),
        )
    return object_definition(catalog, found.name, found.role)


def abap_data_sources(text: str) -> Iterator[tuple[str, int, int]]:
    """(name, line, column) of every name after ``FROM``/``JOIN``/``ENTITIES OF`` in ABAP."""
    for statement in lex(text).statements:
        tokens = statement.tokens
        for i, token in enumerate(tokens):
            if token.kind != NAME:
                continue
            for lead in _ABAP_LEADS:
                start = i - len(lead)
                if start >= 0 and tuple(t.upper for t in tokens[start:i]) == lead:
                    name = token.text.lstrip("@")
                    yield name, token.line, token.column
                    break


def abap_data_source_at(text: str, line: int, column: int) -> str | None:
    """The data source under the cursor in ABAP source, if the cursor is on one."""
    for name, at_line, at_column in abap_data_sources(text):
        if at_line == line and at_column <= column <= at_column + len(name):
            return name
    return None


def where_used(
    name: str, catalog: Catalog, abap: Iterable[tuple[str, str, str]] = ()
) -> list[Location]:
    """Every use of ``name``: references of the catalog's sources and the ABAP data
    sources of ``abap`` — (object name, type, text) triples."""
    key = name.upper()
    found: list[Location] = []
    for obj in catalog.sources():
        for reference in obj.source.references:
            if reference.key == key:
                found.append(
                    Location(
                        obj.name,
                        obj.type.upper(),
                        reference.line,
                        reference.column,
                        len(reference.name),
                        reference.role,
                    )
                )
    for object_name, object_type, text in abap:
        for used, line, column in abap_data_sources(text):
            if used.upper() == key:
                found.append(Location(object_name, object_type, line, column, len(used), SELECTED))
    return sorted(found, key=lambda loc: (loc.object_type, loc.object_name, loc.line, loc.column))
