"""CDS data definitions (``DDLS/DF``); created empty, the template is the wizard's first text."""

from __future__ import annotations

from .base import ObjectKind


def _view_entity(name: str, description: str) -> str:
    return (
        "@AccessControl.authorizationCheck: #NOT_REQUIRED\n"
        f"@EndUserText.label: '{description}'\n"
        f"define view entity {name}\n"
        "  as select from <data_source>\n"
        "{\n"
        "  key <key_field>\n"
        "}"
    )


DDLS = ObjectKind(
    code="DDLS/DF",
    face_name="dataDefinition",
    collection="ddic/ddl/sources",
    label="Data Definition",
    root="ddlSource",
    namespace="http://www.sap.com/adt/ddic/ddlsources",
    prefix="ddl",
    validation="ddic/ddl/validation",
    abapgit=("ddls.asddls", "ddls.xml", "ddls.baseinfo"),
    language="abap-cds",
    media_type="application/vnd.sap.adt.ddlSource+xml",
    template=_view_entity,
    previewable=True,
)

KINDS = (DDLS,)
