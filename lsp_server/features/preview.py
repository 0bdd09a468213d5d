"""Data preview in the editor (``adt/dataPreview``): the rows of a table or CDS entity, a page
at a time, optionally narrowed to some columns and a ``WHERE``. Editors always have it (the
user sees the data they are allowed to see); agents only when the bridge allows it."""

from __future__ import annotations

from typing import Any

from lsp_server.features import Feature
from lsp_server.uris import parse_uri


def entity_of(uri: str | None, name: str | None) -> tuple[str, str | None]:
    """The entity (and system) to preview: the object of an ``adt://`` document, or a name."""
    from adt.areas.datapreview import PreviewQueryError, entity_name, entity_of_url

    if uri:
        ref = parse_uri(uri)
        return entity_of_url(ref.object_url), ref.system
    if name:
        return entity_name(name), None
    raise PreviewQueryError("pass the document's uri or a table or CDS entity name")


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
        from adt.areas.datapreview import MAX_PAGE, PreviewQueryError, select

        if offset < 0 or not 0 < limit <= MAX_PAGE:
            raise PreviewQueryError(f"offset must be >= 0 and limit 1..{MAX_PAGE}")
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
