"""Domains (``DOMA/DD``): A4H capture ``845`` — ``doma:domain`` with type, output and value
information (fixed values, value table); abapGit ``<name>.doma.xml`` (``DD01V``, ``DD07V``)."""

from __future__ import annotations

from lxml import etree

from ..model import ADT, Kind, RepoObject, mt
from .base import NewSpec
from .metadata_kind import MetadataKind, element, text_of

DOMA = Kind(
    code="DOMA/DD",
    r3tr="DOMA",
    collection=f"{ADT}/ddic/domains",
    root="doma:domain",
    namespace="http://www.sap.com/dictionary/domain",
    media_types=mt("domains.v2", "domains.v1"),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Domain",
    resource_word="DOMAIN",
    lock_word="DOMAIN",
    tree_node_id=138,
    tree_category="dictionary",
    tree_label="Domains",
    vit="domadd",
    language="xml",
    source_based=False,
    verbatim=True,
)


def _flag(value: str) -> str:
    return "true" if value else "false"


def domain_content(
    values: dict[str, str], fixed: list[tuple[str, str, str, str]], value_table: str = ""
) -> str:
    """``doma:content``; ``fixed`` holds ``(position, low, high, text)``."""
    type_info = (
        element("doma:datatype", values.get("datatype", "CHAR"))
        + element("doma:length", values.get("length", "1").zfill(6))
        + element("doma:decimals", values.get("decimals", "0").zfill(6))
    )
    output = (
        element("doma:length", values.get("outputLength", values.get("length", "1")).zfill(6))
        + element("doma:style", "00")
        + element("doma:conversionExit", values.get("conversionExit", ""))
        + element("doma:signExists", _flag(values.get("sign", "")))
        + element("doma:lowercase", _flag(values.get("lowercase", "")))
        + element("doma:ampmFormat", "false")
    )
    rows = "".join(
        "<doma:fixValue>"
        + element("doma:position", position.zfill(4))
        + element("doma:low", low)
        + element("doma:high", high)
        + element("doma:text", text)
        + "</doma:fixValue>"
        for position, low, high, text in fixed
    )
    table = (
        f'<doma:valueTableRef adtcore:uri="{ADT}/ddic/tables/{value_table.lower()}" '
        f'adtcore:type="TABL/DT" adtcore:name="{value_table}"/>'
        if value_table
        else "<doma:valueTableRef/>"
    )
    value_info = (
        table
        + element("doma:appendExists", "false")
        + (f"<doma:fixValues>{rows}</doma:fixValues>" if rows else "<doma:fixValues/>")
    )
    return (
        f'<doma:content xmlns:doma="{DOMA.namespace}" xmlns:adtcore="http://www.sap.com/adt/core">'
        f"<doma:typeInformation>{type_info}</doma:typeInformation>"
        f"<doma:outputInformation>{output}</doma:outputInformation>"
        f"<doma:valueInformation>{value_info}</doma:valueInformation></doma:content>"
    )


class DomainKind(MetadataKind):
    kinds = (DOMA,)
    documentation_code = "do"
    main_files = ("doma.xml",)
    validation_paths = ("ddic/domains/validation",)

    def from_abapgit(self, tree: etree._ElementTree) -> tuple[str, str]:
        def get(field: str) -> str:
            return text_of(tree, f".//DD01V/{field}")

        values = {
            "datatype": get("DATATYPE"),
            "length": get("LENG") or "0",
            "decimals": get("DECIMALS") or "0",
            "outputLength": get("OUTPUTLEN") or get("LENG") or "0",
            "conversionExit": get("CONVEXIT"),
            "sign": get("SIGNFLAG"),
            "lowercase": get("LOWERCASE"),
        }
        fixed = [
            (
                row.findtext("VALPOS") or "",
                row.findtext("DOMVALUE_L") or "",
                row.findtext("DOMVALUE_H") or "",
                row.findtext("DDTEXT") or "",
            )
            for row in tree.iterfind(".//DD07V_TAB/DD07V")
        ]
        return get("DDTEXT"), domain_content(values, fixed, get("ENTITYTAB"))

    def new_content(self, obj: RepoObject, spec: NewSpec) -> str:
        return domain_content({}, [])


MODULE = DomainKind()
