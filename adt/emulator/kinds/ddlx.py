"""CDS metadata extensions (``DDLX/EX``): ``annotate entity … with { … }``; abapGit
``<name>.ddlx.asddlxs`` with ``.ddlx.xml`` (``DDTEXT``)."""

from __future__ import annotations

from ..model import ADT, Kind, mt
from .source_kind import VerbatimSourceKind

DDLX = Kind(
    code="DDLX/EX",
    r3tr="DDLX",
    collection=f"{ADT}/ddic/ddlx/sources",
    root="ddlx:ddlxSource",
    namespace="http://www.sap.com/adt/ddic/ddlxsources",
    media_types=mt("ddic.ddlx.v1"),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Metadata Extension",
    resource_word="DDLX",
    lock_word="DDLX",
    tree_node_id=122,
    tree_category="core_data_services",
    tree_label="Metadata Extensions",
    vit="ddlxex",
    language="abap-cds",
    verbatim=True,
)


class MetadataExtensionKind(VerbatimSourceKind):
    kinds = (DDLX,)
    main_files = ("ddlx.asddlxs",)
    dependency_patterns = (r"\bannotate\s+(?:entity|view)\s+{name}",)
    validation_paths = ("ddic/ddlx/sources/validation",)
    companion_files = ("ddlx.xml",)
    description_path = "//DDTEXT"


MODULE = MetadataExtensionKind()
