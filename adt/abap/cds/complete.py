"""Completion inside CDS-family sources: entity and table names where a data source is
expected (``from``, ``join``, ``association … to``, ``projection on``, ``expose``, ``behavior
for``, ``persistent table``, ``extension using interface``, an action's ``parameter`` …),
classes after ``implementation in class``, elements and associations after
``alias.``/``_assoc.`` (a filtered step too) and at the start of an element, annotation
names after ``@``, session variables and parameters."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from adt.abap.cds.annotations import KNOWN_ANNOTATIONS
from adt.abap.cds.catalog import ASSOCIATION, Catalog, Entity, Scope
from adt.abap.cds.model import Definition, PathStep
from adt.abap.cds.parse import parse
from adt.abap.cds.standard import SESSION_VARIABLES
from adt.abap.cds.tokens import COMMENT, STRING, scan, tokenize

ENTITY, FIELD, ASSOC, ANNOTATION, VARIABLE, CLASS = (
    "entity",
    "field",
    "association",
    "annotation",
    "variable",
    "class",
)
_PREFIX = re.compile(r"[A-Za-z0-9_/$]*$")
_ANNOTATION = re.compile(r"@<?([A-Za-z0-9_.]*)$")
_PATH = re.compile(r"([A-Za-z0-9_/$]+(?:\.[A-Za-z0-9_/$]+)*)\.$")
_FILTER = re.compile(r"\s*\[[^\[\]]*\]")  # a path step's filter: ``_Text[ 1: Lang = 'E' ]``
_SOURCE_LEADS = {
    "from",
    "join",
    "to",
    "of",
    "on",
    "expose",
    "for",
    "entity",
    "table",
    "view",
    "interface",
    "parameter",
    "parent",
    "one",  # the cardinality in words: ``association of many to one X``, ``to many X``
    "many",
    "source",  # ``parent child hierarchy( source X``
}
_ELEMENT_LEADS = {"{", ",", "key", "virtual"}


@dataclass(frozen=True)
class Item:
    """A proposal: the text to insert, what it is, a short detail."""

    label: str
    kind: str
    detail: str = ""


def _members(entity: Entity | None) -> list[Item]:
    if entity is None:
        return []
    items = [Item(f.name, FIELD, f.type) for f in entity.fields.values()]
    items += [Item(name, ASSOC, target) for name, target in _association_names(entity)]
    return items


def _association_names(entity: Entity) -> list[tuple[str, str]]:
    names: list[tuple[str, str]] = []
    definition = entity.definition
    written = {}
    if definition is not None:
        written = {a.name.upper(): a.name for a in definition.associations}
        written.update({e.name.upper(): e.name for e in definition.elements})
    for key, target in entity.associations.items():
        names.append((written.get(key, key), target))
    return names


def _path_items(scope: Scope, path: list[str]) -> list[Item]:
    head = path[0].upper()
    if head == "$SESSION":
        return [Item(v, VARIABLE) for v in SESSION_VARIABLES]
    if head == "$PARAMETERS":
        return [Item(p.name, VARIABLE, p.type) for p in scope.definition.parameters]
    if head == "$PROJECTION":
        return [Item(e.name, FIELD, e.type) for e in scope.definition.elements]
    steps = [PathStep(name, 0, 0) for name in path]
    resolution = scope.resolve(steps)
    if resolution.status == ASSOCIATION:
        return _members(scope.catalog.entity(resolution.target))
    if len(path) == 1 and head in scope.aliases:
        return _members(scope.aliases[head])
    return []


def _element_items(scope: Scope) -> list[Item]:
    items: list[Item] = []
    for entity in scope.sources:
        items.extend(_members(entity))
    items += [Item(a.name, ASSOC, a.target) for a in scope.definition.associations]
    return items


def _scope(catalog: Catalog, definition: Definition | None) -> Scope | None:
    if definition is None or not definition.sources:
        return None
    return Scope(catalog, definition)


def _behavior_items(catalog: Catalog, definition: Definition | None, line: int) -> list[Item]:
    if definition is None:
        return []
    for behavior in definition.behaviors:
        if behavior.line <= line <= (behavior.end[0] or line):
            return _members(catalog.entity(behavior.entity))
    return []


def _filtered(items: Iterable[Item], prefix: str) -> list[Item]:
    lowered = prefix.lower()
    seen: set[str] = set()
    found: list[Item] = []
    for item in items:
        if item.label.lower().startswith(lowered) and item.label.upper() not in seen:
            seen.add(item.label.upper())
            found.append(item)
    return sorted(found, key=lambda i: (i.kind != FIELD, i.label.upper()))


def _in_comment_or_string(upto: str, line: int, column: int) -> bool:
    """Whether the cursor at the end of ``upto`` stands in a comment or an open string
    (the family's lexer decides, as for every other reading)."""
    last = None
    for token in scan(upto):
        last = token
    if last is None or last.line != line or last.end != column:
        return False
    if last.kind == COMMENT:
        return True
    return last.kind == STRING and (len(last.text) == 1 or not last.text.endswith("'"))


def complete(
    text: str, kind: str, line: int, column: int, catalog: Catalog, annotations: Iterable[str] = ()
) -> list[Item]:
    """Proposals at (1-based line, 0-based column) of ``text`` written in ``kind``."""
    lines = text.replace("\r\n", "\n").split("\n")
    current = lines[line - 1][:column] if 0 < line <= len(lines) else ""
    if _in_comment_or_string("\n".join([*lines[: line - 1], current]), line, column):
        return []
    prefix = _PREFIX.search(current)
    typed = prefix.group() if prefix else ""
    annotation = _ANNOTATION.search(current)
    if annotation is not None:
        names = list(KNOWN_ANNOTATIONS) + list(annotations)
        return _filtered((Item(n, ANNOTATION) for n in names), annotation.group(1))
    before = "\n".join([*lines[: line - 1], current[: len(current) - len(typed)]])
    source = parse(text, kind)
    definition = source.definition
    path = _PATH.search(_FILTER.sub("", before))
    if path is not None:
        scope = _scope(catalog, definition)
        return _filtered(_path_items(scope, path.group(1).split(".")), typed) if scope else []
    tokens = tokenize(before)
    last = tokens[-1].text.lower() if tokens else ""
    if last == "class":
        return _filtered((Item(n, CLASS) for n in sorted(catalog.classes)), typed)
    if last in _SOURCE_LEADS:
        return _filtered((Item(n, ENTITY) for n in catalog.names()), typed)
    if kind.upper() in ("BDEF", "ABAP-BDEF"):
        return _filtered(_behavior_items(catalog, definition, line), typed)
    scope = _scope(catalog, definition)
    if scope is not None and (last in _ELEMENT_LEADS or (tokens and tokens[-1].kind == "string")):
        return _filtered(_element_items(scope), typed)
    return []
