"""Object sets of ABAP Unit and ATC runs: object references and packages to repository objects.

A reference is an object URI (a fragment or a ``/source/main`` / ``/includes/…`` tail is
ignored) or a package URI (``/sap/bc/adt/packages/%24zdemo``), which stands for the objects
of the package and of its sub-packages. Function modules and function-group includes count
as their function group, the unit that ABAP Unit and ATC work on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import unquote

from . import errors
from .kinds import REGISTRY
from .model import ADT, CLAS, FINC, FUGR, FUNC, INCL, INTF, PROG, Kind, RepoObject, encode_name
from .state import SystemState

_ORDER = {CLAS: 0, INTF: 1, PROG: 2, INCL: 3, FUGR: 4}


@dataclass
class ObjectSet:
    """The objects a run covers (each once, in reference order) and the references that
    named nothing."""

    objects: list[RepoObject] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def add(self, found: Iterable[RepoObject]) -> None:
        known = {o.uri for o in self.objects}
        for obj in found:
            if obj.uri not in known:
                self.objects.append(obj)
                known.add(obj.uri)


def package_of_uri(uri: str) -> str | None:
    """The package a ``/sap/bc/adt/packages/<name>`` URI names, upper case."""
    path = uri.split("#", 1)[0].split("?", 1)[0].rstrip("/")
    prefix = f"{ADT}/packages/"
    if not path.lower().startswith(prefix) or "/" in path[len(prefix) :]:
        return None
    return unquote(path[len(prefix) :]).upper() or None


def container(state: SystemState, obj: RepoObject) -> RepoObject | None:
    """The object ABAP Unit and ATC work on: a module or group include means its group."""
    if obj.kind in (FUNC, FINC):
        return state.group_of(obj)
    return obj


def group_members(state: SystemState, group: RepoObject) -> list[RepoObject]:
    """The includes, then the function modules, of a function group (by name)."""
    with state.lock:
        members = [
            o
            for o in state.objects.values()
            if o.kind in (FINC, FUNC) and o.group == group.name and o.package == group.package
        ]
    return sorted(members, key=lambda o: (o.kind is FUNC, o.name))


def package_objects(state: SystemState, package: str) -> list[RepoObject]:
    """Objects of ``package`` and its sub-packages, grouped by type, then by name."""
    with state.lock:
        names = {package}
        grown = True
        while grown:
            children = {p.name for p in state.packages.values() if p.parent in names}
            grown = not children <= names
            names |= children
        chosen = [o for o in state.objects.values() if o.package in names and o.kind in _ORDER]
    return sorted(chosen, key=lambda o: (_ORDER[o.kind], o.name))


def resolve(state: SystemState, uris: Iterable[str]) -> ObjectSet:
    """Expand references in order; unknown objects and packages go to ``missing``."""
    result = ObjectSet()
    for uri in uris:
        package = package_of_uri(uri)
        if package is not None:
            if package in state.packages:
                result.add(package_objects(state, package))
            else:
                result.missing.append(uri)
            continue
        found = state.find(uri)
        unit = container(state, found) if found is not None else None
        if unit is None:
            result.missing.append(uri)
        else:
            result.add([unit])
    return result


def _kind_of(path: str) -> Kind | None:
    lowered = path.lower()
    if "/fmodules/" in lowered:
        return FUNC
    if lowered.startswith(FUGR.collection + "/") and "/includes/" in lowered:
        return FINC
    if not lowered.startswith(ADT + "/"):
        return None
    return REGISTRY.kind_for_path(lowered[len(ADT) + 1 :])


def not_found(uri: str) -> errors.AdtException:
    """The 404 an unknown reference gets (the same texts as reading the object)."""
    path = uri.split("#", 1)[0].split("?", 1)[0].rstrip("/")
    package = package_of_uri(path)
    if package is not None:
        return errors.package_not_found(package)
    kind = _kind_of(path)
    name = unquote(path.rsplit("/", 1)[-1]).upper()
    if kind is FUNC or kind is FINC:
        name = unquote(path.split("/fmodules/" if kind is FUNC else "/includes/")[1]).upper()
        name = name.split("/", 1)[0]
    if kind is None:
        return errors.no_suitable_resource()
    return errors.not_found(kind.resource_word, name)


def object_uri(kind: Kind, name: str) -> str:
    return f"{kind.collection}/{encode_name(name)}"


__all__ = [
    "ObjectSet",
    "container",
    "group_members",
    "not_found",
    "object_uri",
    "package_objects",
    "package_of_uri",
    "resolve",
]
