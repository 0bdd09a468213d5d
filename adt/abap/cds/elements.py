"""Element lists of CDS views (``{ key a, _b.c as C, cast(…) as D, _assoc }``) and typed
field lists (``{ key a : type not null; include s; _x : association to … }``) of abstract
and custom entities, table functions, tables, structures and metadata extensions."""

from __future__ import annotations

from adt.abap.cds import model as m
from adt.abap.cds.cursor import Cursor
from adt.abap.cds.expressions import expression_paths
from adt.abap.cds.model import Element, PathStep
from adt.abap.cds.tokens import NAME, Token

_ELEMENT_END = (",", "}")
_EXPRESSION_STOPS = (",", "}", "as", ":", "@")
_COMPUTED_STARTS = ("case", "cast", "(")


def view_elements(cur: Cursor) -> list[Element]:
    """At ``{``: the comma-separated select list, up to and including ``}``."""
    cur.expect("{")
    elements: list[Element] = []
    while not cur.done and not cur.accept("}"):
        start = cur.index
        element = _view_element(cur)
        if element is not None:
            elements.append(element)
        if not cur.accept(",") and not cur.at("}"):
            cur.error(f"',' or '}}' expected, not '{cur.token.text}'")
            cur.skip_until(*_ELEMENT_END)
            cur.accept(",")
        if cur.index == start:
            cur.advance()
    return elements


def _view_element(cur: Cursor) -> Element | None:
    annotations = cur.annotations()
    key = cur.accept("key") is not None
    virtual = cur.accept("virtual") is not None
    first, start = cur.token, cur.index
    path, computed, cast_type = _expression(cur)
    element = Element("", first.line, first.column, key=key, path=path, computed=computed)
    if computed:
        element.uses = expression_paths(cur.tokens[start : cur.index])
    element.type = cast_type
    element.annotations = annotations
    if cur.accept("as"):
        alias = cur.name()
        if alias is None:
            cur.error("element name expected after 'as'")
        else:
            element.alias = alias.text
            element.line, element.column = alias.line, alias.column
    if cur.accept(":"):
        _element_typing(cur, element)
    element.annotations.extend(cur.annotations())
    if virtual and not element.alias and path:
        element.alias = path[-1].name
    element.name = element.alias or (path[-1].name if path and not computed else "")
    if not element.name:
        cur.error("a computed element needs a name ('as …')", first)
        return None
    return element


def _expression(cur: Cursor) -> tuple[list[PathStep], bool, str]:
    """The projected path (or [] with computed=True) of one element expression, and the
    type of its outermost ``cast`` when there is one."""
    token = cur.token
    if token.kind == NAME and not token.is_word(*_COMPUTED_STARTS) and cur.peek().text != "(":
        path = cur.path()
        if cur.at(*_EXPRESSION_STOPS):
            return path, False, ""
    cast_type = ""
    while not cur.done and not cur.at(*_EXPRESSION_STOPS):
        if cur.token.is_word("cast") and cur.peek().text == "(":
            found = _cast_type(cur)
            cast_type = cast_type or found
        elif cur.token.is_word("case"):
            _skip_case(cur)
        elif cur.token.text in ("(", "[") and cur.token.kind == "op":
            cur.skip_group()
        else:
            cur.advance()
    return [], True, cast_type


def _cast_type(cur: Cursor) -> str:
    """At ``cast``: skip ``cast( … as type )`` and return the type as written."""
    cur.advance()
    start = cur.index
    cur.skip_group()
    inner = cur.tokens[start + 1 : cur.index - 1]
    depth, last_as = 0, -1
    for i, token in enumerate(inner):
        depth += token.text in "([" and token.kind == "op"
        depth -= token.text in ")]" and token.kind == "op"
        if depth == 0 and token.is_word("as"):
            last_as = i
    typed = [t for t in inner[last_as + 1 :] if not t.is_word("preserving", "type")]
    return "".join(t.text for t in typed)


def _skip_case(cur: Cursor) -> None:
    depth = 0
    while not cur.done:
        token = cur.advance()
        if token.is_word("case"):
            depth += 1
        elif token.is_word("end"):
            depth -= 1
            if depth == 0:
                return
        elif token.text in ("(", "[") and token.kind == "op":
            cur.index -= 1
            cur.skip_group()


def _element_typing(cur: Cursor, element: Element) -> None:
    """After ``:`` in a select list: ``localized``, ``redirected to …`` or a type."""
    if cur.accept("localized"):
        return
    if cur.accept("redirected"):
        cur.accept("to")
        while cur.accept("composition", "child", "parent"):
            pass
        target = cur.name(m.REDIRECT)
        element.redirected_to = target.text if target else ""
        element.association = True
        return
    element.type = _type(cur)


