"""Programs (``PROG/P``) and includes (``PROG/I``)."""

from __future__ import annotations

from .base import ObjectKind

PROG = ObjectKind(
    code="PROG/P",
    face_name="program",
    collection="programs/programs",
    label="Program",
    root="abapProgram",
    namespace="http://www.sap.com/adt/programs/programs",
    prefix="program",
    validation="programs/validation",
    abapgit=("prog.abap", "prog.xml"),
)

INCL = ObjectKind(
    code="PROG/I",
    face_name="include",
    collection="programs/includes",
    label="Include",
    root="abapInclude",
    namespace="http://www.sap.com/adt/programs/includes",
    prefix="include",
    validation="includes/validation",
    abapgit=(),
)

KINDS = (PROG, INCL)
