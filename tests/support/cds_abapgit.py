"""Our CDS samples (:mod:`support.cds_samples`) as an abapGit folder the emulator seeds:
sources in their files with a ``.xml`` description, tables and structures as ``.tabl.xml``
(built from the sample's ``define table`` text), data elements as ``.dtel.xml``."""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from adt.abap.cds.parse import parse
from support import cds_samples as s

_SUFFIX = {
    "DDLS": ("ddls.asddls", "DDLS", "DD02V"),
    "DDLX": ("ddlx.asddlxs", "DDLX", "DDLXV"),
    "DCLS": ("dcls.asdcls", "DCLS", "DCLSV"),
    "BDEF": ("bdef.asbdef", "BDEF", "BDEFV"),
    "SRVD": ("srvd.srvdsrv", "SRVD", "SRVDV"),
}
_HEAD = (
    '<?xml version="1.0" encoding="utf-8"?>\n<abapGit version="v1.0.0" serializer="LCL_OBJECT_{t}"'
    ' serializer_version="v1.0.0">\n <asx:abap xmlns:asx="http://www.sap.com/abapxml" '
    'version="1.0">\n  <asx:values>\n{body}  </asx:values>\n </asx:abap>\n</abapGit>\n'
)
PACKAGE = (
    '<?xml version="1.0" encoding="utf-8"?>\n<abapGit version="v1.0.0" serializer="LCL_OBJECT_DEVC"'
    ' serializer_version="v1.0.0">\n <asx:abap xmlns:asx="http://www.sap.com/abapxml" '
    'version="1.0">\n  <asx:values>\n   <DEVC>\n    <CTEXT>CDS samples</CTEXT>\n   </DEVC>\n'
    "  </asx:values>\n </asx:abap>\n</abapGit>\n"
)


def stem(name: str) -> str:
    return name.lower().replace("/", "#")


def _field(name: str, key: bool, typed: str, not_null: bool) -> str:
    lines = [f"     <FIELDNAME>{name.upper()}</FIELDNAME>"]
    if key:
        lines.append("     <KEYFLAG>X</KEYFLAG>")
    if typed.startswith("abap."):
        kind, _, size = typed[5:].partition("(")
        length, _, decimals = size.rstrip(")").partition(",")
        lines.append(f"     <DATATYPE>{kind.upper()}</DATATYPE>")
        lines.append(f"     <LENG>{int(length or 0):06d}</LENG>")
        if decimals:
            lines.append(f"     <DECIMALS>{int(decimals):06d}</DECIMALS>")
    else:
        lines.append(f"     <ROLLNAME>{typed.upper()}</ROLLNAME>")
    if not_null:
        lines.append("     <NOTNULL>X</NOTNULL>")
    return "    <DD03P>\n" + "\n".join(lines) + "\n    </DD03P>\n"


def table_xml(text: str) -> str:
    definition = parse(text, "TABL").definition
    assert definition is not None
    category = "TRANSP" if definition.kind == "table" else "INTTAB"
    fields = "".join(_field(e.name, e.key, e.type, e.not_null) for e in definition.elements)
    fields += "".join(
        f"    <DD03P>\n     <FIELDNAME>.INCLUDE</FIELDNAME>\n     <PRECFIELD>{i.upper()}"
        "</PRECFIELD>\n    </DD03P>\n"
        for i in definition.includes
    )
    body = (
        f"   <DD02V>\n    <TABNAME>{definition.name.upper()}</TABNAME>\n    <TABCLASS>{category}"
        f"</TABCLASS>\n    <DDTEXT>{definition.name}</DDTEXT>\n   </DD02V>\n"
        f"   <DD03P_TABLE>\n{fields}   </DD03P_TABLE>\n"
    )
    return _HEAD.format(t="TABL", body=body)


