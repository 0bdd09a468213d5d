"""ADT's data preview: the rows of a table or CDS entity (``table``), optionally narrowed by
the ``SELECT`` an editor builds (column list, ``WHERE``), and a free-style ``SELECT``
(``freestyle``, which on-premise systems run). Both answer ``dataPreview:tableData``,
column by column; :class:`TablePreview` turns it into rows. See docs/protocol/data-preview.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lxml import etree

from adt._xml import parse_document
from adt.areas.base import Area

DDIC = "/sap/bc/adt/datapreview/ddic"
FREESTYLE = "/sap/bc/adt/datapreview/freestyle"
NS = "http://www.sap.com/adt/dataPreview"
TABLE_DATA = "application/vnd.sap.adt.datapreview.table.v1+xml"
_Q = f"{{{NS}}}"

__all__ = [
    "MAX_PAGE",
    "DataPreview",
    "PreviewColumn",
    "PreviewQueryError",
    "TablePreview",
    "entity_name",
    "entity_of_url",
    "parse_table_data",
    "select",
]


@dataclass(frozen=True)
class PreviewColumn:
    """A column: its name, ABAP type kind (``C``, ``N``, ``P`` …), label and key flag."""

    name: str
    type: str
    description: str
    key: bool


@dataclass(frozen=True)
class TablePreview:
    """The rows shown (at most the row limit), how many matched, the query the system ran."""

    columns: tuple[PreviewColumn, ...]
    rows: tuple[dict[str, str], ...]
    total_rows: int
    query: str


def parse_table_data(body: bytes) -> TablePreview:
    root = parse_document(body, NS, "tableData")
    columns: list[PreviewColumn] = []
    values: list[list[str]] = []
    for column in root.iterfind(f"{_Q}columns"):
        meta = column.find(f"{_Q}metadata")

        def attr(name: str, meta: etree._Element | None = meta) -> str:
            return (meta.get(f"{_Q}{name}") if meta is not None else None) or ""

        columns.append(
            PreviewColumn(
                attr("name"), attr("type"), attr("description"), attr("keyAttribute") == "true"
            )
        )
        values.append([(d.text or "") for d in column.iterfind(f"{_Q}dataSet/{_Q}data")])
    count = max((len(v) for v in values), default=0)
    rows = tuple(
        {c.name: (v[i] if i < len(v) else "") for c, v in zip(columns, values, strict=True)}
        for i in range(count)
    )
    total = root.findtext(f"{_Q}totalRows") or "0"
    query = root.findtext(f"{_Q}executedQueryString") or ""
    return TablePreview(tuple(columns), rows, int(total) if total.isdigit() else count, query)


_NAME = re.compile(r"^(/[A-Za-z0-9_]+/)?[A-Za-z0-9_]+$")
_COLUMN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: A page is at most this many rows.
MAX_PAGE = 500


class PreviewQueryError(ValueError):
    """The preview cannot be asked as given (a bad entity name or column)."""


def entity_name(name: str) -> str:
    """A table or CDS entity name (``ZTRAVEL``, ``/DMO/I_TRAVEL_M``), upper case."""
    if not _NAME.match(name):
        raise PreviewQueryError(f"not a table or CDS entity name: {name!r}")
    return name.upper()


def entity_of_url(url: str) -> str:
    """The entity whose rows an object URL (or a source URL) names: a table's or a data
    definition's; every other kind has no rows (a behavior definition shares its entity's
    name but is not data)."""
    from adt.kinds import KINDS
    from adt.urls import source_ref

    ref = source_ref(url)
    kind = KINDS.for_url(ref.object_url)
    if kind is None or not kind.previewable:
        label = f" ({kind.label})" if kind is not None else ""
        raise PreviewQueryError(
            f"{ref.object_name}{label} has no rows to preview: only tables and CDS entities do"
        )
    return entity_name(ref.object_name)


def select(entity: str, columns: list[str], where: str) -> str:
    """The ``SELECT`` ADT's data preview runs: the chosen columns (all when none) and the
    condition as typed; empty when neither narrows (the system then selects everything)."""
    bad = [c for c in columns if not _COLUMN.match(c)]
    if bad:
        raise PreviewQueryError(f"not a column name: {', '.join(bad)}")
    if not columns and not where.strip():
        return ""
    listed = ", ".join(columns) if columns else "*"
    narrowed = f" WHERE {where.strip()}" if where.strip() else ""
    return f"SELECT {listed} FROM {entity}{narrowed}"


class DataPreview(Area):
    """The data preview of one system."""

    async def table(self, entity: str, *, rows: int = 100, sql: str = "") -> TablePreview:
        """The rows of the table or CDS entity ``entity`` (``sql``: the ``SELECT … FROM
        entity [WHERE …]`` to run instead of all columns)."""
        response = await self._send(
            "POST",
            DDIC,
            params={"rowNumber": str(rows), "ddicEntityName": entity.upper()},
            headers={"Accept": TABLE_DATA, "Content-Type": "text/plain"},
            content=sql.encode("utf-8"),
            idempotent=True,  # a read: a connection the server closed meanwhile is retried
        )
        return parse_table_data(response.content)

    async def freestyle(self, sql: str, *, rows: int = 100) -> TablePreview:
        """Run a ``SELECT`` (systems that allow free-style queries only)."""
        response = await self._send(
            "POST",
            FREESTYLE,
            params={"rowNumber": str(rows)},
            headers={"Accept": TABLE_DATA, "Content-Type": "text/plain"},
            content=sql.encode("utf-8"),
            idempotent=True,  # a SELECT only reads
        )
        return parse_table_data(response.content)
