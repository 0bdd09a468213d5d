"""The parser of behavior definitions (BDEF): the header (implementation type, behavior
pool, ``strict``, ``with draft``, extensions), each ``define``/``extend behavior for`` with
its characteristics (alias, pool, persistent and draft tables) and the items of its body
(operations, actions, functions, determinations, validations, associations, field
characteristics, mappings, events)."""

from __future__ import annotations

from adt.abap.cds import model as m
from adt.abap.cds.controls import header_controls, item_controls, merge
from adt.abap.cds.cursor import Cursor
from adt.abap.cds.model import Behavior, BehaviorItem, Definition, PathStep
from adt.abap.cds.tokens import NAME, Token, tokenize

EXTENDED_BEHAVIOR = "extended behavior"
IMPLEMENTATIONS = ("managed", "unmanaged", "abstract", "projection", "interface")
_NAMED = ("action", "function", "determination", "validation", "event", "association")
_OPERATIONS = ("create", "update", "delete", "read", "lock")
_PREFIXES = (
    "internal",
    "static",
    "factory",
    "draft",
    "determine",
    "repeatable",
    "use",
    "extend",
    "managed",
    "save",
    "precheck",
)


def _statement(cur: Cursor) -> list[Token]:
    """Tokens up to a top-level ``;`` (consumed) or through a ``{ … }`` block (with a
    following ``;`` consumed too)."""
    start = cur.index
    while not cur.done and not cur.at(";", "}"):
        if cur.at("{"):
            cur.skip_group()
            cur.accept(";")
            return cur.tokens[start : cur.index]
        if cur.at("(", "["):
            cur.skip_group()
        else:
            cur.advance()
    tokens = cur.tokens[start : cur.index]
    cur.accept(";")
    return tokens


def _words(tokens: list[Token]) -> list[str]:
    return [t.text.lower() for t in tokens if t.kind == NAME]


def _after(tokens: list[Token], *words: str) -> Token | None:
    """The first name after the keyword sequence ``words`` (parenthesised options skipped)."""
    for i in range(len(tokens) - len(words) + 1):
        if all(tokens[i + k].text.lower() == w for k, w in enumerate(words)):
            j, depth = i + len(words), 0
            while j < len(tokens):
                token = tokens[j]
                depth += token.text == "(" and token.kind == "op"
                depth -= token.text == ")" and token.kind == "op"
                if depth == 0 and token.kind == NAME:
                    return token
                j += 1
    return None


def _reference(cur: Cursor, token: Token | None, role: str) -> str:
    if token is None:
        return ""
    cur.references.append(m.Reference(token.text, role, token.line, token.column))
    return token.text


def _header(cur: Cursor, definition: Definition, tokens: list[Token]) -> None:
    words = _words(tokens)
    if words and words[0] in IMPLEMENTATIONS:
        definition.implementation = words[0]
    elif words[:2] == ["extension", "using"] or words[:2] == ["extension", "for"]:
        definition.implementation = "extension"
        _reference(cur, _after(tokens, "interface"), m.BEHAVIOR_ENTITY)
    if "implementation" in words:
        definition.pool = _reference(cur, _after(tokens, "in", "class"), m.BEHAVIOR_POOL)


def _characteristics(cur: Cursor, behavior: Behavior, tokens: list[Token]) -> None:
    """``alias``, ``implementation in class``, ``persistent table``, ``draft table``."""
    alias = _after(tokens, "alias")
    behavior.alias = alias.text if alias else ""
    behavior.pool = _reference(cur, _after(tokens, "in", "class"), m.BEHAVIOR_POOL)
    behavior.persistent_table = _reference(
        cur, _after(tokens, "persistent", "table"), m.PERSISTENT_TABLE
    )
    behavior.draft_table = _reference(cur, _after(tokens, "draft", "table"), m.DRAFT_TABLE)
    merge(behavior.controls, header_controls(tokens))


