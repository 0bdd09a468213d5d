"""CDS data definitions (``DDLS/DF``): view entities, classic views, abstract and custom entities,
table functions, projections and extensions; abapGit ``<name>.ddls.asddls`` with ``.ddls.xml``
(``DDTEXT``) and ``.ddls.baseinfo`` (the data sources a system derives on activation)."""

from __future__ import annotations

from ..model import ADT, Kind, mt
from .source_kind import VerbatimSourceKind

DDLS = Kind(
    code="DDLS/DF",
    r3tr="DDLS",
    collection=f"{ADT}/ddic/ddl/sources",
    root="ddl:ddlSource",
    namespace="http://www.sap.com/adt/ddic/ddlsources",
    media_types=mt("ddlSource", "ddlSource.v2"),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Data Definition",
    resource_word="DDL SOURCE",
    lock_word="DDL SOURCE",
    tree_node_id=120,
    tree_category="core_data_services",
    tree_label="Data Definitions",
    vit="ddlsdf",
    language="abap-cds",
    verbatim=True,
)


class DataDefinitionKind(VerbatimSourceKind):
    kinds = (DDLS,)
    main_files = ("ddls.asddls",)
    dependency_patterns = (
        r"\bfrom\s+{name}",
        r"\bjoin\s+{name}",
        r"\bassociation\s*(?:\[[^\]]*\])?\s*to\s+(?:parent\s+)?{name}",
        r"\bcomposition\s*(?:\[[^\]]*\])?\s*of\s+{name}",
        r"\bprojection\s+on\s+{name}",
        r"\bextend\s+view\s+(?:entity\s+)?{name}",
    )
    validation_paths = ("ddic/ddl/validation",)
    companion_files = (
        "ddls.xml",
        "ddls.baseinfo",
    )
    description_path = "//DDTEXT"
    root_attributes = (
        ("ddl:source_origin", "0"),
        ("ddl:source_type", "view"),
        ("ddl:source_origin_description", "ABAP development tools"),
    )


MODULE = DataDefinitionKind()
