"""The parser of CDS data definitions, metadata extensions, access controls, service
definitions and table/structure sources: one entry per top-level form, found in tables
(``define view entity``, ``extend view entity``, ``annotate entity``, ``define role``, …)."""

from __future__ import annotations

from collections.abc import Callable

from adt.abap.cds import model as m
from adt.abap.cds.cursor import Cursor
from adt.abap.cds.elements import (
    ASSOCIATION_STOPS,
    association_clause,
    typed_fields,
    view_elements,
)
from adt.abap.cds.model import DataSource, Definition, Parameter
from adt.abap.cds.tokens import tokenize

_JOIN_WORDS = ("inner", "left", "right", "cross", "outer", "many", "one", "exact", "to")
_SELECT_TAIL = ("union", "except", "intersect")

Form = Callable[[Cursor, Definition], None]


def _name(cur: Cursor, what: str, role: str = "") -> tuple[str, int, int]:
    token = cur.name(role)
    if token is None:
        cur.error(f"name of the {what} expected")
        return "", cur.token.line, cur.token.column
    return token.text, token.line, token.column


def _parameters(cur: Cursor, definition: Definition) -> None:
    if not cur.accept_all("with", "parameters"):
        return
    while not cur.done:
        cur.annotations()
        token = cur.name()
        if token is None:
            break
        parameter_type = ""
        if cur.accept(":"):
            first = cur.token
            parameter_type = "".join(t.text for t in cur.skip_until(",", "as", "returns", "{"))
            if parameter_type and not parameter_type.lower().startswith("abap."):
                cur.references.append(m.Reference(parameter_type, m.TYPE, first.line, first.column))
        cur.annotations()
        definition.parameters.append(
            Parameter(token.text, parameter_type, token.line, token.column)
        )
        if not cur.accept(","):
            break


def _data_source(cur: Cursor, definition: Definition, role: str) -> None:
    token = cur.name(role)
    if token is None:
        cur.error("name of a data source expected")
        return
    if cur.at("("):
        cur.skip_group()
    alias = cur.accept("as") and cur.name()
    definition.sources.append(
        DataSource(token.text, alias.text if alias else "", token.line, token.column)
    )


def _links(cur: Cursor, definition: Definition) -> None:
    """Joins and association/composition clauses between the data source and ``{``."""
    while not cur.done and not cur.at("{"):
        if cur.accept("association", "composition"):
            kind = cur.tokens[cur.index - 1].text.lower()
            definition.associations.append(association_clause(cur, kind))
        elif cur.at(*_JOIN_WORDS, "join"):
            while cur.accept(*_JOIN_WORDS):
                pass
            cur.expect("join")
            _data_source(cur, definition, m.DATA_SOURCE)
            if cur.accept("on"):
                cur.skip_until(*ASSOCIATION_STOPS, "on")
        else:
            cur.error(f"unexpected '{cur.token.text}' before the element list")
            cur.skip_until(*ASSOCIATION_STOPS)


def _elements(cur: Cursor, definition: Definition) -> None:
    if not cur.at("{"):
        cur.error("'{' expected (the element list)")
        return
    start = cur.token
    definition.elements.extend(view_elements(cur))
    close = cur.tokens[cur.index - 1]
    definition.element_block = (start.line, start.column, close.line, close.column)


def _select_tail(cur: Cursor, definition: Definition) -> None:
    """``where``/``group by``/``having`` and further ``union`` branches."""
    while not cur.done:
        cur.skip_until(*_SELECT_TAIL)
        if cur.done:
            return
        cur.advance()
        cur.accept("all")
        if cur.accept("select"):
            branch = Definition("union branch", "", 0, 0)
            cur.accept("distinct")
            cur.expect("from")
            _data_source(cur, branch, m.DATA_SOURCE)
            _links(cur, branch)
            if cur.at("{"):
                view_elements(cur)


def _view_body(cur: Cursor, definition: Definition) -> None:
    """What follows the name of a view: parameters, contract, source, links, elements."""
    _parameters(cur, definition)
    if cur.accept_all("provider", "contract"):
        cur.name()
    if not cur.expect("as"):
        return
    if cur.accept_all("projection", "on"):
        definition.kind = "projection"
        _data_source(cur, definition, m.PROJECTED)
    elif cur.accept_all("parent", "child", "hierarchy"):
        _hierarchy(cur, definition)
    elif cur.accept("select"):
        cur.accept("distinct")
        cur.expect("from")
        _data_source(cur, definition, m.DATA_SOURCE)
    else:
        cur.error("'select from' or 'projection on' expected")
        return
    _links(cur, definition)
    _elements(cur, definition)
    _select_tail(cur, definition)


def _hierarchy(cur: Cursor, definition: Definition) -> None:
    if not cur.at("("):
        cur.error("'(' expected")
        return
    start = cur.index
    cur.skip_group()
    inner = cur.tokens[start : cur.index]
    for i, token in enumerate(inner[:-1]):
        if token.is_word("source"):
            source = inner[i + 1]
            cur.references.append(
                m.Reference(source.text, m.DATA_SOURCE, source.line, source.column)
            )
            definition.sources.append(DataSource(source.text, "", source.line, source.column))
            break


