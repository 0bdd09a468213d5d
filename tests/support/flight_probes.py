"""Where the flight audit completes and goes to definition in each source, and what the
answers must be (tests/lsp/test_flight_audit.py).

A probe is a cursor in one source with the answer it must get: completion at a data source
after ``from``/``projection on``/``association … to``/``expose``/``annotate entity``/``grant
select on``/``behavior for``/``persistent table``/``implementation in class`` (the first
three characters typed, the name proposed), at an element of the element list (two typed),
after ``_assoc.`` and after a data source's ``alias.`` (nothing typed, the element written
there proposed), at a field of a BDEF's
``field ( … )`` list, and in ABAP at a field of a ``SELECT`` over a flight entity or table;
definition from a data source, association target, projected, annotated, protected,
exposed or behavior entity, a persistent or draft table and a behavior pool, and in ABAP
from the data source of a ``SELECT``. A definition's expected line is read from the target's
own text (its ``define``/``extend`` statement, a class's ``CLASS … DEFINITION``), not from
the parser under test. Names the scenario does not define (SAP's ``I_Currency``) are not
probed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from adt.abap.cds import model as m
from adt.abap.cds.parse import parse
from adt.abap.lexer import NAME, lex

COMPLETE, DEFINITION = "complete", "definition"
#: Roles whose name a user types after a keyword that asks for an object name.
_TYPED_ROLES = (
    m.DATA_SOURCE,
    m.ASSOCIATION_TARGET,
    m.PROJECTED,
    m.ANNOTATED,
    m.PROTECTED,
    m.EXPOSED,
    m.BEHAVIOR_ENTITY,
    m.PERSISTENT_TABLE,
    m.DRAFT_TABLE,
    m.BEHAVIOR_POOL,
)
_NAVIGATED_ROLES = _TYPED_ROLES
_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: (object name, role) → (object URL, its text) of the object a name stands for, if any.
Resolve = Callable[[str, str], "tuple[str, str] | None"]


@dataclass(frozen=True)
class Probe:
    """A cursor (1-based line, 0-based column) and the answer it must get: a proposal's
    label (``complete``) or the target's object URL and 1-based line (``definition``)."""

    what: str
    line: int
    column: int
    expected: str
    target_line: int = 0
    why: str = ""


def definition_line(text: str, name: str, is_class: bool) -> int:
    """The line of the statement that defines ``name`` in ``text`` (0: none)."""
    word = re.escape(name)
    pattern = (
        rf"^[ \t]*CLASS\s+{word}\s+DEFINITION\b"
        if is_class
        else rf"^[ \t]*(?:define|extend)\b[^\n]*?(?<![\w/]){word}(?![\w/])"
    )
    found = re.search(pattern, text, re.IGNORECASE | re.MULTILINE)
    return text.count("\n", 0, found.start()) + 1 if found else 0


def _definition(reference: m.Reference, resolve: Resolve) -> Probe | None:
    target = resolve(reference.name, reference.role)
    if target is None:
        return None
    url, text = target
    line = definition_line(text, reference.name, reference.role in m.CLASS_ROLES)
    if not line:
        return None
    return Probe(
        DEFINITION,
        reference.line,
        reference.column + 1,
        url,
        line,
        f"{reference.role} {reference.name}",
    )


def _references(source: m.Source, resolve: Resolve) -> list[Probe]:
    probes: list[Probe] = []
    seen: set[str] = set()
    for reference in source.references:
        if reference.role not in _TYPED_ROLES or reference.role in seen:
            continue
        if resolve(reference.name, reference.role) is None:
            continue
        seen.add(reference.role)
        typed = min(3, len(reference.name))
        why = f"after the keyword of a {reference.role}"
        probes.append(
            Probe(COMPLETE, reference.line, reference.column + typed, reference.name, why=why)
        )
        found = _definition(reference, resolve)
        if found is not None:
            probes.append(found)
    return probes


def _elements(definition: m.Definition) -> list[Probe]:
    probes: list[Probe] = []
    plain = next(
        (
            e
            for e in definition.elements
            if len(e.path) == 1 and not e.computed and not e.path[0].name.startswith(("_", "$"))
        ),
        None,
    )
    if plain is not None:
        step = plain.path[0]
        typed = min(2, len(step.name))
        probes.append(
            Probe(COMPLETE, step.line, step.column + typed, step.name, why="in the element list")
        )
    through = next(
        (
            e
            for e in definition.elements
            if len(e.path) >= 2 and e.path[0].name.startswith("_") and not e.computed
        ),
        None,
    )
    aliases = {source.alias.upper() for source in definition.sources if source.alias}
    aliased = next(
        (e for e in definition.elements if len(e.path) >= 2 and e.path[0].name.upper() in aliases),
        None,
    )
    for element in (through, aliased):
        if element is not None:
            step = element.path[1]
            why = f"after {element.path[0].name}."
            probes.append(Probe(COMPLETE, step.line, step.column, step.name, why=why))
    return probes


def _behavior_fields(definition: m.Definition) -> list[Probe]:
    for behavior in definition.behaviors:
        if behavior.fields and not behavior.extension:
            step = behavior.fields[0]
            typed = min(2, len(step.name))
            why = f"a field of behavior {behavior.entity}"
            return [Probe(COMPLETE, step.line, step.column + typed, step.name, why=why)]
    return []


def cds_probes(text: str, kind: str, resolve: Resolve) -> list[Probe]:
    """The probes of one CDS-family source of ADT type ``kind``."""
    source = parse(text, kind)
    probes = _references(source, resolve)
    definition = source.definition
    if definition is None:
        return probes
    if definition.sources and kind == "DDLS":
        probes += _elements(definition)
    if kind == "BDEF":
        probes += _behavior_fields(definition)
    return probes


def abap_probes(text: str, resolve: Resolve) -> list[Probe]:
    """A definition and a field completion in the first ``SELECT`` over a flight entity or
    table whose field list names a field that entity's source writes."""
    for statement in lex(text).statements:
        tokens = statement.tokens
        words = [t.upper for t in tokens]
        if "SELECT" not in words or "FROM" not in words:
            continue
        at = words.index("FROM") + 1
        if at >= len(tokens) or tokens[at].kind != NAME:
            continue
        source = tokens[at]
        target = resolve(source.text, m.DATA_SOURCE)
        if target is None:
            continue
        url, target_text = target
        line = definition_line(target_text, source.text, False)
        field = next(
            (
                t
                for t in tokens[words.index("SELECT") + 1 :]
                if t.kind == NAME
                and _PLAIN.fullmatch(t.text)
                and t.upper not in ("SINGLE", "DISTINCT", "FROM", "FIELDS")
                and re.search(rf"(?<![\w/]){t.text}\b", target_text, re.IGNORECASE)
            ),
            None,
        )
        if field is None or not line:
            continue
        why = f"SELECT from {source.text}"
        return [
            Probe(DEFINITION, source.line, source.column + 1, url, line, why),
            Probe(
                COMPLETE, field.line, field.column + min(2, len(field.text)), field.text, why=why
            ),
        ]
    return []


__all__ = ["COMPLETE", "DEFINITION", "Probe", "abap_probes", "cds_probes", "definition_line"]
