"""CDS data definitions (``DDLS/DF``): view entities, classic views, abstract and custom entities,
table functions, projections and extensions; abapGit ``<name>.ddls.asddls`` with ``.ddls.xml``
(``DDTEXT``) and ``.ddls.baseinfo`` (the data sources a system derives on activation)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from adt.abap.cds.tokens import NAME, tokenize

from ..documents.common import NS_ABAPSOURCE, NS_ADTCORE, REL
from ..model import ADT, Kind, mt
from ..xmlwriter import DECL, atom_link, tag
from .source_kind import VerbatimSourceKind, core_attributes, package_reference

if TYPE_CHECKING:
    from ..documents import ObjectView
    from .base import SystemState

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

    def document(self, view: ObjectView, state: SystemState) -> str:
        """As A4H capture ``454``: untyped and HTML source links, the activation logs, the
        versions, the package with its name."""
        obj = view.obj
        etag = view.part("main").etag
        log = f"ACTDDLSI_{obj.name}"
        attrs: list[tuple[str, str | None]] = [
            *self.root_attributes_of(view.main_text),
            ("abapsource:sourceUri", "source/main"),
            ("abapsource:fixPointArithmetic", "false"),
            ("abapsource:activeUnicodeCheck", "false"),
            *core_attributes(view),
            ("xmlns:ddl", DDLS.namespace),
            ("xmlns:abapsource", NS_ABAPSOURCE),
            ("xmlns:adtcore", NS_ADTCORE),
        ]
        body = (
            atom_link("source/main", REL + "source", etag=etag)
            + atom_link("source/main", REL + "source", type="text/html", etag=etag)
            + atom_link(
                f"/sap/bc/adt/vit/ddic/logs/db/{log}",
                REL + "ddic/activationlog",
                type="application/vnd.sap.sapgui",
            )
            + atom_link(
                f"/sap/bc/adt/ddic/logs/db/{log}",
                REL + "ddic/activationlog",
                type="application/vnd.sap.adt.logs+xml",
            )
            + atom_link("versions", REL + "versions")
            + package_reference(obj, state)
        )
        return DECL + tag(DDLS.root, attrs, body)

    def root_attributes_of(self, text: str) -> tuple[tuple[str, str], ...]:
        """``ddl:source_type`` and its description as A4H capture ``454`` shows them
        (``view`` / ``View Entity``); the other definition kinds are named by their
        statement (docs/emulator.md: their type codes are not captured)."""
        code, label = _source_type(text)
        return (
            ("ddl:source_origin", "0"),
            ("ddl:source_type", code),
            ("ddl:source_type_description", label),
            ("ddl:source_origin_description", "ABAP development tools"),
        )


#: The words of the ``define …`` statement (from the lexer, comments and annotations
#: aside) → (``ddl:source_type``, description); ``root`` is dropped, first match wins.
_SOURCE_TYPES: tuple[tuple[tuple[str, ...], tuple[str, str]], ...] = (
    (("define", "view", "entity"), ("view", "View Entity")),
    (("define", "view"), ("view", "View")),
    (("define", "abstract", "entity"), ("abstract_entity", "Abstract Entity")),
    (("define", "custom", "entity"), ("custom_entity", "Custom Entity")),
    (("define", "table", "function"), ("table_function", "Table Function")),
    (("extend", "view"), ("extend_view", "Extend View")),
)
_PROJECTION = ("projection", "Projection View")


def _statement_words(text: str) -> list[str]:
    """The names of the first ``define``/``extend`` statement up to its ``{`` (lower case,
    ``root`` dropped)."""
    words: list[str] = []
    for token in tokenize(text):
        if token.kind == NAME and (words or token.text.lower() in ("define", "extend")):
            words.append(token.text.lower())
        elif words and token.text == "{":
            break
    return [w for w in words if w != "root"]


def _source_type(text: str) -> tuple[str, str]:
    words = _statement_words(text)
    for lead, found in _SOURCE_TYPES:
        if tuple(words[: len(lead)]) == lead:
            pairs = itertools.pairwise(words)
            if found[1] == "View Entity" and ("projection", "on") in pairs:
                return _PROJECTION
            return found
    return "view", "View Entity"


MODULE = DataDefinitionKind()
