"""Function groups (``FUGR/F``), their modules (``FUGR/FF``) and includes (``FUGR/I``)."""

from __future__ import annotations

from .base import ObjectKind

FUGR = ObjectKind(
    code="FUGR/F",
    face_name="functionGroup",
    collection="functions/groups",
    label="Function Group",
    root="abapFunctionGroup",
    namespace="http://www.sap.com/adt/functions/groups",
    prefix="group",
    validation="functions/validation",
    abapgit=("fugr.xml",),
    max_name_length=26,
)

FUNC = ObjectKind(
    code="FUGR/FF",
    face_name="functionModule",
    collection="functions/groups/{group}/fmodules",
    label="Function Module",
    root="abapFunctionModule",
    namespace="http://www.sap.com/adt/functions/fmodules",
    prefix="fmodule",
    validation="functions/validation",
    abapgit=(),
)

FINC = ObjectKind(
    code="FUGR/I",
    collection="functions/groups/{group}/includes",
    label="Function Group Include",
    root="abapFunctionGroupInclude",
    namespace="http://www.sap.com/adt/functions/fincludes",
    prefix="finclude",
    validation="functions/validation",
    abapgit=(),
)

KINDS = (FUGR, FUNC, FINC)