def _typed_body(cur: Cursor, definition: Definition) -> None:
    _parameters(cur, definition)
    typed_fields(cur, definition)


def _table_function(cur: Cursor, definition: Definition) -> None:
    _parameters(cur, definition)
    cur.expect("returns")
    typed_fields(cur, definition)
    if cur.accept_all("implemented", "by", "method"):
        token = cur.name(m.IMPLEMENTATION)
        definition.implementation = token.text if token else ""
        if cur.accept("=>"):
            cur.name()  # the AMDP method
    cur.accept(";")


def _role(cur: Cursor, definition: Definition) -> None:
    cur.expect("{")
    while not cur.done and not cur.accept("}"):
        if cur.accept_all("grant", "select", "on"):
            token = cur.name(m.PROTECTED)
            if token is not None:
                definition.sources.append(DataSource(token.text, "", token.line, token.column))
            while not cur.done and not cur.at(";", "}"):
                if cur.accept_all("inheriting", "conditions", "from", "entity"):
                    cur.name(m.INHERITED)
                else:
                    cur.skip_until(";", "}", "inheriting")
        else:
            cur.skip_until(";", "}")
        cur.accept(";")


def _service(cur: Cursor, definition: Definition) -> None:
    while not cur.done and not cur.at("{"):
        cur.advance()  # `with` / provider contracts
    cur.expect("{")
    while not cur.done and not cur.accept("}"):
        cur.annotations()
        if cur.accept("expose"):
            token = cur.name(m.EXPOSED)
            alias = cur.accept("as") and cur.name()
            if token is not None:
                definition.exposures.append(
                    m.Exposure(
                        token.text, alias.text if alias else token.text, token.line, token.column
                    )
                )
        cur.skip_until(";", "}")
        cur.accept(";")


# (words after `define`, kind, body parser)
_DEFINE: list[tuple[tuple[str, ...], str, Form]] = [
    (("view", "entity"), "view entity", _view_body),
    (("transient", "view", "entity"), "view entity", _view_body),
    (("view",), "view", _view_body),
    (("abstract", "entity"), "abstract entity", _typed_body),
    (("custom", "entity"), "custom entity", _typed_body),
    (("table", "function"), "table function", _table_function),
    (("hierarchy",), "hierarchy", _view_body),
    (("table",), "table", _typed_body),
    (("structure",), "structure", _typed_body),
    (("type",), "structure", _typed_body),
    (("role",), "role", _role),
    (("service",), "service", _service),
]
_EXTEND: list[tuple[tuple[str, ...], str]] = [
    (("view", "entity"), "view entity"),
    (("custom", "entity"), "custom entity"),
    (("abstract", "entity"), "abstract entity"),
    (("view",), "view"),
    (("service",), "service"),
    (("type",), "structure"),
]


def _define(cur: Cursor) -> Definition | None:
    root = cur.accept("root") is not None
    for words, kind, body in _DEFINE:
        first = cur.token
        if cur.accept_all(*words):
            name, line, column = _name(cur, kind)
            definition = Definition(kind, name, line or first.line, column, root=root)
            body(cur, definition)
            return definition
    cur.error(f"unknown definition 'define {cur.token.text}'")
    return None


def _extend(cur: Cursor) -> Definition | None:
    for words, kind in _EXTEND:
        if cur.accept_all(*words):
            name, line, column = _name(cur, "extended " + kind, m.EXTENDED)
            definition = Definition("extension", name, line, column)
            cur.expect("with")
            if kind == "service":
                _service(cur, definition)
            elif kind in ("custom entity", "abstract entity"):
                typed_fields(cur, definition)
            elif kind == "structure":
                cur.name()  # the append structure itself
                typed_fields(cur, definition)
            else:
                _links(cur, definition)
                _elements(cur, definition)
            return definition
    cur.error(f"unknown extension 'extend {cur.token.text}'")
    return None


def _annotate(cur: Cursor) -> Definition | None:
    if not cur.accept("entity", "view"):
        cur.error("'annotate entity' or 'annotate view' expected")
        return None
    name, line, column = _name(cur, "annotated entity", m.ANNOTATED)
    definition = Definition("metadata extension", name, line, column)
    cur.expect("with")
    typed_fields(cur, definition)
    return definition


_STARTS: dict[str, Callable[[Cursor], Definition | None]] = {
    "define": _define,
    "extend": _extend,
    "annotate": _annotate,
}


def parse_ddl(text: str, language: str = "ddl") -> m.Source:
    """Parse any DDL-family source (the form decides the kind, not ``language``)."""
    cur = Cursor(tokenize(text))
    annotations = cur.annotations()
    definition: Definition | None = None
    start = _STARTS.get(cur.token.text.lower())
    if start is not None:
        cur.advance()
        definition = start(cur)
    elif not cur.done:
        cur.error(f"'define', 'extend' or 'annotate' expected, not '{cur.token.text}'")
    if definition is not None:
        definition.annotations = annotations + definition.annotations
        last = cur.tokens[-1] if cur.tokens else None
        definition.end = (last.line, last.end) if last else (definition.line, definition.column)
        cur.accept(";")
        if not cur.done:
            cur.error(f"unexpected '{cur.token.text}' after the definition")
    return m.Source(language, definition, cur.references, cur.errors)
