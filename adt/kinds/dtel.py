"""Data elements (``DTEL/DE``), a metadata document."""

from __future__ import annotations

from .base import ObjectKind

DTEL = ObjectKind(
    code="DTEL/DE",
    face_name="dataElement",
    collection="ddic/dataelements",
    label="Data Element",
    root="wbobj",
    namespace="http://www.sap.com/wbobj/dictionary/dtel",
    prefix="blue",
    validation="ddic/dataelements/validation",
    abapgit=("dtel.xml",),
    language="xml",
    source_based=False,
    media_type="application/vnd.sap.adt.dataelements.v2+xml",
)

KINDS = (DTEL,)