def data_element_xml(name: str, label: str) -> str:
    body = (
        f"   <DD04V>\n    <ROLLNAME>{name}</ROLLNAME>\n    <DATATYPE>NUMC</DATATYPE>\n"
        f"    <LENG>000008</LENG>\n    <DDTEXT>{escape(label)}</DDTEXT>\n"
        f"    <SCRTEXT_M>{escape(label)}</SCRTEXT_M>\n   </DD04V>\n"
    )
    return _HEAD.format(t="DTEL", body=body)


def _description(kind: str, name: str) -> str:
    _suffix, serializer, header = _SUFFIX[kind]
    body = f"   <{header}>\n    <DDTEXT>{name} sample</DDTEXT>\n   </{header}>\n"
    return _HEAD.format(t=serializer, body=body)


#: The local handler class of the samples' behavior pool: one method per action,
#: determination and validation of ``cds_samples.BEHAVIOR``, and those of its instance
#: authorization and instance feature control.
HANDLERS = """CLASS lhc_travel DEFINITION INHERITING FROM cl_abap_behavior_handler.
  PRIVATE SECTION.
    METHODS accept FOR MODIFY IMPORTING keys FOR ACTION Travel~acceptTravel RESULT result.
    METHODS discount FOR MODIFY IMPORTING keys FOR ACTION Travel~discount RESULT result.
    METHODS set_total FOR DETERMINE ON MODIFY IMPORTING keys FOR Travel~setTotal.
    METHODS validate_agency FOR VALIDATE ON SAVE IMPORTING keys FOR Travel~validateAgency.
    METHODS get_instance_authorizations FOR INSTANCE AUTHORIZATION
      IMPORTING keys REQUEST requested_authorizations FOR Travel RESULT result.
    METHODS get_instance_features FOR INSTANCE FEATURES
      IMPORTING keys REQUEST requested_features FOR Travel RESULT result.
ENDCLASS.

CLASS lhc_travel IMPLEMENTATION.
  METHOD accept.
  ENDMETHOD.
  METHOD discount.
  ENDMETHOD.
  METHOD set_total.
  ENDMETHOD.
  METHOD validate_agency.
  ENDMETHOD.
  METHOD get_instance_authorizations.
  ENDMETHOD.
  METHOD get_instance_features.
  ENDMETHOD.
ENDCLASS.
"""


def write_samples(folder: Path, replace: dict[tuple[str, str], str] | None = None) -> Path:
    """The samples (and a report that selects from them) as an abapGit folder."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "package.devc.xml").write_text(PACKAGE, encoding="utf-8")
    for (name, kind), text in {**s.SAMPLES, **(replace or {})}.items():
        if kind == "TABL":
            (folder / f"{stem(name)}.tabl.xml").write_text(table_xml(text), encoding="utf-8")
            continue
        suffix = _SUFFIX[kind][0]
        (folder / f"{stem(name)}.{suffix}").write_text(text, encoding="utf-8")
        (folder / f"{stem(name)}.{suffix.split('.')[0]}.xml").write_text(
            _description(kind, name), encoding="utf-8"
        )
    for element in s.DATA_ELEMENTS:
        xml = data_element_xml(element.name, element.label)
        (folder / f"{stem(element.name)}.dtel.xml").write_text(xml, encoding="utf-8")
    (folder / "zr_travels.prog.abap").write_text(s.ABAP_REPORT, encoding="utf-8")
    for name in s.CLASSES:
        lower = name.lower()
        source = (
            f"CLASS {lower} DEFINITION PUBLIC ABSTRACT FINAL FOR BEHAVIOR OF zi_travel.\n"
            f"ENDCLASS.\n\nCLASS {lower} IMPLEMENTATION.\nENDCLASS.\n"
        )
        (folder / f"{lower}.clas.abap").write_text(source, encoding="utf-8")
        if name == "ZBP_I_TRAVEL":
            (folder / f"{lower}.clas.locals_imp.abap").write_text(HANDLERS, encoding="utf-8")
        body = f"   <VSEOCLASS>\n    <CLSNAME>{name}</CLSNAME>\n   </VSEOCLASS>\n"
        (folder / f"{lower}.clas.xml").write_text(_HEAD.format(t="CLAS", body=body), "utf-8")
    return folder
