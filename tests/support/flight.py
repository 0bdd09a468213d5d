"""The RAP reference scenario (SAP-samples/abap-platform-refscen-flight) as test input.

``ADT_FLIGHT_SCENARIO`` names checkouts (``os.pathsep``-separated); by default the 2023 and
the cloud branch under /work/corpora. Tests that need one skip when it is absent. The
sources are read as abapGit stores them; tables and structures are rendered from their
``.tabl.xml`` into the ``define table`` source form by the emulator's renderer, data
elements read from their ``.dtel.xml``.
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from adt.abap.cds.catalog import Catalog, CatalogObject, DataElement
from adt.abap.cds.parse import parse
from adt.abap.cds.pool import handled
from adt.emulator.kinds.base import parse_xml
from adt.emulator.kinds.tabl_source import table_source as _table_source

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


def table_source(path: Path) -> str:
    """The ``define table``/``define structure``/``extend type`` source of a TABL, as the
    emulator serves it."""
    tree = parse_xml(path)
    assert tree is not None, path
    return _table_source(tree)[1]


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


def class_sources(root: Path) -> dict[str, list[Path]]:
    """Class name → its ABAP files (main, local definitions and implementations, tests)."""
    found: dict[str, list[Path]] = {}
    for path in sorted(root.rglob("*.clas*.abap")):
        found.setdefault(object_name(path), []).append(path)
    return found


def handler_reader(root: Path) -> Callable[[str], set[str] | None]:
    """The handler methods a class of the checkout declares, by class name."""
    sources = class_sources(root)

    def handlers(name: str) -> set[str] | None:
        files = sources.get(name)
        return handled(read(path) for path in files) if files else None

    return handlers


def catalog(root: Path) -> Catalog:
    """The scenario's catalog: its objects, data elements, classes and the handler methods
    of each class (read when the check asks)."""
    elements = [data_element(path) for path in sorted(root.rglob("*.dtel.xml"))]
    classes = [object_name(path) for path in root.rglob("*.clas.xml")]
    return Catalog(objects(root), elements, classes, handler_reader(root))
