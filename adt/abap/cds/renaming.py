"""Renaming an element of a CDS entity: its alias, and every place the name travels.

An element is known by its name in the entity that gives it (``agency_id as AgencyID``).
The name travels on: a projection (or any view) that takes the element without an alias of
its own carries the same name, so it is renamed there too, and so on. The places: the
alias itself, every path step resolving to one of those elements (element lists, ``on``
conditions, ``$projection.X``), the elements of metadata extensions annotating them, the
names in the behavior of those entities (``field ( … )`` lists, ``field X`` of
determinations and validations, the left side of mappings), the ``where`` conditions of
access controls on those entities, and in ABAP the names of statements reading those
entities (``SELECT AgencyID FROM zi_travel``) and the components of data typed by them
(``ls_travel-agencyid``; :mod:`adt.abap.cds.abap_elements`). No I/O: the caller gives the
catalog, the behavior texts and the ABAP programs (texts or indexes)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass

from adt.abap.cds.abap_elements import abap_names, name_at
from adt.abap.cds.catalog import FIELD, Catalog, Scope
from adt.abap.cds.locate import ELEMENT, _paths, _scope, locate
from adt.abap.cds.model import Definition, PathStep, Source
from adt.abap.cds.tokens import NAME, Token, tokenize
from adt.abap.index import ProgramIndex, Unit

#: Definitions without an element list of their own.
_NO_ELEMENTS = frozenset({"behavior", "service", "role", "metadata extension"})
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MAX_NAME = 30
Element = tuple[str, str]  # (ENTITY, ELEMENT), upper case
#: Given entity names (upper case), the indexes of the ABAP programs naming one of them.
Programs = Callable[[set[str]], Iterable[ProgramIndex]]

__all__ = [
    "Place",
    "RenameRefused",
    "abap_element_at",
    "check_new_name",
    "element_at",
    "element_places",
]


class RenameRefused(ValueError):
    """Why an element cannot be renamed (or not to that name), in the user's words."""


@dataclass(frozen=True)
class Place:
    """A place of the name: the object (a catalog object's name, or the caller's key of an
    ABAP text), its type, 1-based line, 0-based column, length."""

    object: str
    type: str
    line: int
    column: int
    length: int


def _covers(line: int, column: int, step: PathStep) -> bool:
    return step.line == line and step.column <= column <= step.column + len(step.name)


def element_at(source: Source, catalog: Catalog, line: int, column: int) -> Element | None:
    """The element under the cursor: its own name in an element list, a path step, an
    annotated or behavior field resolving to it. Refused: a table field, an element
    without an alias (renaming it would need one)."""
    found = locate(source, catalog, line, column)
    if found is not None and found.what == ELEMENT and found.field is not None:
        return _renamable(catalog, found.field.owner, found.field.name)
    definition = source.definition
    if found is not None or definition is None or definition.kind in _NO_ELEMENTS:
        return None
    for element in definition.elements:
        if _covers(line, column, PathStep(element.name, element.line, element.column)):
            if element.association or element.redirected_to:
                return None
            return _renamable(catalog, definition.name, element.name)
    return None


def abap_element_at(
    index: ProgramIndex, unit: str, line: int, column: int, catalog: Catalog
) -> Element | None:
    """The element an ABAP cursor is on (a name of a statement reading an entity, a
    component of data typed by one; :mod:`adt.abap.cds.abap_elements`), as from its DDLS;
    None when the cursor is on no such name (an ABAP symbol, perhaps)."""

    owns = _owning(catalog)

    def exists(entity: str) -> bool:
        return catalog.entity(entity) is not None

    if not _element_word(index.line_text(unit, line), column, catalog):
        return None  # most ABAP renames: no statement to read
    found = name_at(index, unit, line, column, exists, owns, _called(_behavior_map(catalog)))
    if found is None or not owns(found[0], found[1].upper):
        return None
    field = catalog.entity(found[0])
    assert field is not None
    spelled = field.field(found[1].upper)
    assert spelled is not None
    return _renamable(catalog, spelled.owner, spelled.name)


def _owning(catalog: Catalog) -> Callable[[str, str], bool]:
    """Whether an entity (or table) of the catalog has an element of that name."""

    def owns(entity: str, name: str) -> bool:
        found = catalog.entity(entity)
        return found is not None and not found.opaque and found.field(name) is not None

    return owns


