"""The emulator's CDS knowledge over its repository: the catalog of every CDS-family object
and table (the newest version of each, the way its developer sees it), data elements and
classes; the syntax check of one source; and activation's dependency rules (order, and
refusing an object that uses one that has never been activated)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from adt.abap.cds.activation import Node, activation_order, depends_on, refusal
from adt.abap.cds.catalog import Catalog, CatalogObject, DataElement
from adt.abap.cds.check import check
from adt.abap.cds.model import Source
from adt.abap.cds.parse import parse
from adt.abap.scanner import ScanIssue

from .documents.runs import CheckMessage
from .model import RepoObject, Repository

#: The ADT types whose sources :mod:`adt.abap.cds` reads.
CDS_TYPES = frozenset({"DDLS", "DDLX", "DCLS", "BDEF", "SRVD", "TABL"})
_PARSED: dict[tuple[str, str], Source] = {}
_PARSED_LIMIT = 4000
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
    classes: list[str] = []
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
            classes.append(obj.name)
    return Catalog(objects, elements, classes)


def check_source(obj: RepoObject, text: str, state: Repository) -> list[ScanIssue]:
    """The findings of the syntax check with name resolution for one source."""
    kind = obj.kind.r3tr
    found = check(parsed(kind, text), catalog(state, {obj.uri: text}))
    return [ScanIssue(d.line, d.column, d.column + d.length, d.message) for d in found]


def _node(obj: RepoObject) -> Node:
    text = newest_text(obj) if is_cds(obj) else None
    dependencies = depends_on(parsed(obj.kind.r3tr, text)) if text is not None else ()
    return Node(obj.name, obj.kind.r3tr, dependencies)


def _never_active(state: Repository) -> set[str]:
    return {
        obj.name
        for obj in list(state.objects.values())
        if obj.parts and all(unit.active is None for unit in obj.parts.values())
    }


def activation_plan(
    state: Repository, pending: Iterable[RepoObject]
) -> tuple[list[RepoObject], list[CheckMessage]]:
    """``pending`` in dependency order, and a message for each one a system refuses
    because it uses an object that was never activated and is not activated with it."""
    objects = list(pending)
    by_key = {f"{obj.kind.r3tr}:{obj.name}": obj for obj in objects}
    nodes = [_node(obj) for obj in objects]
    ordered = [by_key[node.key] for group in activation_order(nodes) for node in group]
    ordered += [obj for obj in objects if obj not in ordered]
    waiting = _never_active(state)
    activating = [obj.name for obj in objects]
    refused: list[CheckMessage] = []
    for obj, node in zip(objects, nodes, strict=True):
        reason = refusal(node, waiting, activating)
        if reason is not None:
            refused.append(
                CheckMessage(
                    uri=obj.source_uri("main"),
                    line=1,
                    column=0,
                    end_column=0,
                    text=reason,
                    obj_descr=f"{obj.kind.label} {obj.name}",
                )
            )
    return ordered, refused


def abap_sources(state: Repository) -> list[tuple[str, str, str, str]]:
    """(name, type code, source URI, text) of every ABAP source unit (where-used)."""
    found: list[tuple[str, str, str, str]] = []
    repository = list(state.objects.values())  # a copy: the state may change meanwhile
    for obj in repository:
        if is_cds(obj) or not obj.kind.source_based or obj.kind.language not in ("abap", ""):
            continue
        for part in obj.parts:
            text = newest_text(obj, part)
            if text is not None:
                found.append((obj.name, obj.kind.code, obj.source_uri(part), text))
    return found


__all__ = [
    "CDS_TYPES",
    "abap_sources",
    "activation_plan",
    "catalog",
    "check_source",
    "is_cds",
    "parsed",
]
