"""Data preview over seeded table contents: the rows of a table or of a CDS entity (a view,
projection or extension over tables and views, elements mapped through their paths), with
ADT's row limit, a column selection and a simple ``WHERE``.

Contents come from abapGit's data files (``<table>.tabu.json``, a JSON array of rows, in
the seed folder or the repository's ``data/`` folder beside it). The query language is the
subset ADT's data preview sends: ``SELECT * | a, b FROM name [WHERE a = 'x' AND b <> 1 …]``
(comparisons ``= <> != < > <= >= LIKE`` and ``EQ NE LT GT LE GE``, joined by ``AND``/``OR``,
no parentheses). Anything else is refused with a message, never guessed."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from adt.abap.cds.catalog import Catalog, Entity, Field

Row = dict[str, str]
Predicate = Callable[[Row], bool]

_SELECT = re.compile(
    r"^\s*select\s+(?P<columns>.+?)\s+from\s+(?P<source>[/\w]+)"
    r"(?:\s+where\s+(?P<where>.+?))?(?:\s+up\s+to\s+(?P<rows>\d+)\s+rows)?\s*\.?\s*$",
    re.IGNORECASE | re.DOTALL,
)
_COMPARISON = re.compile(
    r"^\s*(?P<field>[/\w~]+)\s*(?P<op><>|!=|<=|>=|=|<|>|\bLIKE\b|\bEQ\b|\bNE\b|\bLT\b|\bGT\b"
    r"|\bLE\b|\bGE\b)\s*(?P<value>'(?:[^']|'')*'|[-+]?\d+(?:\.\d+)?)\s*$",
    re.IGNORECASE,
)
_WORDS = {"EQ": "=", "NE": "<>", "LT": "<", "GT": ">", "LE": "<=", "GE": ">=", "!=": "<>"}


class PreviewError(ValueError):
    """A query the preview cannot answer, in the user's words."""


@dataclass
class Column:
    name: str
    type: str
    description: str
    key: bool
    values: list[str] = field(default_factory=list)


@dataclass
class Preview:
    """The answer: the query as executed, the total rows and the columns with values."""

    query: str
    total: int
    columns: list[Column]


def load_contents(folders: Iterable[Path]) -> dict[str, list[Row]]:
    """Table name → rows, from every ``*.tabu.json`` in (or in ``data/`` beside) a folder."""
    found: dict[str, list[Row]] = {}
    for folder in folders:
        for root in (folder, folder.parent / "data"):
            if not root.is_dir():
                continue
            for path in sorted(root.rglob("*.tabu.json")):
                name = path.name.split(".")[0].replace("#", "/").upper()
                rows = json.loads(path.read_text(encoding="utf-8-sig"))
                if isinstance(rows, list):
                    found[name] = [{str(k).upper(): _text(v) for k, v in r.items()} for r in rows]
    return found


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "X" if value else ""
    return "" if value is None else str(value)


def _type_letter(typed: str) -> str:
    """The ABAP type kind ADT reports for a column (``C``, ``N``, ``P``, ``D``, ``I`` …)."""
    lowered = typed.lower()
    for prefix, letter in (
        ("abap.numc", "N"),
        ("abap.dats", "D"),
        ("abap.tims", "T"),
        ("abap.int", "I"),
        ("abap.dec", "P"),
        ("abap.curr", "P"),
        ("abap.quan", "P"),
        ("abap.fltp", "F"),
        ("abap.raw", "X"),
    ):
        if lowered.startswith(prefix):
            return letter
    return "C"


#: Definitions ABAP SQL cannot select from (no database object behind them), as the system
#: words the refusal.
NO_ROWS = {
    "structure": "a structure",
    "abstract entity": "an abstract entity",
    "custom entity": "a custom entity (its rows come from its query class at runtime)",
}


