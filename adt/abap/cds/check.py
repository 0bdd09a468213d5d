"""The syntax check with name resolution: what a system's check reports for a CDS-family
source, found without a system.

Parse errors first; then every reference must name an existing object of the right sort
(entities and tables in the catalog or among the SAP-delivered ones, behavior pools among
the classes); then each kind's rules: element paths and ``on`` conditions of views resolve,
the names inside computed elements resolve too, a projection keeps the keys of the entity it
projects, annotated elements exist, a BDEF's entities, associations and fields exist and
its behavior pools declare a handler method for each action, function, determination and
validation and for the feature, authorization and lock control its entities ask for (a
warning). Entities the catalog cannot see into (opaque) are never reported
against, so a finding is always a real one."""

from __future__ import annotations

from collections.abc import Callable

from adt.abap.cds import model as m
from adt.abap.cds.bdef import EXTENDED_BEHAVIOR
from adt.abap.cds.catalog import FAILED, Catalog, Entity, Scope
from adt.abap.cds.model import (
    Behavior,
    BehaviorItem,
    Control,
    Definition,
    Diagnostic,
    PathStep,
    Source,
)
from adt.abap.cds.pool import names_of, pair_of, required, required_controls, signature

Rule = Callable[[Definition, Catalog], list[Diagnostic]]


def _at(
    step: PathStep | m.Reference | m.Element | m.BehaviorItem, message: str, length: int = 0
) -> Diagnostic:
    text = getattr(step, "name", "")
    return Diagnostic(message, step.line, step.column, length or max(len(text), 1))


def _reference(reference: m.Reference, catalog: Catalog) -> Diagnostic | None:
    role = reference.role
    if role in m.ENTITY_ROLES - {m.EXTENDED} and not catalog.exists(reference.name):
        return _at(
            reference, f"{role.capitalize()} '{reference.name}' does not exist or is not active"
        )
    if role == m.EXTENDED and catalog.named(reference.name) is None:
        return _at(reference, f"'{reference.name}' does not exist or is not active")
    if role in m.TABLE_ROLES | {m.INCLUDE} and not catalog.exists(reference.name):
        return _at(reference, f"Table or structure '{reference.name}' does not exist")
    if role == m.BEHAVIOR_POOL and catalog.classes and reference.key not in catalog.classes:
        return _at(reference, f"Behavior pool '{reference.name}' does not exist")
    if role == EXTENDED_BEHAVIOR and not _behavior_known(reference.name, catalog):
        return _at(reference, f"No behavior definition defines entity or alias '{reference.name}'")
    return None


def _behavior_known(name: str, catalog: Catalog) -> bool:
    key = name.upper()
    for obj in catalog.sources():
        definition = obj.source.definition
        if definition is None or obj.type.upper() != "BDEF":
            continue
        if any(key in (b.entity.upper(), b.alias.upper()) for b in definition.behaviors):
            return True
    return catalog.exists(name)


def _paths(scope: Scope, definition: Definition) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    paths: list[list[PathStep]] = []
    for element in scope.elements:
        if element.path and not element.computed:
            paths.append(element.path)
        paths.extend(element.uses)
    for association in definition.associations:
        paths.extend(association.condition)
    for path in paths:
        resolution = scope.resolve(path)
        if resolution.status == FAILED and resolution.failed is not None:
            found.append(_at(resolution.failed, resolution.message))
    return found


def _view(definition: Definition, catalog: Catalog) -> list[Diagnostic]:
    scope = Scope(catalog, definition)
    found = _paths(scope, definition)
    if definition.kind == "projection" and scope.sources and scope.sources[0] is not None:
        found.extend(_keys(definition, scope.sources[0]))
    return found


def _keys(definition: Definition, base: Entity) -> list[Diagnostic]:
    """A projection marks as key exactly the keys of the projected entity it keeps."""
    if base.opaque:
        return []
    found: list[Diagnostic] = []
    for element in definition.elements:
        if len(element.path) != 1 or element.computed:
            continue
        field = base.field(element.path[0].name)
        if field is None or field.key == element.key:
            continue
        if element.key:
            message = f"'{element.name}' is key here but not in '{base.name}'"
        else:
            message = f"Key element '{field.name}' of '{base.name}' must be key in the projection"
        found.append(_at(element.path[0], message))
    return found


def _extension(definition: Definition, catalog: Catalog) -> list[Diagnostic]:
    base_object = catalog.defined(definition.name)
    if base_object is None or base_object.source.definition is None:
        return []
    base = base_object.source.definition
    if base.kind in ("table", "structure", "abstract entity", "custom entity", "table function"):
        return []
    scope = Scope(catalog, base, definition)
    return _paths(scope, definition)


def _metadata_extension(definition: Definition, catalog: Catalog) -> list[Diagnostic]:
    entity = catalog.entity(definition.name)
    if entity is None or entity.opaque:
        return []
    return [
        _at(element, f"'{element.name}' is no element of '{entity.name}'")
        for element in definition.elements
        if entity.field(element.name) is None and entity.target(element.name) is None
    ]