def _element_word(text: str, column: int, catalog: Catalog) -> bool:
    """Whether the word at ``column`` is the name of an element of some definition."""
    words = [m for m in _WORD.finditer(text) if m.start() <= column <= m.end()]
    if not words:
        return False
    word = words[0].group().upper()
    return any(
        e.name.upper() == word
        for obj in catalog.sources()
        if (definition := obj.source.definition) is not None
        for e in definition.elements
    )


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _behavior_map(catalog: Catalog) -> dict[tuple[str, str], str]:
    """(root entity, name after ``ENTITY``) → the entity the root's behavior (or its
    projection's) calls so: its alias or its own name."""
    found: dict[tuple[str, str], str] = {}
    for obj in catalog.sources():
        definition = obj.source.definition
        if definition is None or definition.kind != "behavior" or not definition.behaviors:
            continue
        root = definition.behaviors[0].entity.upper()
        for behavior in definition.behaviors:
            for called in (behavior.alias, behavior.entity):
                if called:
                    found.setdefault((root, called.upper()), behavior.entity.upper())
    return found


def _called(found: dict[tuple[str, str], str]) -> Callable[[str, str], str | None]:
    return lambda root, name: found.get((root, name))


def _renamable(catalog: Catalog, owner: str, name: str) -> Element:
    obj = catalog.defined(owner)
    definition = obj.source.definition if obj is not None else None
    if obj is None or definition is None or obj.type.upper() != "DDLS":
        raise RenameRefused(f"{name} is a field of {owner}, not a CDS element: it is not renamed")
    for element in definition.elements:
        if element.name.upper() == name.upper() and element.path and not element.alias:
            return _taken_from(catalog, definition, element.path, name)
    return definition.key, name.upper()


def _taken_from(
    catalog: Catalog, definition: Definition, path: list[PathStep], name: str
) -> Element:
    """An element without an alias carries the name of the one its path reaches: that
    one is renamed (a table's field cannot be: then an alias is needed)."""
    scope = _scope(catalog, definition)
    resolution = scope.resolve(path) if scope is not None else None
    if resolution is None or resolution.status != FIELD or resolution.field is None:
        raise RenameRefused(f"{name} of {definition.name} cannot be followed to its origin")
    origin = resolution.field
    base = catalog.defined(origin.owner)
    if base is None or base.type.upper() != "DDLS":
        raise RenameRefused(
            f"{name} has no alias in {definition.name}: give it one ({name} as …) and "
            "rename the alias"
        )
    return _renamable(catalog, origin.owner, origin.name)


def _carriers(catalog: Catalog, start: Element) -> set[Element]:
    """The element and every element that takes its name on (no alias of its own)."""
    targets = {start}
    grown = True
    while grown:
        grown = False
        for definition, scope in _views(catalog):
            for element in scope.elements:
                key = (definition.key, element.name.upper())
                if element.alias or not element.path or key in targets:
                    continue
                if _resolves(scope, element.path, targets):
                    targets.add(key)
                    grown = True
    return targets


def _views(catalog: Catalog) -> Iterator[tuple[Definition, Scope]]:
    for obj in catalog.sources():
        definition = obj.source.definition
        if definition is None or definition.kind in _NO_ELEMENTS:
            continue
        scope = _scope(catalog, definition)
        if scope is not None:
            yield (definition if scope.extension is None else scope.definition), scope


def _resolves(scope: Scope, path: list[PathStep], targets: set[Element]) -> bool:
    resolution = scope.resolve(path)
    f = resolution.field
    return bool(resolution.status == FIELD and f and (f.owner.upper(), f.name.upper()) in targets)


def check_new_name(catalog: Catalog, start: Element, new: str) -> None:
    """A CDS name, at most 30 characters, free in every entity the name travels to."""
    if not _NAME.match(new) or len(new) > _MAX_NAME:
        raise RenameRefused(f"{new} is not a valid CDS name (letters, digits, _; at most 30)")
    for owner, _ in sorted(_carriers(catalog, start)):
        entity = catalog.entity(owner)
        if entity is not None and new.upper() != start[1] and entity.field(new) is not None:
            raise RenameRefused(f"{owner} has an element {new} already")


