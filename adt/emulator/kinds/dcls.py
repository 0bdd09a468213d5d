"""CDS access controls (``DCLS/DL``): ``define role … { grant select on … where … }``; abapGit
``<name>.dcls.asdcls`` with ``.dcls.xml`` (``DDTEXT``)."""

from __future__ import annotations

from ..model import ADT, Kind, mt
from .source_kind import VerbatimSourceKind

DCLS = Kind(
    code="DCLS/DL",
    r3tr="DCLS",
    collection=f"{ADT}/acm/dcl/sources",
    root="dcl:dclSource",
    namespace="http://www.sap.com/adt/acm/dclsources",
    media_types=mt("dclSource"),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Access Control",
    resource_word="DCLS",
    lock_word="DCLS",
    tree_node_id=124,
    tree_category="core_data_services",
    tree_label="Access Controls",
    vit="dclsdl",
    language="abap-cds",
    verbatim=True,
)


class AccessControlKind(VerbatimSourceKind):
    kinds = (DCLS,)
    main_files = ("dcls.asdcls",)
    dependency_patterns = (r"\bgrant\s+select\s+on\s+{name}",)
    validation_paths = ("acm/dcl/validation",)
    companion_files = ("dcls.xml",)
    description_path = "//DDTEXT"


MODULE = AccessControlKind()
