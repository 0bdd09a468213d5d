"""Code intelligence for CDS-family objects at the resources ABAP uses (completion, element
info, navigation, where-used), answered by :mod:`adt.abap.cds` over the repository's
catalog; and the ABAP side of it: from ``SELECT … FROM /dmo/i_travel_m`` to the data
definition, and the ABAP uses of an entity in its where-used list."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt.abap.cds.abap_sql import select_fields
from adt.abap.cds.complete import ANNOTATION, ASSOC, ENTITY, complete
from adt.abap.cds.info import Info, element_info
from adt.abap.cds.navigate import Location, abap_data_source_at, definition_at

from ..cds_language import catalog, is_cds, parsed
from ..documents import intelligence as docs
from ..model import RepoObject
from .cds_usages import PREFIX, CdsUsages

if TYPE_CHECKING:
    from ..state import SystemState

#: SCC_COMPLETION ``KIND`` per proposal kind (ABAP's values: 2 data, 52 keyword-like).
_KINDS = {ENTITY: 2, ASSOC: 2, ANNOTATION: 52}
#: Lines around the cursor a SELECT is looked for in.
_BEFORE, _AFTER = 60, 30


class CdsIntelligence:
    """The answers for one emulated system's CDS-family sources."""

    def __init__(self, state: SystemState) -> None:
        self.state = state
        self.where = CdsUsages(state)

    @staticmethod
    def serves(obj: RepoObject) -> bool:
        return is_cds(obj)

    def completion(self, obj: RepoObject, text: str, line: int, column: int) -> str:
        items = complete(text, obj.kind.r3tr, line, column, catalog(self.state, {obj.uri: text}))
        typed = len(_typed_prefix(text, line, column))
        records = [
            docs.CompletionRecord(
                item.label, {"KIND": _KINDS.get(item.kind, 2), "PREFIXLENGTH": typed, "LOCATION": 0}
            )
            for item in items
        ]
        return docs.completion_document(records)

    def select_fields(self, lines: list[str], line: int, column: int) -> list[str]:
        """The fields of the CDS entities and tables an ABAP ``SELECT`` at the cursor reads
        (:mod:`adt.abap.cds.abap_sql`); empty elsewhere. Only the lines around the cursor
        are lexed (a statement ends within them), and the catalog is built only inside a
        ``SELECT``, so completion in a long class costs what it did."""
        start = max(0, line - 1 - _BEFORE)
        window = "\n".join(lines[start : line + _AFTER])
        if "SELECT" not in window.upper():
            return []
        found = select_fields(window, line, column, lambda: catalog(self.state), start + 1)
        return found or []

    def element_info(self, obj: RepoObject, text: str, line: int, column: int) -> docs.ElementInfo:
        cat = catalog(self.state, {obj.uri: text})
        info = element_info(parsed(obj.kind.r3tr, text), cat, line, column)
        return _element(info) if info is not None else docs.ElementInfo()

    def definition(self, obj: RepoObject, text: str, line: int, column: int) -> str | None:
        """``uri#start=line,column`` of the definition under the cursor, or None."""
        cat = catalog(self.state, {obj.uri: text})
        return self._uri(definition_at(parsed(obj.kind.r3tr, text), cat, line, column))

    def abap_definition(self, text: str, line: int, column: int) -> str | None:
        """From an ABAP data source (``FROM``/``JOIN``/``ENTITIES OF``) to its definition."""
        name = abap_data_source_at(text, line, column)
        if name is None:
            return None
        target = catalog(self.state).named(name)
        if target is None:
            return None
        definition = target.source.definition
        line_column = (definition.line, definition.column) if definition else (1, 0)
        return self._uri(Location(target.name, target.type, *line_column))

    def _uri(self, location: Location | None) -> str | None:
        if location is None:
            return None
        obj = self._object(location.object_name, location.object_type)
        if obj is None:
            return None
        return f"{obj.source_uri('main')}#start={location.line},{location.column}"

    def _object(self, name: str, r3tr: str) -> RepoObject | None:
        with self.state.lock:
            for obj in self.state.objects.values():
                if obj.name == name.upper() and obj.kind.r3tr == r3tr:
                    return obj
        return None

    def usages(self, obj: RepoObject) -> tuple[int, list[docs.UsageRow]]:
        """The objects that use the entity or table ``obj`` defines, with package rows."""
        return self.where.rows(obj)

    def snippets(self, identifier: str) -> list[docs.CodeSnippet] | None:
        """The lines behind an identifier of :meth:`usages`; None when it is not one."""
        if not identifier.startswith(PREFIX):
            return None
        return self.where.snippets(identifier)


def _typed_prefix(text: str, line: int, column: int) -> str:
    lines = text.replace("\r\n", "\n").split("\n")
    current = lines[line - 1][:column] if 0 < line <= len(lines) else ""
    stripped = current.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_/$")
    return current[len(stripped) :]


def _element(info: Info) -> docs.ElementInfo:
    properties = [("kind", info.kind)]
    if info.type:
        properties.append(("type", info.type))
    if info.owner:
        properties.append(("entity", info.owner))
    if info.keys:
        properties.append(("keys", ", ".join(info.keys)))
    documentation = (("shorttext", "text/plain", info.label),) if info.label else ()
    return docs.ElementInfo(None, info.name, tuple(properties), documentation)


__all__ = ["CdsIntelligence"]
