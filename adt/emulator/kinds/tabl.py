"""Dictionary tables (``TABL/DT``, ``/ddic/tables/``) and structures (``TABL/DS``,
``/ddic/structures/``): one abapGit ``<name>.tabl.xml`` each, served as the ``define table``
/ ``define structure`` source of :mod:`.tabl_source` and edited as text. Metadata document
as A4H capture ``453`` (``blue:blueSource``, ``sourceUri`` ``./<name>/source/main``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..documents.common import NS_ABAPSOURCE, NS_ADTCORE, REL
from ..model import ADT, Kind, RepoObject, mt
from ..xmlwriter import DECL, atom_link, tag
from .base import NewSpec, SeedFolder, abapgit_name, parse_xml
from .source_kind import (
    VerbatimSourceKind,
    core_attributes,
    documentation_link,
    package_reference,
)
from .tabl_source import new_table_source, table_source

if TYPE_CHECKING:
    from ..documents import ObjectView
    from .base import SystemState


def _dictionary_kind(
    code: str, path: str, media: str, label: str, word: str, vit: str, node: int
) -> Kind:
    return Kind(
        code=code,
        r3tr="TABL",
        collection=f"{ADT}/ddic/{path}",
        root="blue:blueSource",
        namespace="http://www.sap.com/wbobj/blue",
        media_types=(*mt(media), "application/vnd.sap.adt.blues.v1+xml"),
        text_limit=60,
        keeps_trailing_newlines=False,
        label=label,
        resource_word=word,
        lock_word=word,
        tree_node_id=node,
        tree_category="dictionary",
        tree_label=f"{label}s",
        vit=vit,
        language="abap-ddic",
    )


TABL = _dictionary_kind("TABL/DT", "tables", "tables.v2", "Database Table", "TABLE", "tabldt", 130)
STRU = _dictionary_kind(
    "TABL/DS", "structures", "structures.v2", "Structure", "STRUCTURE", "tablds", 132
)


class TableKind(VerbatimSourceKind):
    kinds = (TABL, STRU)
    main_files = ("tabl.xml",)
    dependency_patterns = (
        r"^\s*include\s+{name}",
        r"^\s*(?:key\s+)?\w+\s*:\s*{name}",
    )
    validation_paths = (
        "ddic/tables/validation",
        "ddic/structures/validation",
    )

    def seed(self, folder: SeedFolder, stem: str, suffix: str) -> list[RepoObject]:
        tree = parse_xml(folder.folder / f"{stem}.{suffix}")
        if tree is None:
            return []
        description, source, structure = table_source(tree)
        obj = folder.new(STRU if structure else TABL, abapgit_name(stem), description)
        folder.unit(obj, "main", source)
        return [obj]

    def document(self, view: ObjectView, state: SystemState) -> str:
        obj = view.obj
        main = view.part("main")
        short = obj.uri.rsplit("/", 1)[1]
        attrs: list[tuple[str, str | None]] = [
            ("abapsource:sourceUri", f"./{short}/source/main"),
            ("abapsource:fixPointArithmetic", "false"),
            ("abapsource:activeUnicodeCheck", "false"),
            *core_attributes(view, created_at=False),
            ("xmlns:blue", obj.kind.namespace),
            ("xmlns:abapsource", NS_ABAPSOURCE),
            ("xmlns:adtcore", NS_ADTCORE),
        ]
        body = (
            atom_link(
                f"./{short}/source/main",
                REL + "source",
                type="text/plain",
                title="Source Content",
                etag=main.etag,
            )
            + atom_link(
                f"./{short}/source/main",
                REL + "source",
                type="text/html",
                title="Source Content (HTML)",
                etag="",
            )
            + atom_link(
                f"./{short}/source/main/versions", REL + "versions", title="Historic versions"
            )
            + atom_link(
                f"/sap/bc/adt/vit/wb/object_type/{obj.kind.vit}/object_name/{obj.name}",
                "self",
                type="application/vnd.sap.sapgui",
                title="Representation in SAP Gui",
            )
            + atom_link(
                f"/sap/bc/adt/ddic/db/settings/{short}",
                REL + "technicalsettings",
                type="application/vnd.sap.adt.table.settings.v1+xml",
                title="Technical Settings",
            )
            + documentation_link(obj, "tb", "edit")
            + atom_link(
                f"/sap/bc/adt/vit/wb/object_type/{obj.kind.vit}/object_name/{obj.name}#view=INDX",
                REL + "indexes",
                type="application/vnd.sap.sapgui",
                title="Index Overview",
            )
            + package_reference(obj, state, package_name=False)
        )
        return DECL + tag(obj.kind.root, attrs, body)

    def template(self, obj: RepoObject, spec: NewSpec) -> dict[str, str]:
        return {"main": new_table_source(obj.name, spec.description, structure=obj.kind is STRU)}


MODULE = TableKind()
