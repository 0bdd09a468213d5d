"""Domains (``DOMA/DD``), a metadata document."""

from __future__ import annotations

from .base import ObjectKind

DOMA = ObjectKind(
    code="DOMA/DD",
    face_name="domain",
    collection="ddic/domains",
    label="Domain",
    root="domain",
    namespace="http://www.sap.com/dictionary/domain",
    prefix="doma",
    validation="ddic/domains/validation",
    abapgit=("doma.xml",),
    language="xml",
    source_based=False,
    media_type="application/vnd.sap.adt.domains.v2+xml",
)

KINDS = (DOMA,)
