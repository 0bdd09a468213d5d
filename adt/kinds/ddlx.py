"""CDS metadata extensions (``DDLX/EX``)."""

from __future__ import annotations

from .base import ObjectKind


def _metadata_extension(name: str, description: str) -> str:
    return f"@Metadata.layer: #CORE\nannotate entity {name} with\n{{\n}}"


DDLX = ObjectKind(
    code="DDLX/EX",
    face_name="metadataExtension",
    collection="ddic/ddlx/sources",
    label="Metadata Extension",
    root="ddlxSource",
    namespace="http://www.sap.com/adt/ddic/ddlxsources",
    prefix="ddlx",
    validation="ddic/ddlx/sources/validation",
    abapgit=("ddlx.asddlxs", "ddlx.xml"),
    language="abap-cds",
    media_type="application/vnd.sap.adt.ddic.ddlx.v1+xml",
    template=_metadata_extension,
)

KINDS = (DDLX,)
