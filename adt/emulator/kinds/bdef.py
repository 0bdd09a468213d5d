"""RAP behavior definitions (``BDEF/BDO``): the ``blue`` (workbench object) family; abapGit
``<name>.bdef.asbdef`` with ``.bdef.xml`` (``DESCRIPTION``)."""

from __future__ import annotations

from ..model import ADT, Kind, mt
from .source_kind import VerbatimSourceKind

BDEF = Kind(
    code="BDEF/BDO",
    r3tr="BDEF",
    collection=f"{ADT}/bo/behaviordefinitions",
    root="blue:blueSource",
    namespace="http://www.sap.com/wbobj/blue",
    media_types=mt("blues.v1"),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Behavior Definition",
    resource_word="BDEF",
    lock_word="BDEF",
    tree_node_id=126,
    tree_category="core_data_services",
    tree_label="Behavior Definitions",
    vit="bdefbdo",
    language="abap-bdef",
    verbatim=True,
)


class BehaviorDefinitionKind(VerbatimSourceKind):
    kinds = (BDEF,)
    main_files = ("bdef.asbdef",)
    dependency_patterns = (
        r"\bdefine\s+behavior\s+for\s+{name}",
        r"\bpersistent\s+table\s+{name}",
    )
    validation_paths = ("bo/behaviordefinitions/validation",)
    companion_files = ("bdef.xml",)
    description_path = "//DESCRIPTION"


MODULE = BehaviorDefinitionKind()
