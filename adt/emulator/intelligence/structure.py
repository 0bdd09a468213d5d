"""Resources about how code is organised: a class's or interface's object structure, the
type hierarchy, occurrence markers, the main programs of an include and the node path of
an object in the package tree (docs/protocol/repository-structure.md)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING
from urllib.parse import unquote

from starlette.responses import Response

from adt.abap.index import ProgramIndex
from adt.abap.symbols import Occurrence

from .. import errors
from ..documents.repository import Reference, object_references
from ..documents.structure import PathStep, node_path, object_structure, type_hierarchy
from ..documents.unit import OccurrenceMarker, occurrence_markers
from ..model import CLAS, FINC, FUGR, FUNC, INCL, INTF, PROG, RepoObject, encode_name, package_uri
from ..negotiation import choose
from .fragments import locate, parse_fragment
from .handlers import CodeIntelligence
from .outline import hierarchy_of
from .outline import object_structure as structure_of
from .requests import Position, parse_uri

if TYPE_CHECKING:
    from ..calls import Call

XML_UTF8 = "application/xml; charset=utf-8"
OBJECT_STRUCTURE = "application/vnd.sap.adt.objectstructure.v2+xml"
OBJECT_STRUCTURE_V1 = "application/vnd.sap.adt.objectstructure+xml"
HIERARCHY = "application/vnd.sap.adt.typehierachy.result.v1+xml"  # sic, SAP's spelling
SOURCE_LIBRARY = "source_library"


def _respond(body: str, content_type: str) -> Response:
    from ..calls import respond

    return respond(body, content_type=content_type)


def _only(call: Call, method: str) -> None:
    if call.method != method:
        raise errors.method_not_supported(call.method)


class StructureAnswers:
    """Handlers sharing the code-intelligence repository (and its index caches)."""

    def __init__(self, intelligence: CodeIntelligence) -> None:
        self.intelligence = intelligence
        self.repo = intelligence.repo
        self.state = intelligence.state

    # object structure ------------------------------------------------------------------
    def object_structure(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "GET")
        kind = CLAS if match.group("collection").lower() == "classes" else INTF
        name = unquote(match.group("name")).upper()
        obj = self.state.objects.get(f"{kind.collection}/{encode_name(name)}")
        if obj is None:
            raise errors.not_found(kind.resource_word, name)
        chosen = choose(
            call.headers.get("accept"), [OBJECT_STRUCTURE, OBJECT_STRUCTURE_V1, "application/xml"]
        )
        if chosen is None:
            raise errors.not_acceptable([OBJECT_STRUCTURE, OBJECT_STRUCTURE_V1, "application/xml"])
        self.repo.refresh()
        root = structure_of(self.repo, obj, call.query.get("version"))
        if root is None:
            raise errors.not_found(kind.resource_word, name)
        query = str(call.query)
        base = f"{obj.uri}/objectstructure" + (f"?{query}" if query else "")
        return _respond(object_structure(base, root), f"{chosen}; charset=utf-8")

    # type hierarchy --------------------------------------------------------------------
    def type_hierarchy(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "POST")
        position = parse_uri(call.query.get("uri"))
        index, unit, _ = self.intelligence.edited(call, position)
        super_types = (call.query.get("type") or "subTypes") == "superTypes"
        origin, entries = hierarchy_of(
            self.repo, index, unit, position.line or 1, position.column, super_types
        )
        return _respond(type_hierarchy(origin, entries), f"{HIERARCHY}; charset=utf-8")

    # occurrence markers ----------------------------------------------------------------
    def occurrence_markers(self, call: Call, match: re.Match[str]) -> Response:
        """The occurrences of the symbol the ``uri`` names (a position or a
        ``#type=…;name=…`` fragment such as a test method's navigation URI)."""
        _only(call, "POST")
        value = call.query.get("uri") or ""
        position = self._marker_position(call, value)
        index, unit = self._whole_text(call, position)
        found = index.occurrence_at(unit, position.line or 1, position.column)
        markers: list[OccurrenceMarker] = []
        if found is not None:
            markers = [
                _marker(position.path, occurrence)
                for occurrence in index.occurrences()
                if occurrence.symbol.key == found.symbol.key and occurrence.unit == unit
            ]
        return _respond(occurrence_markers(markers), XML_UTF8)

    def _whole_text(self, call: Call, position: Position) -> tuple[ProgramIndex, str]:
        """The program indexed with the posted text in full: markers cover the whole source
        (an editor highlights every occurrence), not only the method at the cursor."""
        program, unit, _, text = self.intelligence.target(call, position)
        stored = next((u.text for u in program.units if u.id == unit), None)
        if text == stored:
            return self.repo.index(program), unit
        whole = program.with_text(unit, text)
        return self.repo.scratch_index(whole), unit

    def _marker_position(self, call: Call, value: str) -> Position:
        if "start=" in value or "#" not in value:
            return parse_uri(value)
        path, _, fragment = value.partition("#")
        kind, name = parse_fragment(unquote(fragment))
        self.repo.existing_unit(path)
        index, unit, _ = self.intelligence.edited(call, Position(path, None, 1, 0))
        if kind in ("CLAS/OLD", "PROG/PLM"):  # a test method: <class padded to 30><method>
            location = locate(index, unit, "CLAS/OM", name[30:].strip())
        else:
            location = locate(index, unit, kind, name)
        if location is None:
            raise errors.AdtException(
                404, "ExceptionResourceNotFound", f"Fragment {fragment} not found in {path}"
            )
        return Position(path, None, location.line, location.column)

    # main programs ---------------------------------------------------------------------
    def main_programs(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "GET")
        name = unquote(match.group("name")).upper()
        include = self.state.objects.get(f"{INCL.collection}/{encode_name(name)}")
        if include is None:
            raise errors.not_found(INCL.resource_word, name)
        self.repo.refresh()
        mains = [
            obj
            for obj in sorted(self.state.objects.values(), key=lambda o: o.name)
            if obj.kind is PROG
            and (obj.name == include.main_program or include in self.repo.includes_of(obj))
        ]
        refs = [Reference(obj.uri, obj.kind.code, obj.name, None, None) for obj in mains]
        return _respond(object_references(refs), XML_UTF8)

    # node path -------------------------------------------------------------------------
    def node_path(self, call: Call, match: re.Match[str]) -> Response:
        _only(call, "POST")
        value = call.query.get("uri")
        if not value:
            raise errors.parameter_missing("uri")
        resolved = self.state.resolve(value)
        if resolved is None:
            raise errors.not_found(None, value.split("?")[0].rstrip("/").rsplit("/", 1)[-1].upper())
        obj = resolved[0]
        steps = [PathStep(package_uri(p), "DEVC/K", p, "packages") for p in self._packages(obj)]
        if obj.kind in (FUNC, FINC) and obj.group is not None:
            group = self.state.objects.get(f"{FUGR.collection}/{encode_name(obj.group)}")
            if group is not None:
                steps.append(PathStep(group.uri, group.kind.code, group.name, SOURCE_LIBRARY))
        steps.append(PathStep(obj.uri, obj.kind.code, obj.name, SOURCE_LIBRARY))
        return _respond(node_path(steps), XML_UTF8)

    def _packages(self, obj: RepoObject) -> list[str]:
        chain: list[str] = []
        name: str | None = obj.package
        while name is not None and name not in chain:
            chain.insert(0, name)
            package = self.state.packages.get(name)
            name = package.parent if package is not None else None
        return chain


def _marker(path: str, occurrence: Occurrence) -> OccurrenceMarker:
    kind = {"declaration": "definition", "implementation": "implementation"}.get(
        occurrence.role, "write" if occurrence.write else "read"
    )
    uri = (
        f"{path}#start={occurrence.line},{occurrence.column};end={occurrence.line},{occurrence.end}"
    )
    return OccurrenceMarker(kind, occurrence.write, uri)
