"""Global classes (``CLAS/OC``)."""

from __future__ import annotations

from .base import ObjectKind

CLAS = ObjectKind(
    code="CLAS/OC",
    face_name="class",
    collection="oo/classes",
    label="Class",
    root="abapClass",
    namespace="http://www.sap.com/adt/oo/classes",
    prefix="class",
    validation="oo/validation/objectname",
    abapgit=(
        "clas.abap",
        "clas.xml",
        "clas.locals_def.abap",
        "clas.locals_imp.abap",
        "clas.macros.abap",
        "clas.testclasses.abap",
    ),
)

KINDS = (CLAS,)
