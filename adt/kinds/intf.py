"""Global interfaces (``INTF/OI``)."""

from __future__ import annotations

from .base import ObjectKind

INTF = ObjectKind(
    code="INTF/OI",
    face_name="interface",
    collection="oo/interfaces",
    label="Interface",
    root="abapInterface",
    namespace="http://www.sap.com/adt/oo/interfaces",
    prefix="intf",
    validation="oo/validation/objectname",
    abapgit=("intf.abap", "intf.xml"),
)

KINDS = (INTF,)
