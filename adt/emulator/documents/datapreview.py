"""The data preview answer ``dataPreview:tableData`` (A4H ``087``): total rows, the HANA
flag, the query as executed, its time, then one ``columns`` element per column with its
metadata and its values."""

from __future__ import annotations

from ..xmlwriter import DECL, tag, text_tag

NS_DATAPREVIEW = "http://www.sap.com/adt/dataPreview"
TABLE_DATA = "application/vnd.sap.adt.datapreview.table.v1+xml"


def table_data(
    total: int,
    query: str,
    columns: list[tuple[str, str, str, bool, list[str]]],
    seconds: float = 0.0,
) -> str:
    """``columns``: (name, type letter, description, key, values)."""
    body = (
        text_tag("dataPreview:totalRows", str(total))
        + text_tag("dataPreview:isHanaAnalyticalView", "false")
        + text_tag("dataPreview:executedQueryString", query)
        + text_tag("dataPreview:queryExecutionTime", f"{seconds * 1000:.7f}")
    )
    for name, letter, description, key, values in columns:
        metadata = tag(
            "dataPreview:metadata",
            [
                ("dataPreview:name", name),
                ("dataPreview:type", letter),
                ("dataPreview:description", description),
                ("dataPreview:keyAttribute", "true" if key else "false"),
                ("dataPreview:colType", ""),
                ("dataPreview:isKeyFigure", "false"),
            ],
        )
        data = "".join(text_tag("dataPreview:data", value) for value in values)
        body += tag("dataPreview:columns", (), metadata + tag("dataPreview:dataSet", (), data))
    return DECL + tag("dataPreview:tableData", [("xmlns:dataPreview", NS_DATAPREVIEW)], body)
