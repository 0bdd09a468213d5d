"""Data elements (``DTEL/DE``): A4H capture ``844`` — root ``blue:wbobj`` with the
``dtel:dataElement`` content (type, labels with their lengths, search help, flags; numbers
zero-padded as on the wire); abapGit ``<name>.dtel.xml`` (``DD04V``)."""

from __future__ import annotations

from lxml import etree

from ..model import ADT, Kind, RepoObject, mt
from .base import NewSpec
from .metadata_kind import MetadataKind, element, text_of

NS_DTEL = "http://www.sap.com/adt/dictionary/dataelements"

DTEL = Kind(
    code="DTEL/DE",
    r3tr="DTEL",
    collection=f"{ADT}/ddic/dataelements",
    root="blue:wbobj",
    namespace="http://www.sap.com/wbobj/dictionary/dtel",
    media_types=(*mt("dataelements.v2", "dataelements.v1"), "application/vnd.sap.adt.blues.v1+xml"),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Data Element",
    resource_word="DATA ELEMENT",
    lock_word="DATA ELEMENT",
    tree_node_id=136,
    tree_category="dictionary",
    tree_label="Data Elements",
    vit="dtelde",
    language="xml",
    source_based=False,
    verbatim=True,
)

#: ``(label element, abapGit text field, abapGit length field, maximum length)``.
LABELS = (
    ("shortField", "SCRTEXT_S", "SCRLEN1", 10),
    ("mediumField", "SCRTEXT_M", "SCRLEN2", 20),
    ("longField", "SCRTEXT_L", "SCRLEN3", 40),
    ("headingField", "REPTEXT", "HEADLEN", 55),
)


def data_element(values: dict[str, str]) -> str:
    """The ``dtel:dataElement`` content from flat values (the keys are the element names)."""
    parts = [
        element("dtel:typeKind", values.get("typeKind", "predefinedAbapType")),
        element("dtel:typeName", values.get("typeName", "")),
        element("dtel:dataType", values.get("dataType", "CHAR")),
        element("dtel:dataTypeLength", values.get("dataTypeLength", "000000").zfill(6)),
        element("dtel:dataTypeDecimals", values.get("dataTypeDecimals", "000000").zfill(6)),
    ]
    for field, _text, _length, maximum in LABELS:
        label = values.get(f"{field}Label", "")
        parts += [
            element(f"dtel:{field}Label", label),
            element(f"dtel:{field}Length", values.get(f"{field}Length", str(len(label))).zfill(2)),
            element(f"dtel:{field}MaxLength", str(maximum)),
        ]
    for name in ("searchHelp", "searchHelpParameter", "setGetParameter", "defaultComponentName"):
        parts.append(element(f"dtel:{name}", values.get(name, "")))
    for flag in (
        "deactivateInputHistory",
        "changeDocument",
        "leftToRightDirection",
        "deactivateBIDIFiltering",
    ):
        parts.append(element(f"dtel:{flag}", values.get(flag, "false")))
    return f'<dtel:dataElement xmlns:dtel="{NS_DTEL}">{"".join(parts)}</dtel:dataElement>'


class DataElementKind(MetadataKind):
    kinds = (DTEL,)
    documentation_code = "de"
    main_files = ("dtel.xml",)
    validation_paths = ("ddic/dataelements/validation",)

    def from_abapgit(self, tree: etree._ElementTree) -> tuple[str, str]:
        def get(field: str) -> str:
            return text_of(tree, f".//DD04V/{field}")

        domain = get("DOMNAME")
        values = {
            "typeKind": "domain" if domain else "predefinedAbapType",
            "typeName": domain,
            "dataType": get("DATATYPE"),
            "dataTypeLength": get("LENG") or "0",
            "dataTypeDecimals": get("DECIMALS") or "0",
            "searchHelp": get("SHLPNAME"),
            "searchHelpParameter": get("SHLPFIELD"),
            "setGetParameter": get("MEMORYID"),
            "defaultComponentName": get("DEFFDNAME"),
            "changeDocument": "true" if get("LOGFLAG") else "false",
        }
        for field, text, length, _maximum in LABELS:
            values[f"{field}Label"] = get(text)
            values[f"{field}Length"] = get(length) or str(len(get(text)))
        return get("DDTEXT"), data_element(values)

    def new_content(self, obj: RepoObject, spec: NewSpec) -> str:
        return data_element({})


MODULE = DataElementKind()
