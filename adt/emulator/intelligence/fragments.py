"""``GET /sap/bc/adt/urifragmentmappings?uri=<source>#type=T;name=N``: a symbolic place
(the form where-used rows and outlines use) turned into ``<source>#start=L,C``.

Modelled types: method implementations (``CLAS/OM``; ``INTF/IO`` names the declaration),
class components (``CLAS/OA``, ``CLAS/OT``, ``CLAS/OE`` …), definition sections
(``CLAS/OSU``, ``CLAS/OSO``, ``CLAS/OSI``), global data (``PROG/PD``, ``FUGR/PD``), forms
(``PROG/PU``), function modules (``FUGR/FF``) and event blocks (``PROG/PE``).
"""

from __future__ import annotations

import re

from adt.abap.index import ProgramIndex
from adt.abap.symbols import Location, ScopeKind, Symbol

from .elements import wb_type

_SECTIONS = {"CLAS/OSU": "PUBLIC", "CLAS/OSO": "PROTECTED", "CLAS/OSI": "PRIVATE"}


def parse_fragment(fragment: str) -> tuple[str, str]:
    """``type=CLAS%2FOM;name=RUN`` → ``("CLAS/OM", "RUN")``."""
    values: dict[str, str] = {}
    for item in fragment.split(";"):
        key, _, value = item.partition("=")
        values[key.strip().lower()] = value.replace("%2F", "/").replace("%2f", "/")
    name = values.get("name", "").replace("%7e", "~").replace("%7E", "~")
    return values.get("type", "").upper(), name.upper()


def locate(index: ProgramIndex, unit: str, kind: str, name: str) -> Location | None:
    """Where ``name`` of workbench type ``kind`` is written in ``unit``."""
    if kind == "CLAS/OM":
        return _method_implementation(index, unit, name)
    if kind in _SECTIONS:
        return _statement(index, unit, rf"{_SECTIONS[kind]}\s+SECTION")
    if kind == "PROG/PE":
        return _statement(index, unit, re.escape(name).replace(r"\-", "-"))
    for occurrence in index.declarations():
        symbol = occurrence.symbol
        if symbol.name == name and wb_type(symbol) == kind and _in(symbol, unit):
            return symbol.location
    return None


def _in(symbol: Symbol, unit: str) -> bool:
    return symbol.location is not None and symbol.location.unit == unit


def _method_implementation(index: ProgramIndex, unit: str, name: str) -> Location | None:
    for region in index.regions:
        method = region.scope.kind is ScopeKind.METHOD and region.scope.name == name
        if region.unit == unit and method:
            text = index.line_text(unit, region.first).upper()
            column = text.find(name.split("~")[0], text.find("METHOD") + 6)
            return Location(unit, region.first, max(column, 0))
    return None


def _statement(index: ProgramIndex, unit: str, words: str) -> Location | None:
    pattern = re.compile(rf"^(\s*){words}\s*\.", re.IGNORECASE)
    for number, text in enumerate(index.lines.get(unit, []), start=1):
        match = pattern.match(text)
        if match:
            return Location(unit, number, len(match.group(1)))
    return None
