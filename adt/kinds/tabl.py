"""Database tables (``TABL/DT``) and structures (``TABL/DS``), edited as their
``define table`` / ``define structure`` source."""

from __future__ import annotations

from .base import ObjectKind

BLUE = "http://www.sap.com/wbobj/blue"

TABL = ObjectKind(
    code="TABL/DT",
    face_name="table",
    collection="ddic/tables",
    label="Database Table",
    root="blueSource",
    namespace=BLUE,
    prefix="blue",
    validation="ddic/tables/validation",
    abapgit=("tabl.xml",),
    language="abap-ddic",
    media_type="application/vnd.sap.adt.tables.v2+xml",
    max_name_length=16,
    previewable=True,
)

STRU = ObjectKind(
    code="TABL/DS",
    face_name="structure",
    collection="ddic/structures",
    label="Structure",
    root="blueSource",
    namespace=BLUE,
    prefix="blue",
    validation="ddic/structures/validation",
    abapgit=(),
    language="abap-ddic",
    media_type="application/vnd.sap.adt.structures.v2+xml",
)

KINDS = (TABL, STRU)
