"""Message classes (``MSAG/N``): ``mc:messageClass`` with one ``mc:messages`` element per
message (number, text); written whole, so adding or changing one message is a ``PUT`` of
the document with that element added or changed. abapGit ``<name>.msag.xml`` (``T100A``,
``T100``)."""

from __future__ import annotations

from lxml import etree

from ..model import ADT, Kind, RepoObject
from ..xmlwriter import esc_attr
from .base import NewSpec
from .metadata_kind import MetadataKind, text_of

NS_MC = "http://www.sap.com/adt/MessageClass"

MSAG = Kind(
    code="MSAG/N",
    r3tr="MSAG",
    collection=f"{ADT}/messageclass",
    root="mc:messageClass",
    namespace=NS_MC,
    media_types=("application/vnd.sap.adt.mc.messageclass+xml",),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Message Class",
    resource_word="MESSAGE CLASS",
    lock_word="MESSAGE CLASS",
    tree_node_id=144,
    tree_category="source_library",
    tree_label="Message Classes",
    vit="msagn",
    language="xml",
    source_based=False,
    verbatim=True,
)


def message(number: str, text: str) -> str:
    return (
        f'<mc:messages xmlns:mc="{NS_MC}" mc:msgno="{esc_attr(number.zfill(3))}" '
        f'mc:msgtext="{esc_attr(text)}" mc:selfexplainatory="true" mc:documented="false"/>'
    )


class MessageClassKind(MetadataKind):
    kinds = (MSAG,)
    main_files = ("msag.xml",)
    validation_paths = ("messageclass/validation",)

    def from_abapgit(self, tree: etree._ElementTree) -> tuple[str, str]:
        rows = [
            (row.findtext("MSGNR") or "", row.findtext("TEXT") or "")
            for row in tree.iterfind(".//T100/T100")
            if (row.findtext("SPRSL") or "E") == "E"
        ]
        content = "".join(message(number, text) for number, text in sorted(rows))
        return text_of(tree, ".//T100A/STEXT"), content

    def new_content(self, obj: RepoObject, spec: NewSpec) -> str:
        return ""


MODULE = MessageClassKind()
