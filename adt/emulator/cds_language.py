"""The emulator's CDS knowledge over its repository: the catalog of every CDS-family object
and table (the newest version of each, the way its developer sees it), data elements,
classes and the handler methods of a behavior pool (read when the check asks); the syntax
check of one source; and what a source builds on, for activation's order and refusals
(``adt.emulator.activation``)."""

from __future__ import annotations

import re

from adt.abap.cds.activation import depends_on
from adt.abap.cds.catalog import Catalog, CatalogObject, DataElement
from adt.abap.cds.check import check
from adt.abap.cds.model import Source
from adt.abap.cds.parse import parse
from adt.abap.cds.pool import handled
from adt.abap.scanner import ScanIssue

from .model import RepoObject, Repository

#: The ADT types whose sources :mod:`adt.abap.cds` reads.
CDS_TYPES = frozenset({"DDLS", "DDLX", "DCLS", "BDEF", "SRVD", "TABL"})
_PARSED: dict[tuple[str, str], Source] = {}
_PARSED_LIMIT = 4000
_SEVERITIES = {"error": "E", "warning": "W"}
_DTEL_FIELD = re.compile(r"<dtel:(typeName|dataType|dataTypeLength|mediumFieldLabel)>([^<]*)<")


def is_cds(obj: RepoObject) -> bool:
    return obj.kind.r3tr in CDS_TYPES


def parsed(kind: str, text: str) -> Source:
    """The parse of a text, cached by content (the same text parses the same)."""
    key = (kind, text)
    found = _PARSED.get(key)
    if found is None:
        if len(_PARSED) >= _PARSED_LIMIT:
            _PARSED.clear()
        found = _PARSED[key] = parse(text, kind)
    return found


def newest_text(obj: RepoObject, part: str = "main") -> str | None:
    unit = obj.parts.get(part)
    picked = unit.pick("inactive") if unit is not None else None
    return picked[0].text if picked else None


def _data_element(obj: RepoObject) -> DataElement | None:
    text = newest_text(obj)
    if text is None:
        return None
    values = dict(_DTEL_FIELD.findall(text))
    typed = values.get("typeName") or values.get("dataType", "")
    if not values.get("typeName") and values.get("dataTypeLength", "").strip("0"):
        typed += f"({int(values['dataTypeLength'])})"
    return DataElement(obj.name, typed, values.get("mediumFieldLabel", ""))


def catalog(state: Repository, overrides: dict[str, str] | None = None) -> Catalog:
    """Every CDS-family object and table of ``state`` (``overrides``: object URI → text
    to use instead of the stored one, an editor's unsaved buffer)."""
    overrides = overrides or {}
    objects: list[CatalogObject] = []
    elements: list[DataElement] = []
    classes: dict[str, RepoObject] = {}
    repository = list(state.objects.values())  # a copy: the state may change meanwhile
    for obj in repository:
        r3tr = obj.kind.r3tr
        if r3tr in CDS_TYPES:
            text = overrides.get(obj.uri, newest_text(obj))
            if text is not None:
                objects.append(CatalogObject(obj.name, r3tr, parsed(r3tr, text)))
        elif r3tr == "DTEL":
            element = _data_element(obj)
            if element is not None:
                elements.append(element)
        elif r3tr == "CLAS":
            classes[obj.name.upper()] = obj

    def handlers(name: str) -> set[str] | None:
        pool = classes.get(name)
        if pool is None:
            return None
        return handled(t for part in pool.parts if (t := newest_text(pool, part)) is not None)

    return Catalog(objects, elements, classes, handlers)


def check_source(obj: RepoObject, text: str, state: Repository) -> list[ScanIssue]:
    """The findings of the syntax check with name resolution for one source."""
    kind = obj.kind.r3tr
    found = check(parsed(kind, text), catalog(state, {obj.uri: text}))
    return [
        ScanIssue(d.line, d.column, d.column + d.length, d.message, _SEVERITIES[d.severity])
        for d in found
    ]


def dependencies(obj: RepoObject, text: str) -> list[tuple[str, int, int]] | None:
    """(NAME, line, column) of each object ``text`` builds on, once, in text order (the
    roles of :data:`adt.abap.cds.activation.DEPENDENCY_ROLES`); None when nothing parses."""
    source = parsed(obj.kind.r3tr, text)
    if source.definition is None:
        return None
    wanted = set(depends_on(source))
    found: dict[str, tuple[str, int, int]] = {}
    for reference in source.references:
        if reference.key in wanted and reference.key not in found:
            found[reference.key] = (reference.key, reference.line, reference.column)
    return list(found.values())


def abap_sources(state: Repository) -> list[tuple[RepoObject, str, str]]:
    """(object, part, text) of every ABAP source unit (where-used)."""
    found: list[tuple[RepoObject, str, str]] = []
    repository = list(state.objects.values())  # a copy: the state may change meanwhile
    for obj in repository:
        if is_cds(obj) or not obj.kind.source_based or obj.kind.language not in ("abap", ""):
            continue
        for part in obj.parts:
            text = newest_text(obj, part)
            if text is not None:
                found.append((obj, part, text))
    return found


__all__ = [
    "CDS_TYPES",
    "abap_sources",
    "catalog",
    "check_source",
    "dependencies",
    "is_cds",
    "parsed",
]
