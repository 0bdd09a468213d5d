"""One entry for every language of the family: ``parse(text, language)``.

Languages are keyed by the ADT object type they belong to (``DDLS``, ``DDLX``, ``DCLS``,
``BDEF``, ``SRVD``, ``TABL``) or by the editor language id (``abap-cds``, ``abap-bdef``);
the table below is the only place that knows which parser serves which."""

from __future__ import annotations

from collections.abc import Callable

from adt.abap.cds.bdef import parse_bdef
from adt.abap.cds.ddl import parse_ddl
from adt.abap.cds.model import Source

Parser = Callable[[str], Source]

PARSERS: dict[str, Parser] = {
    "DDLS": lambda text: parse_ddl(text, "ddl"),
    "DDLX": lambda text: parse_ddl(text, "ddlx"),
    "DCLS": lambda text: parse_ddl(text, "dcl"),
    "SRVD": lambda text: parse_ddl(text, "srvd"),
    "TABL": lambda text: parse_ddl(text, "tabl"),
    "BDEF": parse_bdef,
    "abap-cds": lambda text: parse_ddl(text, "ddl"),
    "abap-bdef": parse_bdef,
}


def supports(kind: str) -> bool:
    return kind.upper() in PARSERS or kind in PARSERS


def parse(text: str, kind: str) -> Source:
    """Parse ``text`` as the language of ``kind`` (an object type or a language id)."""
    parser = PARSERS.get(kind) or PARSERS.get(kind.upper())
    if parser is None:
        raise ValueError(f"no CDS-family parser for {kind!r}")
    return parser(text)
