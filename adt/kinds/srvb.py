"""Service bindings (``SRVB/SVB``), a metadata document."""

from __future__ import annotations

from .base import ObjectKind

SRVB = ObjectKind(
    code="SRVB/SVB",
    face_name="serviceBinding",
    collection="businessservices/bindings",
    label="Service Binding",
    root="serviceBinding",
    namespace="http://www.sap.com/adt/ddic/ServiceBindings",
    prefix="srvb",
    validation="businessservices/bindings/validation",
    abapgit=("srvb.xml",),
    language="xml",
    source_based=False,
    media_type="application/vnd.sap.adt.businessservices.servicebinding.v2+xml",
    max_name_length=26,
)

KINDS = (SRVB,)