def _item(cur: Cursor, behavior: Behavior, tokens: list[Token]) -> None:
    words = _words(tokens)
    if not words:
        return
    head = tokens[0]
    if words[0] == "field":
        _fields(behavior, tokens)
        return
    if words[0] == "side" or words[:2] == ["use", "side"]:
        return  # side effects: triggers, not items
    if words[0] == "mapping":
        _reference(cur, _after(tokens, "mapping", "for"), m.MAPPED_TABLE)
        return
    core = [w for w in words if w not in _PREFIXES]
    if core and core[0] in _OPERATIONS and words[0] not in _NAMED:
        detail = " ".join(words[: words.index(core[0])])
        behavior.items.append(BehaviorItem(core[0], "operation", head.line, head.column, detail))
        return
    kind = next((w for w in words if w in _NAMED), "")
    if not kind:
        return
    name = _after(tokens, kind)
    if name is None:
        return
    detail = " ".join(words[: words.index(kind)])
    timing = _after(tokens, "on") if kind in ("determination", "validation") else None
    item = BehaviorItem(name.text, kind, name.line, name.column, detail)
    item.timing = f"on {timing.text.lower()}" if timing is not None else ""
    behavior.items.append(item)
    if kind in ("action", "function", "event"):
        _reference(cur, _after(tokens, "parameter"), m.DATA_SOURCE)


def _fields(behavior: Behavior, tokens: list[Token]) -> None:
    """``field ( readonly ) a, b;`` — the names after the parenthesised characteristics."""
    depth, seen_group = 0, False
    for token in tokens[1:]:
        if token.text == "(" and token.kind == "op":
            depth += 1
        elif token.text == ")" and token.kind == "op":
            depth -= 1
            seen_group = True
        elif depth == 0 and seen_group and token.kind == NAME:
            behavior.fields.append(PathStep(token.text, token.line, token.column))


def _behavior(cur: Cursor, tokens: list[Token], extend: bool) -> Behavior | None:
    name = _after(tokens, "behavior", "for")
    if name is None:
        cur.error("entity name expected after 'behavior for'", tokens[0])
        return None
    role = EXTENDED_BEHAVIOR if extend else m.BEHAVIOR_ENTITY
    cur.references.append(m.Reference(name.text, role, name.line, name.column))
    behavior = Behavior(name.text, "", name.line, name.column, extension=extend)
    head = [t for t in tokens if not (t.text == "{" or t.line > tokens[-1].line)]
    _characteristics(cur, behavior, head)
    return behavior


def _body(cur: Cursor, behavior: Behavior) -> None:
    """The items between ``{`` and ``}``; the cursor is just past ``{``."""
    while not cur.done and not cur.accept("}"):
        start = cur.index
        tokens = _statement(cur)
        _item(cur, behavior, tokens)
        merge(behavior.controls, item_controls(tokens))
        if cur.index == start:
            cur.advance()
    last = cur.tokens[cur.index - 1]
    behavior.end = (last.line, last.end)


def parse_bdef(text: str) -> m.Source:
    """Parse a behavior definition; the definition's name is its first behavior's entity."""
    cur = Cursor(tokenize(text))
    definition = Definition("behavior", "", 1, 0)
    while not cur.done:
        start = cur.index
        words = [cur.peek(k).text.lower() for k in range(3)]
        if words[1:3] == ["behavior", "for"] and words[0] in ("define", "extend"):
            head = cur.skip_until("{")
            behavior = _behavior(cur, head, words[0] == "extend")
            if cur.accept("{") and behavior is not None:
                _body(cur, behavior)
                definition.behaviors.append(behavior)
            continue
        tokens = _statement(cur)
        if tokens:
            _header(cur, definition, tokens)
        if cur.index == start:
            cur.error(f"unexpected '{cur.token.text}'")
            cur.advance()
    first = next((b for b in definition.behaviors), None)
    if first is not None:
        definition.name, definition.line, definition.column = first.entity, first.line, first.column
    if cur.tokens:
        definition.end = (cur.tokens[-1].line, cur.tokens[-1].end)
    if not definition.implementation and definition.behaviors:
        cur.error("implementation type expected (managed, unmanaged, projection, …)", cur.tokens[0])
    return m.Source("bdef", definition, cur.references, cur.errors)