def _behavior(definition: Definition, catalog: Catalog) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for behavior in definition.behaviors:
        if behavior.extension:
            continue  # names an entity or alias of another BDEF, which is checked itself
        entity = catalog.entity(behavior.entity)
        if entity is None or entity.opaque or entity.definition is None:
            continue  # unknown entity: reported with the references
        for item in behavior.items:
            if item.kind == "association" and entity.target(item.name) is None:
                found.append(_at(item, f"'{item.name}' is no association of '{entity.name}'"))
        for step in behavior.fields:
            if entity.field(step.name) is None:
                found.append(_at(step, f"'{step.name}' is no field of '{entity.name}'"))
    return found


def _handlers(definition: Definition, catalog: Catalog) -> list[Diagnostic]:
    """Each action, function, determination and validation has a handler method in the
    behavior pools the definition names. A warning: the BDEF activates without it (its pool
    is written after it, ADT's quick fix generates the methods); the pool does not."""
    pools = {b.pool.upper() for b in definition.behaviors if b.pool}
    pools |= {definition.pool.upper()} if definition.pool else set()
    known = [catalog.handlers_of(pool) for pool in sorted(pools)]
    if not known or any(handled is None for handled in known):
        return []  # no pool, or one whose source cannot be read: cannot tell
    implemented = set().union(*(h for h in known if h is not None))
    found: list[Diagnostic] = []
    for behavior, item in required(definition):
        message = _handler_finding(behavior, item, definition.pool, implemented)
        if message:
            found.append(Diagnostic(message, item.line, item.column, len(item.name), "warning"))
    for behavior, control in required_controls(definition):
        message = _control_finding(behavior, control, definition.pool, implemented)
        if message:
            found.append(
                Diagnostic(message, control.line, control.column, control.length, "warning")
            )
    return found


def _control_finding(behavior: Behavior, control: Control, pool: str, implemented: set[str]) -> str:
    """What is missing for ``control`` (nothing: ``""``): a method ``FOR INSTANCE FEATURES
    … FOR Travel`` (``FOR LOCK … FOR LOCK Travel``) in the pools."""
    if any(f"{control.signature} {name}" in implemented for name in names_of(behavior)):
        return ""
    entity = behavior.alias or behavior.entity
    lead = "FOR LOCK" if control.signature == "LOCK" else "FOR"
    return (
        f"No handler method for the {control.written} of '{entity}' in behavior pool "
        f"'{behavior.pool or pool}' (a method FOR {control.signature} … {lead} {entity})"
    )


def _handler_finding(
    behavior: Behavior, item: BehaviorItem, pool: str, implemented: set[str]
) -> str:
    """What is wrong with the handler of ``item`` (nothing: ``""``): none declared, or one
    declared for another kind of operation (a validation's method ``FOR DETERMINE``)."""
    pairs = {f"{name}~{item.name.upper()}" for name in names_of(behavior)}
    wanted = signature(item)
    declared = {entry for entry in implemented if pair_of(entry) in pairs}
    if any(entry.startswith(f"{wanted} ") for entry in declared):
        return ""
    entity = behavior.alias or behavior.entity
    pool = behavior.pool or pool
    if declared:
        other = sorted(declared)[0].rsplit(" ", 1)[0]
        return (
            f"The handler method of {item.kind} '{item.name}' of '{entity}' in behavior pool "
            f"'{pool}' is declared {_spelled(other)}; a {item.kind}'s is {_spelled(wanted)}"
        )
    return (
        f"No handler method for {item.kind} '{item.name}' of '{entity}' in behavior "
        f"pool '{pool}' (a method {_spelled(wanted)} {entity}~{item.name})"
    )


def _spelled(signature: str) -> str:
    """A signature as a declaration spells it: ``FOR MODIFY … FOR ACTION``, ``FOR
    VALIDATE ON SAVE … FOR``."""
    head, _, marker = signature.rpartition(" ")
    if marker in ("ACTION", "FUNCTION") and head:
        return f"FOR {head} … FOR {marker}"
    return f"FOR {signature} … FOR"


RULES: dict[str, list[Rule]] = {
    "view entity": [_view],
    "view": [_view],
    "projection": [_view],
    "hierarchy": [_view],
    "extension": [_extension],
    "metadata extension": [_metadata_extension],
    "behavior": [_behavior, _handlers],
}


def check(source: Source, catalog: Catalog) -> list[Diagnostic]:
    """Every finding of ``source`` in the context of ``catalog``, in text order."""
    found = list(source.errors)
    for reference in source.references:
        diagnostic = _reference(reference, catalog)
        if diagnostic is not None:
            found.append(diagnostic)
    definition = source.definition
    if definition is not None:
        for rule in RULES.get(definition.kind, []):
            found.extend(rule(definition, catalog))
    return sorted(found, key=lambda d: (d.line, d.column))