def element_places(
    catalog: Catalog,
    start: Element,
    behaviors: Mapping[str, str],
    abap: Iterable[tuple[str, str]],
    roles: Mapping[str, str] | None = None,
    programs: Programs | None = None,
) -> list[Place]:
    """Every place of the element ``start`` and of those carrying its name on.
    ``behaviors``: BDEF name → text; ``abap``: (key, text) of ABAP sources, each read as
    a program of its own; ``programs``: given the names a program must mention (the
    entities carrying the element, the roots of their behaviors), the indexes of those
    programs (places keyed by unit); ``roles``: DCLS name → text (the conditions of
    ``grant select on`` those entities)."""
    targets = _carriers(catalog, start)
    found = set(_annotations_and_behaviors(catalog, targets, behaviors))
    found |= set(_view_places(catalog, targets, start[1]))
    entities = {owner for owner, _ in targets}
    for role, text in (roles or {}).items():
        found |= set(_role_places(role, text, entities, start[1]))
    indexes = [ProgramIndex(key, [Unit(key, text)]) for key, text in abap]
    behaving = _behavior_map(catalog)
    roots = {root for (root, _), entity in behaving.items() if entity in entities}
    for index in [*indexes, *(programs(entities | roots) if programs is not None else ())]:
        found |= {
            Place(unit, "ABAP", line, column, length)
            for unit, line, column, length in abap_names(
                index, entities.__contains__, start[1], _owning(catalog), _called(behaving)
            )
        }
    return sorted(found, key=lambda p: (p.type, p.object, p.line, p.column))


def _annotations_and_behaviors(
    catalog: Catalog, targets: set[Element], behaviors: Mapping[str, str]
) -> Iterator[Place]:
    for obj in catalog.sources():
        definition = obj.source.definition
        if definition is None:
            continue
        if definition.kind == "metadata extension":
            yield from (
                Place(obj.name, obj.type.upper(), e.line, e.column, len(e.name))
                for e in definition.elements
                if (definition.key, e.name.upper()) in targets
            )
        elif definition.kind == "behavior":
            yield from _behavior_places(obj.name, definition, behaviors.get(obj.name), targets)


def _view_places(catalog: Catalog, targets: set[Element], name: str) -> Iterator[Place]:
    """Aliases, ``$projection`` steps and path steps resolving to one of ``targets``."""
    for definition, scope in _views(catalog):
        obj_name = _object_of(catalog, scope)
        yield from (
            Place(obj_name, "DDLS", e.line, e.column, len(e.name))
            for e in scope.elements
            if e.alias and (definition.key, e.name.upper()) in targets
        )
        for path in _paths(scope.extension or definition):
            for index, step in enumerate(path):
                if step.name.upper() != name:
                    continue
                if index == 1 and path[0].name.upper() == "$PROJECTION":
                    hit = (definition.key, name) in targets
                else:
                    hit = _resolves(scope, path[: index + 1], targets)
                if hit:
                    yield Place(obj_name, "DDLS", step.line, step.column, len(step.name))


def _object_of(catalog: Catalog, scope: Scope) -> str:
    """The catalog object whose source the scope's element list is in."""
    written = scope.extension or scope.definition
    for obj in catalog.sources():
        if obj.source.definition is written:
            return obj.name
    return str(written.name)


def _behavior_places(
    name: str, definition: Definition, text: str | None, targets: set[Element]
) -> Iterator[Place]:
    """The element's name inside the bodies of the behaviors of the entities carrying it
    (a mapping's right side, the table's column, is left alone)."""
    tokens = tokenize(text) if text is not None else []
    for behavior in definition.behaviors:
        wanted = {e for owner, e in targets if owner == behavior.entity.upper()}
        if not wanted:
            continue
        end = behavior.end if behavior.end != (0, 0) else (10**9, 0)
        previous = ""
        for token in tokens:
            inside = (behavior.line, behavior.column) < (token.line, token.column) < end
            if inside and token.kind == NAME and token.text.upper() in wanted and previous != "=":
                yield Place(name, "BDEF", token.line, token.column, len(token.text))
            previous = token.text


def _role_places(role: str, text: str, entities: set[str], name: str) -> Iterator[Place]:
    """The name in the ``where`` condition of each ``grant select on`` one of ``entities``
    (an access condition names the protected entity's elements)."""
    statement: list[Token] = []
    for token in tokenize(text):
        if token.text not in (";", "{", "}"):
            statement.append(token)
            continue
        words = [t.text.upper() for t in statement]
        if "ON" in words and "WHERE" in words:
            entity = words[words.index("ON") + 1] if words.index("ON") + 1 < len(words) else ""
            if entity in entities:
                for t in statement[words.index("WHERE") + 1 :]:
                    if t.kind == NAME and t.text.upper() == name:
                        yield Place(role, "DCLS", t.line, t.column, len(t.text))
        statement = []
