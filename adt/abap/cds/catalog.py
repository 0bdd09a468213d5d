"""The entities a set of sources defines, with their elements and associations resolved.

A :class:`Catalog` is built from parsed objects (the caller reads them; no I/O here), data
elements (types and labels), the names of classes and, on demand, the handler methods a
class declares (a callable the caller provides reads them). ``entity(name)`` gives tables,
structures, CDS entities (their elements typed through the data sources they project,
extensions merged in) and the SAP-delivered entities of :mod:`.standard`. A cycle between
entities (an association back to a view being built) answers an opaque entity rather than
recursing.

Name resolution inside one view (:class:`Scope`) lives here too, since building a view's
entity resolves its paths and resolving a path builds the entities it passes: a path starts
at a data source alias, a local association, ``$projection``, ``$parameters`` or
``$session``, or names a field/association of the data sources; each further step follows
an association to its target. The answer is a :class:`Resolution` — a field (with its
type), an association (with its target), a place beyond which nothing can be known (an
opaque or unknown entity, ``open``) or the step that failed."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from adt.abap.cds.model import Definition, Element, PathStep, Source
from adt.abap.cds.standard import SESSION_VARIABLES, STANDARD

FIELD, ASSOCIATION, OPEN, FAILED = "field", "association", "open", "failed"
TYPED_KINDS = ("table", "structure", "abstract entity", "custom entity", "table function")


@dataclass(frozen=True)
class CatalogObject:
    """One object given to the catalog: its name, ADT type (``DDLS``, ``TABL``, …), source."""

    name: str
    type: str
    source: Source


@dataclass(frozen=True)
class DataElement:
    """What a hover shows of a data element: its type as text and its medium label."""

    name: str
    type: str
    label: str


@dataclass
class Field:
    name: str
    type: str = ""
    key: bool = False
    label: str = ""
    line: int = 0
    column: int = 0
    owner: str = ""


@dataclass
class Entity:
    """An entity as consumers see it; ``opaque`` ones accept any field name."""

    name: str
    kind: str
    object_type: str
    fields: dict[str, Field] = field(default_factory=dict)
    associations: dict[str, str] = field(default_factory=dict)
    opaque: bool = False
    definition: Definition | None = None
    label: str = ""

    def field(self, name: str) -> Field | None:
        return self.fields.get(name.upper())

    def target(self, association: str) -> str | None:
        return self.associations.get(association.upper())

    @property
    def keys(self) -> list[Field]:
        return [f for f in self.fields.values() if f.key]


class Catalog:
    """Entities by name, built on first use."""

    def __init__(
        self,
        objects: Iterable[CatalogObject],
        data_elements: Iterable[DataElement] = (),
        classes: Iterable[str] = (),
        handlers: Callable[[str], set[str] | None] | None = None,
    ) -> None:
        self.objects: dict[str, CatalogObject] = {}
        self.definitions: dict[str, CatalogObject] = {}
        self.by_name: dict[str, CatalogObject] = {}
        self.extensions: dict[str, list[Definition]] = {}
        for obj in objects:
            self.add(obj)
        self.data_elements = {d.name.upper(): d for d in data_elements}
        self.classes = {c.upper() for c in classes}
        self._handlers = handlers
        self._handled: dict[str, set[str] | None] = {}
        self._entities: dict[str, Entity | None] = {}
        self._building: set[str] = set()

    def add(self, obj: CatalogObject) -> None:
        self.objects[f"{obj.type.upper()}:{obj.name.upper()}"] = obj
        definition = obj.source.definition
        if definition is None or not definition.name:
            return
        if definition.kind not in ("extension", "behavior", "metadata extension"):
            self.by_name.setdefault(definition.key, obj)  # its own name, not its entity's
        if definition.kind == "extension":
            self.extensions.setdefault(definition.key, []).append(definition)
            return
        if obj.type.upper() in ("DDLS", "TABL"):
            self.definitions[definition.key] = obj
            self.definitions.setdefault(obj.name.upper(), obj)

    def sources(self) -> Iterator[CatalogObject]:
        return iter(self.objects.values())

    def defined(self, name: str) -> CatalogObject | None:
        """The DDLS or TABL object defining ``name``."""
        return self.definitions.get(name.upper())

    def named(self, name: str) -> CatalogObject | None:
        """The object whose source defines ``name`` (an entity, table, service, role, …) —
        or, for SAP-delivered objects, None while ``exists`` is true."""
        return self.definitions.get(name.upper()) or self.by_name.get(name.upper())

    def exists(self, name: str) -> bool:
        key = name.upper()
        return key in self.definitions or key in STANDARD

    def names(self) -> list[str]:
        """Every entity and table name (for completion), as written in its definition."""
        found = [
            obj.source.definition.name
            for obj in self.definitions.values()
            if obj.source.definition is not None
        ]
        return sorted(set(found) | {s.name for s in STANDARD.values()}, key=str.upper)

    def handlers_of(self, pool: str) -> set[str] | None:
        """``ENTITY~OPERATION`` of the handler methods class ``pool`` declares
        (:func:`adt.abap.cds.pool.handled`); None when its source cannot be read."""
        key = pool.upper()
        if key not in self._handled:
            read = self._handlers if key in self.classes else None
            self._handled[key] = read(key) if read is not None else None
        return self._handled[key]

    def data_element(self, name: str) -> DataElement | None:
        return self.data_elements.get(name.upper())

    def entity(self, name: str) -> Entity | None:
        key = name.upper()
        if key in self._entities:
            return self._entities[key]
        if key in self._building:
            return Entity(name, "view entity", "DDLS", opaque=True)
        self._building.add(key)
        try:
            built = self._build(key)
        finally:
            self._building.discard(key)
        self._entities[key] = built
        return built

    def _build(self, key: str) -> Entity | None:
        obj = self.definitions.get(key)
        if obj is None:
            standard = STANDARD.get(key)
            return _standard_entity(standard.name) if standard else None
        definition = obj.source.definition
        assert definition is not None
        entity = Entity(definition.name, definition.kind, obj.type.upper(), definition=definition)
        entity.label = _label(definition)
        if definition.kind in TYPED_KINDS:
            self._typed(entity, definition)
        else:
            Scope(self, definition).fill(entity)
        for extension in self.extensions.get(key, []):
            self._extend(entity, definition, extension)
        return entity

    def _typed(self, entity: Entity, definition: Definition) -> None:
        for element in definition.elements:
            if element.association or element.redirected_to:
                continue
            entity.fields[element.name.upper()] = self.field_of(element, definition.name)
        for association in definition.associations:
            entity.associations[association.name.upper()] = association.target
        for element in definition.elements:
            if element.redirected_to:
                entity.associations[element.name.upper()] = element.redirected_to
        for included in definition.includes:
            structure = self.entity(included)
            if structure is not None:
                entity.fields.update(structure.fields)
                entity.opaque = entity.opaque or structure.opaque

    def _extend(self, entity: Entity, base: Definition, extension: Definition) -> None:
        if base.kind in TYPED_KINDS:
            for element in extension.elements:
                entity.fields[element.name.upper()] = self.field_of(element, extension.name)
            return
        Scope(self, base, extension).fill(entity)

    def field_of(self, element: Element, owner: str) -> Field:
        data_element = self.data_element(element.type) if element.type else None
        return Field(
            element.name,
            element.type,
            element.key,
            data_element.label if data_element else "",
            element.line,
            element.column,
            owner,
        )


def _label(definition: Definition) -> str:
    for annotation in definition.annotations:
        if annotation.name.lower() == "endusertext.label":
            return annotation.value.strip("'")
    return ""


def _standard_entity(name: str) -> Entity:
    standard = STANDARD[name.upper()]
    entity = Entity(
        standard.name, "view entity", "DDLS", opaque=standard.opaque, label=standard.label
    )
    for field_name, field_type, key in standard.fields:
        entity.fields[field_name.upper()] = Field(field_name, field_type, key, owner=standard.name)
    entity.associations = {a.upper(): target for a, target in standard.associations}
    return entity


@dataclass
class Resolution:
    status: str
    field: Field | None = None
    target: str = ""
    failed: PathStep | None = None
    message: str = ""


class Scope:
    """The names visible in the element list (and ``on`` conditions) of ``definition``;
    ``extension`` elements are resolved in the scope of the view they extend."""

    def __init__(
        self, catalog: Catalog, definition: Definition, extension: Definition | None = None
    ):
        self.catalog = catalog
        self.definition = definition
        self.extension = extension
        self.aliases: dict[str, Entity | None] = {}
        self.sources: list[Entity | None] = []
        for source in definition.sources:
            entity = catalog.entity(source.name)
            self.sources.append(entity)
            self.aliases[(source.alias or source.name).upper()] = entity
        self.local: dict[str, str] = {a.name.upper(): a.target for a in definition.associations}
        if extension is not None:
            self.local.update({a.name.upper(): a.target for a in extension.associations})
        self.parameters = {p.name.upper() for p in definition.parameters}

    @property
    def elements(self) -> list[Element]:
        return self.extension.elements if self.extension else self.definition.elements

    def fill(self, entity: Entity) -> None:
        """Add the elements (fields and exposed associations) of the list to ``entity``."""
        for element in self.elements:
            if element.redirected_to:
                entity.associations[element.name.upper()] = element.redirected_to
                continue
            resolution = self.resolve(element.path) if element.path else Resolution(OPEN)
            if resolution.status == ASSOCIATION:
                entity.associations[element.name.upper()] = resolution.target
                continue
            base = resolution.field
            entity.fields[element.name.upper()] = Field(
                element.name,
                element.type or (base.type if base else ""),
                element.key,
                base.label if base else "",
                element.line,
                element.column,
                entity.name,
            )

    def resolve(self, path: list[PathStep]) -> Resolution:
        if not path:
            return Resolution(OPEN)
        head = path[0].name.upper()
        if head.startswith("$"):
            return self._variable(head, path)
        if len(path) > 1 and head in self.aliases:
            return self.walk(self.aliases[head], path[1:], path[0])
        if head in self.local:
            if len(path) == 1:
                return Resolution(ASSOCIATION, target=self.local[head])
            return self.walk(self.catalog.entity(self.local[head]), path[1:], path[0])
        return self._unqualified(path)

    def _unqualified(self, path: list[PathStep]) -> Resolution:
        head = path[0]
        for entity in self.sources:
            if entity is None or entity.opaque:
                return Resolution(OPEN)
            if entity.field(head.name) is not None or entity.target(head.name) is not None:
                return self.walk(entity, path, None)
        if len(self.sources) == 1 and self.sources[0] is not None:
            where = f"'{self.sources[0].name}'"
        else:
            where = "the data sources"
        return Resolution(FAILED, failed=head, message=f"'{head.name}' is no element of {where}")

    def _variable(self, head: str, path: list[PathStep]) -> Resolution:
        if len(path) < 2:
            return Resolution(
                FAILED, failed=path[0], message=f"'{path[0].name}' needs a name after '.'"
            )
        name = path[1]
        known: set[str] | tuple[str, ...]
        if head == "$PROJECTION":
            known = {e.name.upper() for e in self.definition.elements}
            if self.extension is not None:
                known |= {e.name.upper() for e in self.extension.elements}
        elif head == "$PARAMETERS":
            known = self.parameters
        elif head == "$SESSION":
            known = tuple(v.upper() for v in SESSION_VARIABLES)
        else:
            return Resolution(OPEN)
        if name.name.upper() in known:
            return Resolution(OPEN)
        return Resolution(
            FAILED, failed=name, message=f"'{name.name}' is not known in {path[0].name}"
        )

    def walk(self, entity: Entity | None, rest: list[PathStep], via: PathStep | None) -> Resolution:
        """Follow ``rest`` from ``entity`` (reached through ``via``, when a step)."""
        if entity is None or entity.opaque:
            return Resolution(OPEN)
        if not rest:
            return Resolution(ASSOCIATION, target=entity.name)
        for index, step in enumerate(rest):
            last = index == len(rest) - 1
            found = entity.field(step.name)
            if found is not None and last:
                return Resolution(FIELD, field=found)
            target = entity.target(step.name)
            if target is None:
                what = "element" if last else "association"
                return Resolution(
                    FAILED, failed=step, message=f"'{step.name}' is no {what} of '{entity.name}'"
                )
            if last:
                return Resolution(ASSOCIATION, target=target)
            next_entity = self.catalog.entity(target)
            if next_entity is None or next_entity.opaque:
                return Resolution(OPEN)
            entity = next_entity
        return Resolution(OPEN)