def _type(cur: Cursor) -> str:
    """A type as written: ``abap.char(10)``, ``/dmo/travel_id``, ``abap.curr(16,2)``."""
    parts: list[str] = []
    first = cur.token
    if cur.token.kind == NAME:
        parts.append(cur.advance().text)
        while cur.at(".") and cur.peek().kind == NAME:
            parts.append(cur.advance().text + cur.advance().text)
    if cur.at("("):
        start = cur.index
        cur.skip_group()
        parts.extend(t.text for t in cur.tokens[start : cur.index])
    text = "".join(parts)
    if text and not text.lower().startswith("abap."):
        cur.references.append(m.Reference(text, m.TYPE, first.line, first.column))
    return text


def typed_fields(cur: Cursor, definition: m.Definition) -> None:
    """At ``{``: ``[key] name : type [not null];`` entries, up to and including ``}``."""
    cur.expect("{")
    while not cur.done and not cur.accept("}"):
        start = cur.index
        _typed_entry(cur, definition)
        if not cur.accept(";") and not cur.at("}"):
            cur.error(f"';' expected, not '{cur.token.text}'")
            cur.skip_until(";", "}")
            cur.accept(";")
        if cur.index == start:
            cur.advance()


def _typed_entry(cur: Cursor, definition: m.Definition) -> None:
    annotations = cur.annotations()
    if cur.at("include", ".include"):
        cur.advance()
        included = cur.name(m.INCLUDE)
        if included is not None:
            definition.includes.append(included.text)
        cur.skip_until(";", "}")
        return
    key = cur.accept("key") is not None
    name = cur.name()
    if name is None:
        if annotations:  # annotations of nothing: tolerated, as the editor shows them
            return
        cur.error(f"field name expected, not '{cur.token.text}'")
        return
    element = Element(name.text, name.line, name.column, key=key, annotations=annotations)
    if cur.accept(":"):
        _field_type(cur, definition, element)
    elif definition.kind == "metadata extension":
        element.path = [PathStep(name.text, name.line, name.column)]
    else:
        cur.error(f"':' expected after field '{name.text}'")
    definition.elements.append(element)


def _field_type(cur: Cursor, definition: m.Definition, element: Element) -> None:
    if cur.at("association", "composition"):
        kind = cur.advance().text.lower()
        association = association_clause(cur, kind, element_name=element.name)
        definition.associations.append(association)
        element.association = True
        return
    if cur.at("redirected"):
        _element_typing(cur, element)
        return
    element.type = _type(cur)
    if cur.accept_all("not", "null"):
        element.not_null = True
    cur.skip_until(";", "}")


ASSOCIATION_STOPS = ("association", "composition", "{", "join", "inner", "left", "right", "cross")
_LINK_WORDS = ("to", "of", "parent", "many", "one", "exact", "child")


def association_clause(cur: Cursor, kind: str, element_name: str = "") -> m.Association:
    """After ``association``/``composition``: cardinality, target, alias, condition."""
    start = cur.token
    cardinality: list[str] = []
    if cur.at("["):
        begin = cur.index
        cur.skip_group()
        cardinality.append("".join(t.text for t in cur.tokens[begin : cur.index]))
    words: list[Token] = []
    while cur.at(*_LINK_WORDS) and cur.peek().kind == NAME:
        words.append(cur.advance())
    if any(w.is_word("parent") for w in words):
        kind = "to parent"
    cardinality.extend(w.text for w in words if not w.is_word("to", "of", "parent"))
    target = cur.name(m.ASSOCIATION_TARGET)
    if target is None:
        cur.error(f"target of the {kind} expected")
        target = start
    name = element_name or target.text
    alias = cur.accept("as") and cur.name()
    if alias:
        name = alias.text
    association = m.Association(
        name,
        target.text,
        " ".join(cardinality),
        kind,
        (alias or target).line,
        (alias or target).column,
    )
    stops = (*ASSOCIATION_STOPS, ";", "where", "group", "union")
    if cur.accept("on"):
        association.condition = condition_paths(cur.skip_until(*stops, "with"))
    if cur.accept_all("with", "default", "filter"):
        cur.skip_until(*stops)
    return association


def condition_paths(tokens: list[Token]) -> list[list[PathStep]]:
    """The path expressions (``$projection.a``, ``_X.b``) a condition mentions."""
    paths: list[list[PathStep]] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token.kind != NAME or token.is_word(
            "and", "or", "not", "is", "null", "initial", "between"
        ):
            i += 1
            continue
        steps = [PathStep(token.text, token.line, token.column)]
        while i + 2 < len(tokens) and tokens[i + 1].text == "." and tokens[i + 2].kind == NAME:
            i += 2
            steps.append(PathStep(tokens[i].text, tokens[i].line, tokens[i].column))
        if i + 1 < len(tokens) and tokens[i + 1].text == "(":
            steps = []  # a function call, not a path
        if steps:
            paths.append(steps)
        i += 1
    return paths
