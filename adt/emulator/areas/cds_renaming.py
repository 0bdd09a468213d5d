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
    abap_element_at,
    check_new_name,
    element_at,
    element_places,
)
from adt.abap.cds.service_renaming import (
    ServiceAlias,
    alias_at,
    alias_places,
    check_alias_name,
)

from ..cds_language import catalog, is_cds, newest_text, parsed
from ..documents import refactoring as docs
from .extraction import refused

if TYPE_CHECKING:
    from adt.abap.index import ProgramIndex

    from ..intelligence.repository import Repository
    from ..intelligence.requests import Position
    from ..model import RepoObject
    from ..state import SystemState

Element = tuple[str, str]
#: What a CDS rename renames: an element (ENTITY, ELEMENT) or a service's alias.
Target = Element | ServiceAlias

__all__ = ["CdsElements", "Target"]


class CdsElements:
    """Evaluate and preview of an element rename over the catalog of one system."""

    def __init__(self, state: SystemState, repo: Repository) -> None:
        self.state = state
        self.repo = repo

    def at(self, position: Position) -> Target | None:
        """The element (or a service's alias) at the cursor of a CDS-family source, or the
        element an ABAP cursor names (``SELECT travelid FROM zi_travel``, ``ls-travelid``
        of data typed by an entity); None for other places."""
        resolved = self.state.resolve(position.path)
        if resolved is None:
            return None
        obj = resolved[0]
        columns = [position.column] + ([position.end[1]] if position.end else [])
        try:
            if not is_cds(obj):
                return self._in_abap(position.path, position.line or 1, columns)
            text = newest_text(obj) or ""
            for column in columns:
                found = self._found(obj.kind.r3tr, text, position.line or 1, column)
                if found is not None:
                    return found
        except RenameRefused as exc:
            raise refused(str(exc)) from exc
        what = "an alias" if obj.kind.r3tr == "SRVD" else "an element's name"
        raise refused(f"Rename is not possible here: place the cursor on {what}")

    def _in_abap(self, path: str, line: int, columns: list[int]) -> Element | None:
        self.repo.refresh()
        owner = self.repo.unit_owner(path)
        if owner is None or owner[1] not in owner[0].parts:
            return None
        obj, part = owner
        index = self.repo.index(self.repo.program(obj))
        cds = catalog(self.state)
        for column in columns:
            found = abap_element_at(index, obj.source_uri(part), line, column, cds)
            if found is not None:
                return found
        return None

    def _programs(self, name: str, entities: set[str]) -> list[ProgramIndex]:
        """The indexes of the ABAP programs whose text has ``name`` and one of
        ``entities`` (a word search first: only those are indexed)."""
        self.repo.refresh()
        wanted, named = name.lower(), [e.lower() for e in entities]
        found = []
        for program in self.repo.programs():
            if not _abap(program.root):
                continue
            text = "\n".join(unit.text for unit in program.units).lower()
            if wanted in text and any(entity in text for entity in named):
                found.append(self.repo.index(program))
        return found

    def _found(self, kind: str, text: str, line: int, column: int) -> Target | None:
        if kind == "SRVD":
            return alias_at(text, line, column)
        return element_at(parsed(kind, text), catalog(self.state), line, column)

    @staticmethod
    def name_of(target: Target) -> str:
        """The renamed name, upper case."""
        return target.name if isinstance(target, ServiceAlias) else target[1]

    def check(self, target: Target, new: str) -> None:
        try:
            if isinstance(target, ServiceAlias):
                check_alias_name(self._texts("SRVD"), target, new)
            else:
                check_new_name(catalog(self.state), target, new)
        except RenameRefused as exc:
            raise refused(str(exc)) from exc

    def _texts(self, kind: str) -> dict[str, str]:
        """Object name → newest text of every source of one CDS type."""
        with self.state.lock:
            objects = list(self.state.objects.values())
        return {
            o.name: text
            for o in objects
            if o.kind.r3tr == kind and (text := newest_text(o)) is not None
        }

    def affected(self, target: Target, old: str, new: str) -> list[docs.Affected]:
        """Every source with a place of the name, as text replacements."""
        with self.state.lock:
            objects = list(self.state.objects.values())
        by_name = {(o.name.upper(), o.kind.r3tr): o for o in objects if is_cds(o)}
        if isinstance(target, ServiceAlias):
            return self._replacements(alias_places(self._texts("SRVD"), target), by_name, old, new)
        element = target
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
        places = element_places(
            catalog(self.state),
            element,
            behaviors,
            (),
            roles,
            lambda entities: self._programs(element[1], entities),
        )
        return self._replacements(places, by_name, old, new)

    def _replacements(
        self,
        places: list[Place],
        by_name: dict[tuple[str, str], RepoObject],
        old: str,
        new: str,
    ) -> list[docs.Affected]:
        """The places grouped by source, each still reading ``old`` there."""
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

    def spelled(self, target: Target) -> str:
        """The name as its entity (or service) writes it."""
        if isinstance(target, ServiceAlias):
            texts = self._texts("SRVD")
            for place in alias_places(texts, target):
                line = texts[place.object].split("\n")[place.line - 1]
                return line[place.column : place.column + place.length]
            return target.name
        element = target
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


def _abap(obj: RepoObject) -> bool:
    return not is_cds(obj) and obj.kind.source_based and obj.kind.language in ("abap", "")
