"""Table types (``TTYP/DA``): no source form on the systems this emulator models; the
metadata document ``ttyp:tableType`` has the row type, initial row count, access, primary
key, secondary keys and value helps in the shape public clients write back
(docs/protocol/cds-rap-dictionary.md); abapGit ``<name>.ttyp.xml`` (``DD40V``, key fields in
``DD42V``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lxml import etree

from ..documents.common import NS_ADTCORE
from ..model import ADT, Kind, RepoObject, mt
from ..xmlwriter import DECL, tag
from .base import NewSpec
from .metadata_kind import MetadataKind, element, inline, text_of
from .source_kind import core_attributes, package_reference

if TYPE_CHECKING:
    from ..documents import ObjectView
    from .base import SystemState

TTYP = Kind(
    code="TTYP/DA",
    r3tr="TTYP",
    collection=f"{ADT}/ddic/tabletypes",
    root="ttyp:tableType",
    namespace="http://www.sap.com/dictionary/tabletype",
    media_types=mt("tabletype.v1", "tabletypes.v2"),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Table Type",
    resource_word="TABLE TYPE",
    lock_word="TABLE TYPE",
    tree_node_id=134,
    tree_category="dictionary",
    tree_label="Table Types",
    vit="ttypda",
    language="xml",
    source_based=False,
    verbatim=True,
)

_ACCESS = {"T": "standard", "S": "sorted", "H": "hashed", "I": "index", "A": "notSpecified"}
_KEYS = {"D": "standard", "T": "rowType", "K": "keyComponents", "E": "empty"}
_KINDS = {"U": "unique", "N": "nonUnique"}
_ROW_KINDS = {"S": "dictionaryType", "E": "dictionaryType", "L": "dictionaryType"}
#: The value helps a real table type document lists (the values of its fields).
_VALUE_HELPS = {
    "typeKindValues": (
        ("dictionaryType", "Dictionary Type"),
        ("predefinedAbapType", "Predefined Type"),
        ("refToPredefinedAbapType", "Reference to Predefined Type"),
        ("refToDictionaryType", "Reference to Dictionary Type"),
        ("refToClassOrInterfaceType", "Reference to Class/Interface"),
        ("rangeTypeOnPredefinedType", "Range Table on Predefined Type"),
        ("rangeTypeOnDataelement", "Range Table on Data Element"),
    ),
    "keyDefinitionValues": (
        ("standard", "Standard Key"),
        ("rowType", "Row Type"),
        ("keyComponents", "Key Components"),
        ("empty", "Empty Key"),
        ("notSpecified", "Not Specified"),
    ),
    "keyKindValues": (
        ("unique", "Unique"),
        ("nonUnique", "Non-Unique"),
        ("notSpecified", "Not Specified"),
    ),
    "accessTypeValues": (
        ("standard", "Standard Table"),
        ("sorted", "Sorted Table"),
        ("hashed", "Hashed Table"),
        ("index", "Index Table"),
        ("notSpecified", "Not Specified"),
    ),
}


@dataclass(frozen=True)
class TableType:
    """What a table type document says: its row type, access and primary key."""

    type_name: str = ""
    type_kind: str = "dictionaryType"
    built_in: tuple[str, str, str] = ("", "0", "0")  # data type, length, decimals
    access: str = "standard"
    key_definition: str = "standard"
    key_kind: str = "nonUnique"
    components: tuple[str, ...] = ()


def _value_helps() -> str:
    groups = "".join(
        tag(
            f"ttyp:{group}",
            (),
            "".join(
                tag(
                    "ttyp:valueHelp",
                    [("ttyp:key", key), ("ttyp:value", value), ("ttyp:description", "")],
                )
                for key, value in values
            ),
        )
        for group, values in _VALUE_HELPS.items()
    )
    return tag("ttyp:valueHelps", (), groups)


def table_type(spec: TableType) -> str:
    """The content elements of a table type document, in the shape the public clients
    send back (fr0ster/mcp-abap-adt-clients ``src/core/tabletype/update.ts``)."""
    data_type, length, decimals = spec.built_in
    built_in = element("ttyp:dataType", data_type) + element("ttyp:length", length)
    row = (
        element("ttyp:typeKind", spec.type_kind)
        + element("ttyp:typeName", spec.type_name)
        + tag("ttyp:builtInType", (), built_in + element("ttyp:decimals", decimals))
        + "<ttyp:rangeType/>"
    )
    components = "".join(tag("ttyp:component", [("ttyp:name", c)]) for c in spec.components)
    visible = [("ttyp:isVisible", "true"), ("ttyp:isEditable", "true")]
    key = (
        element("ttyp:definition", spec.key_definition)
        + element("ttyp:kind", spec.key_kind)
        + tag(
            "ttyp:components",
            [("ttyp:isVisible", "true" if components else "false")],
            components,
        )
        + "<ttyp:alias/>"
    )
    body = (
        tag("ttyp:rowType", (), row)
        + element("ttyp:initialRowCount", "0")
        + element("ttyp:accessType", spec.access)
        + tag("ttyp:primaryKey", visible, key)
        + tag("ttyp:secondaryKeys", visible, element("ttyp:allowed", "notSpecified"))
        + _value_helps()
    )
    return body


class TableTypeKind(MetadataKind):
    kinds = (TTYP,)
    main_files = ("ttyp.xml",)
    validation_paths = ("ddic/tabletypes/validation",)

    def from_abapgit(self, tree: etree._ElementTree) -> tuple[str, str]:
        def get(field: str) -> str:
            return text_of(tree, f".//DD40V/{field}")

        row_kind = _ROW_KINDS.get(get("ROWKIND"), "predefinedAbapType")
        built_in = ("", "0", "0")
        if row_kind == "predefinedAbapType":
            built_in = (get("DATATYPE"), str(int(get("LENG") or 0)), str(int(get("DECIMALS") or 0)))
        keys = tuple(row.findtext("KEYFIELD") or "" for row in tree.iterfind(".//DD42V/DD42V"))
        spec = TableType(
            type_name=get("ROWTYPE") if row_kind == "dictionaryType" else "",
            type_kind=row_kind,
            built_in=built_in,
            access=_ACCESS.get(get("ACCESSMODE"), "standard"),
            key_definition=_KEYS.get(get("KEYDEF"), "standard"),
            key_kind=_KINDS.get(get("KEYKIND"), "notSpecified"),
            components=keys if get("KEYDEF") == "K" else (),
        )
        return get("DDTEXT"), table_type(spec)

    def document(self, view: ObjectView, state: SystemState) -> str:
        obj = view.obj
        attrs: list[tuple[str, str | None]] = [
            *core_attributes(view, created_at=False),
            ("xmlns:ttyp", TTYP.namespace),
            ("xmlns:adtcore", NS_ADTCORE),
        ]
        content = inline(view.main_text, ("ttyp", TTYP.namespace), ("adtcore", NS_ADTCORE))
        body = self.links(obj) + package_reference(obj, state, package_name=False) + content
        return DECL + tag(TTYP.root, attrs, body)

    def new_content(self, obj: RepoObject, spec: NewSpec) -> str:
        return table_type(TableType(type_kind="predefinedAbapType", key_kind="notSpecified"))


MODULE = TableTypeKind()
