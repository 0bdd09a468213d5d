"""Outline and folding of CDS-family sources: the definition with its parameters,
associations and elements; a BDEF's entities with their operations, actions,
determinations and validations; a service's exposures. Symbols are those of
:mod:`adt.abap.outline`, so the faces render both the same way."""

from __future__ import annotations

from adt.abap.cds.model import Behavior, Definition, Source
from adt.abap.cds.tokens import tokenize
from adt.abap.outline import Symbol


def _leaf(name: str, kind: str, line: int, column: int, detail: str = "") -> Symbol:
    return Symbol(name, kind, detail, (line, column), (line, column + len(name)))


def _behavior(behavior: Behavior) -> Symbol:
    symbol = Symbol(
        behavior.entity,
        "behavior",
        behavior.alias,
        (behavior.line, behavior.column),
        behavior.end if behavior.end != (0, 0) else (behavior.line, behavior.column),
    )
    symbol.children = [_leaf(i.name, i.kind, i.line, i.column, i.detail) for i in behavior.items]
    return symbol


def _children(definition: Definition) -> list[Symbol]:
    children = [_leaf(p.name, "parameter", p.line, p.column, p.type) for p in definition.parameters]
    children += [
        _leaf(
            a.name,
            "association",
            a.line,
            a.column,
            f"{a.kind} {a.cardinality} {a.target}".replace("  ", " "),
        )
        for a in definition.associations
    ]
    declared = {a.name.upper() for a in definition.associations}
    for element in definition.elements:
        if element.name.upper() in declared and element.association:
            continue
        kind = "association" if element.association or element.name.startswith("_") else "field"
        detail = ("key " if element.key else "") + (element.type or element.redirected_to)
        children.append(_leaf(element.name, kind, element.line, element.column, detail.strip()))
    children += [
        _leaf(e.alias, "exposure", e.line, e.column, e.entity) for e in definition.exposures
    ]
    children += [
        _leaf(s.name, "source", s.line, s.column, s.alias)
        for s in definition.sources
        if definition.kind == "role"
    ]
    return children


def outline(source: Source) -> list[Symbol]:
    """The symbol tree of a parsed source (empty when nothing was recognised)."""
    definition = source.definition
    if definition is None:
        return []
    if definition.kind == "behavior":
        return [_behavior(b) for b in definition.behaviors]
    end = definition.end if definition.end != (0, 0) else (definition.line, definition.column)
    root = Symbol(
        definition.name, "entity", definition.kind, (definition.line, definition.column), end
    )
    root.children = _children(definition)
    return [root]


def folds(text: str) -> list[tuple[int, int]]:
    """(first line, last line), 1-based, of every brace or bracket block spanning lines."""
    found: list[tuple[int, int]] = []
    stack: list[int] = []
    for token in tokenize(text):
        if token.kind != "op":
            continue
        if token.text in "{[(":
            stack.append(token.line)
        elif token.text in "}])" and stack:
            start = stack.pop()
            if token.line > start:
                found.append((start, token.line))
    return sorted(found)
