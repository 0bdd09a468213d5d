"""The CDS and RAP source kinds: data definitions, metadata extensions, access controls,
behavior definitions and service definitions. A system creates them with an empty source;
the templates are the first text an editor writes (placeholders in angle brackets, as the
wizards of ADT leave them for the developer)."""

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


def _metadata_extension(name: str, description: str) -> str:
    return f"@Metadata.layer: #CORE\nannotate entity {name} with\n{{\n}}"


def _access_control(name: str, description: str) -> str:
    return (
        f"@EndUserText.label: '{description}'\n"
        "@MappingRole: true\n"
        f"define role {name} {{\n"
        "  grant select on <entity>\n"
        "    where ( <field> ) = aspect pfcg_auth( <object>, <auth_field>, ACTVT = '03' );\n"
        "}"
    )


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


def _service_definition(name: str, description: str) -> str:
    return f"@EndUserText.label: '{description}'\ndefine service {name} {{\n  expose <entity>;\n}}"


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
)
DDLX = ObjectKind(
    code="DDLX/EX",
    face_name="metadataExtension",
    collection="ddic/ddlx/sources",
    label="Metadata Extension",
    root="ddlxSource",
    namespace="http://www.sap.com/adt/ddic/ddlxsources",
    prefix="ddlx",
    validation="ddic/ddlx/sources/validation",
    abapgit=("ddlx.asddlxs", "ddlx.xml"),
    language="abap-cds",
    media_type="application/vnd.sap.adt.ddic.ddlx.v1+xml",
    template=_metadata_extension,
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
)
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

KINDS = (DDLS, DDLX, DCLS, BDEF, SRVD)