class Previewer:
    """Rows of tables and CDS entities over ``contents``, typed and labelled by ``catalog``."""

    def __init__(self, catalog: Catalog, contents: dict[str, list[Row]]) -> None:
        self.catalog = catalog
        self.contents = contents

    def rows(self, name: str, depth: int = 0) -> list[Row]:
        """The rows of a table, or of an entity computed from its data source."""
        key = name.upper()
        if key in self.contents:
            return self.contents[key]
        entity = self.catalog.entity(name)
        if entity is None:
            raise PreviewError(f"{name} is neither a table nor a CDS entity")
        definition = entity.definition
        if definition is None or not definition.sources or depth > 16:
            return []
        source = definition.sources[0]
        base = self.rows(source.name, depth + 1)
        qualifiers = {(source.alias or source.name).upper()}
        mapping: list[tuple[str, str]] = []
        for element in definition.elements:
            steps = [step.name.upper() for step in element.path]
            if element.computed or not steps:
                continue
            if len(steps) == 2 and steps[0] in qualifiers:
                steps = steps[1:]
            if len(steps) == 1:  # paths through associations stay empty (a deviation)
                mapping.append((element.name.upper(), steps[0]))
        return [{target: row.get(column, "") for target, column in mapping} for row in base]

    def entity(self, name: str) -> Entity:
        entity = self.catalog.entity(name)
        if entity is None:
            if name.upper() in self.contents:
                return Entity(name.upper(), "table", "TABL", opaque=True)
            raise PreviewError(f"{name} is neither a table nor a CDS entity")
        if entity.kind in NO_ROWS:
            raise PreviewError(
                f"{name.upper()} is {NO_ROWS[entity.kind]}: it has no rows to preview"
            )
        return entity

    def run(self, sql: str, max_rows: int, default_source: str = "") -> Preview:
        """Answer ``sql`` (or ``SELECT * FROM default_source``) with at most ``max_rows``.
        Key flags are reported for an entity's preview only: a free-style query's answer
        marks no column as key (A4H ``087``, ``MANDT`` of ``T000``)."""
        text = sql.strip() or f"SELECT * FROM {default_source}"
        match = _SELECT.match(text)
        if match is None:
            raise PreviewError("Only SELECT … FROM … [WHERE …] can be previewed here")
        source = match.group("source")
        if default_source and source.upper() != default_source.upper():
            raise PreviewError(f"The query selects from {source}, not from {default_source}")
        entity = self.entity(source)
        fields = self._columns(entity, match.group("columns"))
        condition = _condition(match.group("where") or "")
        rows = [row for row in self.rows(source) if condition(row)]
        limit = min(max_rows, int(match.group("rows"))) if match.group("rows") else max_rows
        shown = rows[:limit]
        columns = [
            Column(
                f.name.upper(),
                _type_letter(f.type),
                f.label or f.name.upper(),
                f.key and bool(default_source),
                [row.get(f.name.upper(), "") for row in shown],
            )
            for f in fields
        ]
        names = ", ".join(c.name for c in columns)
        where = f" WHERE {match.group('where')}" if match.group("where") else ""
        executed = (
            f"SELECT {names} FROM {source.upper()}{where}   INTO     TABLE "
            f"@DATA(LT_RESULT)   UP TO {limit}  ROWS   ."
        )
        return Preview(executed, len(rows), columns)

    def _columns(self, entity: Entity, wanted: str) -> list[Field]:
        known = list(entity.fields.values())
        if wanted.strip() == "*":
            if known:
                return known
            sample = next(iter(self.contents.get(entity.name.upper(), [])), {})
            return [Field(name) for name in sample]
        chosen: list[Field] = []
        for name in (n.strip() for n in wanted.split(",")):
            found = entity.field(name)
            if found is None and not entity.opaque:
                raise PreviewError(f"Column {name} is unknown in {entity.name}")
            chosen.append(found or Field(name.upper()))
        return chosen


def _condition(where: str) -> Predicate:
    """A predicate over rows for ``a = 'x' AND b <> 'y' OR …`` (AND binds tighter)."""
    if not where.strip():
        return lambda row: True
    alternatives = [
        [_comparison(part) for part in re.split(r"\s+and\s+", branch, flags=re.IGNORECASE)]
        for branch in re.split(r"\s+or\s+", where, flags=re.IGNORECASE)
    ]
    return lambda row: any(all(test(row) for test in tests) for tests in alternatives)


def _comparison(text: str) -> Predicate:
    match = _COMPARISON.match(text)
    if match is None:
        raise PreviewError(f"Condition not supported by the preview: {text.strip()}")
    column = match.group("field").split("~")[-1].upper()
    op = _WORDS.get(match.group("op").upper(), match.group("op").upper())
    raw = match.group("value")
    value = raw[1:-1].replace("''", "'") if raw.startswith("'") else raw
    if op == "LIKE":
        pattern = re.compile(
            "^" + re.escape(value).replace("%", ".*").replace("_", ".") + "$", re.IGNORECASE
        )
        return lambda row: bool(pattern.match(row.get(column, "")))
    return lambda row: _compare(row.get(column, ""), op, value)


def _compare(left: str, op: str, right: str) -> bool:
    """Numbers compare as numbers, everything else as text."""
    try:
        order = (float(left) > float(right)) - (float(left) < float(right))
    except ValueError:
        order = (left > right) - (left < right)
    return {
        "=": order == 0,
        "<>": order != 0,
        "<": order < 0,
        ">": order > 0,
        "<=": order <= 0,
        ">=": order >= 0,
    }[op]
