"""Data preview in the editor (``adt/dataPreview``): the rows of a table or CDS entity, a page
at a time, optionally narrowed to some columns and a ``WHERE``. Editors always have it (the
user sees the data they are allowed to see); agents only when the bridge allows it."""

from __future__ import annotations

import re
from typing import Any

from adt.urls import decode_name
from lsp_server.features import Feature
from lsp_server.uris import parse_uri

_NAME = re.compile(r"^/?[A-Za-z0-9_]+(/[A-Za-z0-9_]+/[A-Za-z0-9_]+)?$")
_COLUMN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: A page is at most this many rows; the system is asked for offset + limit rows.
MAX_PAGE = 500


class PreviewRefused(ValueError):
    """The request cannot be previewed as asked (a bad name, column or page)."""


def entity_of(uri: str | None, name: str | None) -> tuple[str, str | None]:
    """The entity (and system) to preview: the object of an ``adt://`` document, or a name."""
    if uri:
        ref = parse_uri(uri)
        return decode_name(ref.object_url.rstrip("/").rsplit("/", 1)[-1]).upper(), ref.system
    if name and _NAME.match(name):
        return name.upper(), None
    raise PreviewRefused(f"pass the document's uri or a table or CDS entity name, not {name!r}")


def select(entity: str, columns: list[str], where: str) -> str:
    """The ``SELECT`` ADT's data preview runs: the chosen columns (all when none) and the
    condition as typed."""
    bad = [c for c in columns if not _COLUMN.match(c)]
    if bad:
        raise PreviewRefused(f"not a column name: {', '.join(bad)}")
    if not columns and not where.strip():
        return ""
    listed = ", ".join(columns) if columns else "*"
    narrowed = f" WHERE {where.strip()}" if where.strip() else ""
    return f"SELECT {listed} FROM {entity}{narrowed}"


class DataPreview(Feature):
    async def preview(
        self,
        *,
        uri: str | None = None,
        name: str | None = None,
        system: str | None = None,
        offset: int = 0,
        limit: int = 100,
        columns: list[str] | None = None,
        where: str = "",
    ) -> dict[str, Any]:
        """One page of rows with the columns (name, type, label, key), the total matched and
        the query the system ran."""
        if offset < 0 or not 0 < limit <= MAX_PAGE:
            raise PreviewRefused(f"offset must be >= 0 and limit 1..{MAX_PAGE}")
        entity, from_uri = entity_of(uri, name)
        service = self.ctx.connections.service(system or from_uri)
        found = await service.client.datapreview.table(
            entity, rows=offset + limit, sql=select(entity, columns or [], where)
        )
        return {
            "entity": entity,
            "columns": [
                {"name": c.name, "type": c.type, "label": c.description, "key": c.key}
                for c in found.columns
            ],
            "rows": [dict(r) for r in found.rows[offset : offset + limit]],
            "offset": offset,
            "totalRows": found.total_rows,
            "query": found.query,
        }
