"""The ABAP-source kinds: classes, interfaces, programs, includes, function groups,
function modules and group includes."""

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

KINDS = (CLAS, INTF, PROG, INCL, FUGR, FUNC, FINC)
