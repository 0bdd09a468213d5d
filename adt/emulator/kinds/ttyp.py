"""Table types (``TTYP/DA``): no source form on the systems this emulator models, so a
metadata document (row type, access, key) the emulator words itself (docs/emulator.md);
abapGit ``<name>.ttyp.xml`` (``DD40V``)."""

from __future__ import annotations

from lxml import etree

from ..model import ADT, Kind, RepoObject, mt
from .base import NewSpec
from .metadata_kind import MetadataKind, element, text_of

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

_ACCESS = {"T": "standard", "S": "sorted", "H": "hashed", "I": "index", "A": "any"}
_KEYS = {"D": "default", "K": "user", "T": "rowType", "E": "empty"}


def table_type(row_type: str, row_kind: str, access: str, key: str, unique: bool) -> str:
    return (
        f'<ttyp:content xmlns:ttyp="{TTYP.namespace}">'
        + element("ttyp:rowType", row_type)
        + element("ttyp:rowTypeKind", row_kind)
        + element("ttyp:accessType", access)
        + element("ttyp:keyDefinition", key)
        + element("ttyp:keyUnique", "true" if unique else "false")
        + "</ttyp:content>"
    )


class TableTypeKind(MetadataKind):
    kinds = (TTYP,)
    main_files = ("ttyp.xml",)
    validation_paths = ("ddic/tabletypes/validation",)

    def from_abapgit(self, tree: etree._ElementTree) -> tuple[str, str]:
        def get(field: str) -> str:
            return text_of(tree, f".//DD40V/{field}")

        kind = {"S": "structure", "E": "dataElement", "L": "tableType"}.get(
            get("ROWKIND"), "predefinedType"
        )
        content = table_type(
            get("ROWTYPE") or get("DATATYPE"),
            kind,
            _ACCESS.get(get("ACCESSMODE"), "standard"),
            _KEYS.get(get("KEYDEF"), "default"),
            get("KEYKIND") == "U",
        )
        return get("DDTEXT"), content

    def new_content(self, obj: RepoObject, spec: NewSpec) -> str:
        return table_type("", "predefinedType", "standard", "default", False)


MODULE = TableTypeKind()
