"""RAP behavior definitions (``BDEF/BDO``)."""

from __future__ import annotations

from .base import ObjectKind


def _behavior_definition(name: str, description: str) -> str:
    return (
        f"managed implementation in class zbp_{name.lower().lstrip('/').replace('/', '_')}"
        " unique;\n"
        "strict ( 2 );\n"
        "\n"
        f"define behavior for {name}\n"
        "persistent table <table>\n"
        "lock master\n"
        "authorization master ( instance )\n"
        "{\n"
        "  create;\n"
        "  update;\n"
        "  delete;\n"
        "}"
    )


BDEF = ObjectKind(
    code="BDEF/BDO",
    face_name="behaviorDefinition",
    collection="bo/behaviordefinitions",
    label="Behavior Definition",
    root="blueSource",
    namespace="http://www.sap.com/wbobj/blue",
    prefix="blue",
    validation="bo/behaviordefinitions/validation",
    abapgit=("bdef.asbdef", "bdef.xml"),
    language="abap-bdef",
    media_type="application/vnd.sap.adt.blues.v1+xml",
    template=_behavior_definition,
    # Every behavior definition of the RAP reference scenario (53 on the 2023 and cloud
    # branches) is stored with LF line ends, its other CDS-family sources with CRLF.
    line_break="\n",
)

KINDS = (BDEF,)
