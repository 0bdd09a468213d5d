"""Service definitions (``SRVD/SRV``): ``define service … { expose … }``; abapGit
``<name>.srvd.srvdsrv`` with ``.srvd.xml`` (``DESCRIPTION``)."""

from __future__ import annotations

from ..model import ADT, Kind, mt
from .source_kind import VerbatimSourceKind

SRVD = Kind(
    code="SRVD/SRV",
    r3tr="SRVD",
    collection=f"{ADT}/ddic/srvd/sources",
    root="srvd:srvdSource",
    namespace="http://www.sap.com/adt/ddic/srvdsources",
    media_types=mt("ddic.srvd.v1"),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Service Definition",
    resource_word="SRVD",
    lock_word="SRVD",
    tree_node_id=140,
    tree_category="business_services",
    tree_label="Service Definitions",
    vit="srvdsrv",
    language="abap-srvd",
    verbatim=True,
)


class ServiceDefinitionKind(VerbatimSourceKind):
    kinds = (SRVD,)
    main_files = ("srvd.srvdsrv",)
    dependency_patterns = (r"\bexpose\s+{name}",)
    validation_paths = ("ddic/srvd/sources/validation",)
    companion_files = ("srvd.xml",)
    description_path = "//DESCRIPTION"
    root_attributes = (("srvd:srvdSourceType", "S"),)


MODULE = ServiceDefinitionKind()
