"""Table types (``TTYP/DA``), a metadata document."""

from __future__ import annotations

from .base import ObjectKind

TTYP = ObjectKind(
    code="TTYP/DA",
    face_name="tableType",
    collection="ddic/tabletypes",
    label="Table Type",
    root="tableType",
    namespace="http://www.sap.com/dictionary/tabletype",
    prefix="ttyp",
    validation="ddic/tabletypes/validation",
    abapgit=("ttyp.xml",),
    language="xml",
    source_based=False,
)

KINDS = (TTYP,)
