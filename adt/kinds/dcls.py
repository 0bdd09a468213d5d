"""CDS access controls (``DCLS/DL``)."""

from __future__ import annotations

from .base import ObjectKind


def _access_control(name: str, description: str) -> str:
    return (
        f"@EndUserText.label: '{description}'\n"
        "@MappingRole: true\n"
        f"define role {name} {{\n"
        "  grant select on <entity>\n"
        "    where ( <field> ) = aspect pfcg_auth( <object>, <auth_field>, ACTVT = '03' );\n"
        "}"
    )


DCLS = ObjectKind(
    code="DCLS/DL",
    face_name="accessControl",
    collection="acm/dcl/sources",
    label="Access Control",
    root="dclSource",
    namespace="http://www.sap.com/adt/acm/dclsources",
    prefix="dcl",
    validation="acm/dcl/validation",
    abapgit=("dcls.asdcls", "dcls.xml"),
    language="abap-cds",
    media_type="application/vnd.sap.adt.dclSource+xml",
    template=_access_control,
)

KINDS = (DCLS,)
