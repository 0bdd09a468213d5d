"""The RAP reference scenario (SAP-samples/abap-platform-refscen-flight) as test input.

``ADT_FLIGHT_SCENARIO`` names checkouts (``os.pathsep``-separated); by default the 2023 and
the cloud branch under /work/corpora. Tests that need one skip when it is absent. The
sources are read as abapGit stores them; tables, structures and data elements come from
their ``.xml`` metadata, rendered into the ``define table`` source form a system serves.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from pathlib import Path

from adt.abap.cds.catalog import Catalog, CatalogObject, DataElement
from adt.abap.cds.parse import parse

DEFAULTS = ("/work/corpora/flight-2023", "/work/corpora/flight-cloud")
SOURCE_FILES = {
    "DDLS": ".ddls.asddls",
    "DDLX": ".ddlx.asddlxs",
    "DCLS": ".dcls.asdcls",
    "SRVD": ".srvd.srvdsrv",
    "BDEF": ".bdef.asbdef",
}


def checkouts() -> list[Path]:
    """The scenario checkouts configured (present or not)."""
    configured = os.environ.get("ADT_FLIGHT_SCENARIO")
    names = configured.split(os.pathsep) if configured else list(DEFAULTS)
    return [Path(name) for name in names if name]


def object_name(path: Path) -> str:
    return path.name.split(".")[0].replace("#", "/").upper()


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8-sig")


def _values(path: Path) -> ET.Element:
    values = ET.fromstring(read(path)).find(".//{http://www.sap.com/abapxml}values")
    assert values is not None
    return values


def _builtin(row: ET.Element) -> str:
    datatype = (row.findtext("DATATYPE") or "").lower()
    length = int(row.findtext("LENG") or 0)
    decimals = int(row.findtext("DECIMALS") or 0)
    if datatype in ("clnt", "int1", "int2", "int4", "int8", "dats", "tims", "fltp", "string"):
        return f"abap.{datatype}"
    if decimals:
        return f"abap.{datatype}({length},{decimals})"
    return f"abap.{datatype}({length})"


def table_source(path: Path) -> str:
    """The ``define table``/``define structure``/``extend type`` source of a TABL."""
    values = _values(path)
    header = values.find("DD02V")
    assert header is not None
    name = (header.findtext("TABNAME") or "").lower()
    label = header.findtext("DDTEXT") or ""
    form = header.findtext("TABCLASS") or "TRANSP"
    lines = [f"@EndUserText.label : '{label}'"]
    if form == "APPEND":
        lines.append(f"extend type {(header.findtext('SQLTAB') or '').lower()} with {name} {{")
    else:
        lines.append(f"define {'table' if form == 'TRANSP' else 'structure'} {name} {{")
    for row in values.iter("DD03P"):
        field = row.findtext("FIELDNAME") or ""
        if field == ".INCLUDE":
            lines.append(f"  include {(row.findtext('PRECFIELD') or '').lower()};")
            continue
        if field.startswith("."):
            continue
        key = "key " if row.findtext("KEYFLAG") == "X" else ""
        typed = (row.findtext("ROLLNAME") or "").lower() or _builtin(row)
        not_null = " not null" if row.findtext("NOTNULL") == "X" else ""
        lines.append(f"  {key}{field.lower()} : {typed}{not_null};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def data_element(path: Path) -> DataElement:
    header = _values(path).find("DD04V")
    assert header is not None
    typed = header.findtext("DOMNAME") or header.findtext("DATATYPE") or ""
    return DataElement(
        header.findtext("ROLLNAME") or object_name(path),
        typed,
        header.findtext("SCRTEXT_M") or header.findtext("DDTEXT") or "",
    )


def objects(root: Path) -> list[CatalogObject]:
    """Every source-based object of a checkout, parsed."""
    found: list[CatalogObject] = []
    for kind, suffix in SOURCE_FILES.items():
        for path in sorted(root.rglob(f"*{suffix}")):
            found.append(CatalogObject(object_name(path), kind, parse(read(path), kind)))
    for path in sorted(root.rglob("*.tabl.xml")):
        found.append(CatalogObject(object_name(path), "TABL", parse(table_source(path), "TABL")))
    return found


def catalog(root: Path) -> Catalog:
    """The scenario's catalog: its objects, data elements and classes."""
    elements = [data_element(path) for path in sorted(root.rglob("*.dtel.xml"))]
    classes = [object_name(path) for path in root.rglob("*.clas.xml")]
    return Catalog(objects(root), elements, classes)
