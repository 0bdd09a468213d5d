"""The rename refactoring on a CDS element (an alias of a data definition): evaluate and
preview with the cursor in a DDLS, DDLX or BDEF source. The places come from the emulator's
CDS catalog (:mod:`adt.abap.cds.renaming`: the alias, ``$projection``, projections carrying
the name, metadata extensions, the behavior, ABAP statements reading those entities), as
the same ``affectedObject``/``textReplaceDelta`` answer as an ABAP rename; execute is the
ABAP rename's. Deviations: docs/emulator.md ("Rename refactoring")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt.abap.cds.renaming import (
    Place,
    RenameRefused,
    check_new_name,
    element_at,
    element_places,
)

from ..cds_language import abap_sources, catalog, is_cds, newest_text, parsed
from ..documents import refactoring as docs
from .extraction import refused

if TYPE_CHECKING:
    from ..intelligence.requests import Position
    from ..model import RepoObject
    from ..state import SystemState

Element = tuple[str, str]

__all__ = ["CdsElements"]


class CdsElements:
    """Evaluate and preview of an element rename over the catalog of one system."""

    def __init__(self, state: SystemState) -> None:
        self.state = state

    def at(self, position: Position) -> Element | None:
        """The element at the cursor of a CDS-family source; None for other sources."""
        resolved = self.state.resolve(position.path)
        if resolved is None or not is_cds(resolved[0]):
            return None
        obj = resolved[0]
        source = parsed(obj.kind.r3tr, newest_text(obj) or "")
        columns = [position.column] + ([position.end[1]] if position.end else [])
        try:
            for column in columns:
                found = element_at(source, catalog(self.state), position.line or 1, column)
                if found is not None:
                    return found
        except RenameRefused as exc:
            raise refused(str(exc)) from exc
        raise refused("Rename is not possible here: place the cursor on an element's name")

    def check(self, element: Element, new: str) -> None:
        try:
            check_new_name(catalog(self.state), element, new)
        except RenameRefused as exc:
            raise refused(str(exc)) from exc

    def affected(self, element: Element, old: str, new: str) -> list[docs.Affected]:
        """Every source with a place of the element's name, as text replacements."""
        with self.state.lock:
            objects = list(self.state.objects.values())
        by_name = {(o.name.upper(), o.kind.r3tr): o for o in objects if is_cds(o)}
        behaviors = {
            o.name: text
            for (_, kind), o in by_name.items()
            if kind == "BDEF" and (text := newest_text(o)) is not None
        }
        roles = {
            o.name: text
            for (_, kind), o in by_name.items()
            if kind == "DCLS" and (text := newest_text(o)) is not None
        }
        abap = [(obj.source_uri(part), text) for obj, part, text in abap_sources(self.state)]
        places = element_places(catalog(self.state), element, behaviors, abap, roles)
        units: dict[str, tuple[RepoObject, list[Place]]] = {}
        for place in places:
            owner = self._owner(place, by_name)
            if owner is not None:
                units.setdefault(owner[1], (owner[0], []))[1].append(place)
        affected = []
        for unit, (obj, spots) in sorted(units.items()):
            lines = (self.state.source_text(unit, "inactive") or "").split("\n")
            deltas = tuple(
                docs.Delta(p.line, p.column, p.column + p.length, said, new)
                for p in spots
                if 0 < p.line <= len(lines)
                and (said := lines[p.line - 1][p.column : p.column + p.length]).upper()
                == old.upper()
            )
            if deltas:
                affected.append(docs.Affected(unit, obj.uri, obj.name, obj.kind.code, deltas))
        return affected

    def spelled(self, element: Element) -> str:
        """The element's name as its entity writes it."""
        found = catalog(self.state).entity(element[0])
        field = found.field(element[1]) if found is not None else None
        return field.name if field is not None else element[1]

    def _owner(
        self, place: Place, by_name: dict[tuple[str, str], RepoObject]
    ) -> tuple[RepoObject, str] | None:
        if place.type == "ABAP":
            resolved = self.state.resolve(place.object)
            return (resolved[0], place.object) if resolved is not None else None
        obj = by_name.get((place.object.upper(), place.type))
        return (obj, obj.source_uri("main")) if obj is not None else None
