"""Service definitions (``SRVD/SRV``)."""

from __future__ import annotations

from .base import ObjectKind


def _service_definition(name: str, description: str) -> str:
    return f"@EndUserText.label: '{description}'\ndefine service {name} {{\n  expose <entity>;\n}}"


SRVD = ObjectKind(
    code="SRVD/SRV",
    face_name="serviceDefinition",
    collection="ddic/srvd/sources",
    label="Service Definition",
    root="srvdSource",
    namespace="http://www.sap.com/adt/ddic/srvdsources",
    prefix="srvd",
    validation="ddic/srvd/sources/validation",
    abapgit=("srvd.srvdsrv", "srvd.xml"),
    language="abap-srvd",
    media_type="application/vnd.sap.adt.ddic.srvd.v1+xml",
    template=_service_definition,
)

KINDS = (SRVD,)
