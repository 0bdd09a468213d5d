"""The ``define table`` / ``define structure`` source a system since 7.52 serves for a
dictionary table, generated from abapGit's ``.tabl.xml`` (``DD02V`` header, ``DD03P``
fields). The layout follows A4H captures ``814`` (``T000``) and ``837``: header
annotations, one field per line with the names padded to one column, includes, an empty
line before the closing brace."""

from __future__ import annotations

from lxml import etree

_ENHANCEMENT = {
    "0": "#NOT_CLASSIFIED",
    "1": "#NOT_EXTENSIBLE",
    "2": "#EXTENSIBLE_CHARACTER",
    "3": "#EXTENSIBLE_CHARACTER_NUMERIC",
    "4": "#EXTENSIBLE_ANY",
}
_MAINTENANCE = {"": "#RESTRICTED", "X": "#ALLOWED", "N": "#NOT_ALLOWED"}
_CATEGORY = {"TRANSP": "#TRANSPARENT", "CLUSTER": "#CLUSTER", "POOL": "#POOL"}
#: Built-in types written without a length (``abap.dats``).
_NO_LENGTH = {
    "CLNT",
    "DATS",
    "TIMS",
    "INT1",
    "INT2",
    "INT4",
    "INT8",
    "LANG",
    "FLTP",
    "STRING",
    "RAWSTRING",
    "UTCLONG",
    "DATN",
    "TIMN",
    "ACCP",
    "PREC",
    "D16N",
    "D34N",
}
_DECIMALS = {"DEC", "CURR", "QUAN", "D16D", "D34D"}


def _text(node: etree._Element, name: str) -> str:
    return (node.findtext(name) or "").strip()


def _number(value: str) -> str:
    return str(int(value)) if value.isdigit() else value


def _type(field: etree._Element) -> str:
    rollname = _text(field, "ROLLNAME")
    if rollname:
        return rollname.lower()
    datatype = _text(field, "DATATYPE").upper()
    if datatype in _NO_LENGTH:
        return f"abap.{datatype.lower()}"
    length = _number(_text(field, "LENG") or "0")
    if datatype in _DECIMALS:
        return f"abap.{datatype.lower()}({length},{_number(_text(field, 'DECIMALS') or '0')})"
    return f"abap.{datatype.lower()}({length})"


def _field_lines(field: etree._Element, table: str, width: int) -> list[str]:
    name = _text(field, "FIELDNAME").lower()
    if name == ".include" or name.startswith(".include"):
        include = _text(field, "PRECFIELD").lower()
        group = _text(field, "GROUPNAME").lower()
        named = f" as {group}" if group else ""
        return [f"  include {include}{named};"]
    if name.startswith((".append", ".inclu-")):
        return []  # an append's own field list is its own object (``extend type``)
    lines: list[str] = []
    reftable, reffield = _text(field, "REFTABLE").lower(), _text(field, "REFFIELD").lower()
    datatype = _text(field, "DATATYPE").upper()
    if reffield:
        anno = "quantity.unitOfMeasure" if datatype == "QUAN" else "amount.currencyCode"
        lines.append(f"  @Semantics.{anno} : '{reftable or table}.{reffield}'")
    key = "key " if _text(field, "KEYFLAG") == "X" else ""
    label = f"{key}{name}".ljust(width)
    not_null = " not null" if _text(field, "NOTNULL") == "X" else ""
    lines.append(f"  {label} : {_type(field)}{not_null};")
    return lines


def table_source(tree: etree._ElementTree) -> tuple[str, str, bool]:
    """``(description, source, is_structure)`` of a ``.tabl.xml``."""
    header = tree.find(".//DD02V")
    if header is None:
        raise ValueError("no DD02V header")
    name = _text(header, "TABNAME").lower()
    description = _text(header, "DDTEXT")
    category = _text(header, "TABCLASS").upper()
    structure = category in ("INTTAB", "APPEND")
    lines = [f"@EndUserText.label : '{description}'"]
    enhancement = _ENHANCEMENT.get(_text(header, "EXCLASS"), "#NOT_CLASSIFIED")
    lines.append(f"@AbapCatalog.enhancementCategory : {enhancement}")
    if not structure:
        lines.append(f"@AbapCatalog.tableCategory : {_CATEGORY.get(category, '#TRANSPARENT')}")
        lines.append(f"@AbapCatalog.deliveryClass : #{_text(header, 'CONTFLAG') or 'A'}")
        maintenance = _MAINTENANCE.get(_text(header, "MATEFLAG"), "#RESTRICTED")
        lines.append(f"@AbapCatalog.dataMaintenance : {maintenance}")
    if category == "APPEND":  # an append structure is served as the extension it is
        lines.append(f"extend type {_text(header, 'SQLTAB').lower()} with {name} {{")
    else:
        lines.append(f"define {'structure' if structure else 'table'} {name} {{")
    fields = list(tree.iterfind(".//DD03P_TABLE/DD03P"))
    plain = [f for f in fields if not _text(f, "FIELDNAME").startswith(".")]
    width = max(
        (len(_text(f, "FIELDNAME")) + (4 if _text(f, "KEYFLAG") == "X" else 0) for f in plain),
        default=0,
    )
    for field in fields:
        lines += _field_lines(field, name, width)
    lines += ["", "}"]
    return description, "\n".join(lines), structure


def new_table_source(name: str, description: str, *, structure: bool) -> str:
    """What a system generates for a new table (a client key) or structure (one component)."""
    lower = name.lower()
    if structure:
        return "\n".join(
            [
                f"@EndUserText.label : '{description}'",
                "@AbapCatalog.enhancementCategory : #NOT_EXTENSIBLE",
                f"define structure {lower} {{",
                "  component_to_be_changed : abap.string(0);",
                "",
                "}",
            ]
        )
    return "\n".join(
        [
            f"@EndUserText.label : '{description}'",
            "@AbapCatalog.enhancementCategory : #NOT_EXTENSIBLE",
            "@AbapCatalog.tableCategory : #TRANSPARENT",
            "@AbapCatalog.deliveryClass : #A",
            "@AbapCatalog.dataMaintenance : #RESTRICTED",
            f"define table {lower} {{",
            "  key client : abap.clnt not null;",
            "",
            "}",
        ]
    )


__all__ = ["new_table_source", "table_source"]
