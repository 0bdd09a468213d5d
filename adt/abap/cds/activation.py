"""The order in which a set of objects must be activated, and which activations a system
refuses: pure functions over objects and the names they depend on.

Dependencies point from a user to what it uses (a view to its data sources and association
targets, a projection to its base, a BDEF to its entities and tables, a table to its
includes and data elements). Objects that depend on each other — a root entity's
composition and its child's ``to parent`` association — form one group that is activated
together, as a system does."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from adt.abap.cds import model as m

DEPENDENCY_ROLES = m.ENTITY_ROLES | m.TABLE_ROLES | {m.INCLUDE, m.TYPE, m.PARAMETER_TYPE}


_DEFINING = frozenset(
    {"view entity", "view", "projection", "abstract entity", "custom entity", "table function"}
    | {"hierarchy", "table", "structure"}
)


@dataclass(frozen=True)
class Node:
    """An object to activate: its name, type and the names it depends on."""

    name: str
    type: str
    depends_on: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        return f"{self.type.upper()}:{self.name.upper()}"


# Types whose objects define the names others depend on (a BDEF, DDLX or DCLS called like
# its entity defines nothing of its own).
DEFINING_TYPES = ("TABL", "DDLS", "DTEL", "DOMA", "TTYP")


def depends_on(source: m.Source) -> tuple[str, ...]:
    """The names a parsed source depends on for activation (the entity or table it defines
    excluded; a BDEF, metadata extension, role or extension named like its entity does
    depend on that entity)."""
    definition = source.definition
    own = definition.key if definition is not None and definition.kind in _DEFINING else ""
    names: list[str] = []
    for reference in source.references:
        if (
            reference.role in DEPENDENCY_ROLES
            and reference.key != own
            and reference.key not in names
        ):
            names.append(reference.key)
    return tuple(names)


def activation_order(nodes: Iterable[Node]) -> list[list[Node]]:
    """Groups of the given nodes, each after the groups it depends on (Tarjan's strongly
    connected components, which come out dependencies first); names outside the set are
    ignored here (see :func:`refusal`)."""
    by_key = {node.key: node for node in nodes}
    definers = {
        node.name.upper(): node.key
        for node in by_key.values()
        if node.type.upper() in DEFINING_TYPES
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[Node]] = []

    def visit(key: str) -> None:
        index[key] = low[key] = len(index)
        stack.append(key)
        on_stack.add(key)
        for name in by_key[key].depends_on:
            dependency = definers.get(name.upper(), "")
            if not dependency or dependency == key:
                continue
            if dependency not in index:
                visit(dependency)
                low[key] = min(low[key], low[dependency])
            elif dependency in on_stack:
                low[key] = min(low[key], index[dependency])
        if low[key] == index[key]:
            group: list[Node] = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(by_key[member])
                if member == key:
                    break
            groups.append(sorted(group, key=lambda n: n.key))

    for key in by_key:
        if key not in index:
            visit(key)
    return groups


def refusal(node: Node, inactive: Iterable[str], activating: Iterable[str] = ()) -> str | None:
    """Why a system refuses to activate ``node``: a dependency that has only an inactive
    version and is not activated with it (None when nothing stands in the way)."""
    waiting = {name.upper() for name in inactive} - {name.upper() for name in activating}
    blocked = [name for name in node.depends_on if name in waiting]
    if not blocked:
        return None
    names = ", ".join(blocked)
    return (
        f"{node.type} {node.name} cannot be activated: it uses {names}, "
        f"which {'is' if len(blocked) == 1 else 'are'} not active; activate "
        f"{'it' if len(blocked) == 1 else 'them'} first or together"
    )


def order_names(groups: list[list[Node]]) -> list[str]:
    """The flat activation order (names as given)."""
    return [node.name for group in groups for node in group]


def nodes_of(sources: Mapping[tuple[str, str], m.Source]) -> list[Node]:
    """Nodes of parsed sources keyed by (name, type)."""
    return [Node(name, kind, depends_on(source)) for (name, kind), source in sources.items()]
