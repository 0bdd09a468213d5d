"""Name resolution inside one CDS view: what an element's path expression denotes.

A path starts at a data source alias, a local association, ``$projection``,
``$parameters`` or ``$session``, or names a field/association of the data sources; each
further step follows an association to its target entity. The answer is a
:class:`Resolution` — a field (with its type), an association (with its target), a place
beyond which nothing can be known (an opaque or unknown entity) or the step that failed."""

from __future__ import annotations

from dataclasses import dataclass

from adt.abap.cds.catalog import Catalog, Entity, Field
from adt.abap.cds.model import Definition, Element, PathStep
from adt.abap.cds.standard import SESSION_VARIABLES

FIELD, ASSOCIATION, OPEN, FAILED = "field", "association", "open", "failed"


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
