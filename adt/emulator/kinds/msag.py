"""Message classes (``MSAG/N``): ``mc:messageClass`` with one ``mc:messages`` element per
message (number, text); written whole, so adding or changing one message is a ``PUT`` of
the document with that element added or changed. abapGit ``<name>.msag.xml`` (``T100A``,
``T100``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from .. import stamps
from ..documents.common import NS_ADTCORE
from ..model import ADT, Kind, RepoObject, package_uri
from ..xmlwriter import DECL, atom_link, esc_attr, tag
from .base import NewSpec
from .metadata_kind import MetadataKind, text_of
from .source_kind import core_attributes

if TYPE_CHECKING:
    from ..documents import ObjectView
    from .base import SystemState

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
    """One stored message (the element a client sends in a ``PUT``)."""
    return (
        f'<mc:messages xmlns:mc="{NS_MC}" mc:msgno="{esc_attr(number.zfill(3))}" '
        f'mc:msgtext="{esc_attr(text)}" mc:selfexplainatory="true" mc:documented="false"/>'
    )


_REL = "http://www.sap.com/adt/relations/"
_MC = f"{{{NS_MC}}}"


def _served_message(obj: RepoObject, stored: etree._Element, view: ObjectView) -> str:
    """A message as a real system serves it (ARC-1's probe of S/4HANA 2023, message class
    ``00``): its attributes, the change stamp, an empty ``adtcore:name`` and the links to
    its long text and to itself; no ``msgtext`` when it has no text."""
    number = stored.get(f"{_MC}msgno") or ""
    text = stored.get(f"{_MC}msgtext") or None
    attrs: list[tuple[str, str | None]] = [
        ("mc:msgno", number),
        ("mc:msgtext", text),
        ("mc:selfexplainatory", stored.get(f"{_MC}selfexplainatory") or "true"),
        ("mc:documented", stored.get(f"{_MC}documented") or "false"),
        ("mc:lastchangedby", stored.get(f"{_MC}lastchangedby") or view.changed_by),
        ("mc:lastmodified", stored.get(f"{_MC}lastmodified") or stamps.day(view.changed_at)),
        ("adtcore:name", ""),
    ]
    links = atom_link(
        f"/sap/bc/adt/vit/docu/object_type/NA/object_name/{obj.name}{number}",
        _REL + "longtext",
    ) + atom_link(f"{obj.uri}/messages/{number}", _REL + "messageclasses/messages")
    return tag("mc:messages", attrs, links)


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

    def document(self, view: ObjectView, state: SystemState) -> str:
        """The shape of a real message class document: no SAP GUI link, a package
        reference without description, each message with its stamp and links."""
        obj = view.obj
        attrs: list[tuple[str, str | None]] = [
            *core_attributes(view, created_at=False),
            ("xmlns:mc", NS_MC),
            ("xmlns:adtcore", NS_ADTCORE),
        ]
        stored = etree.fromstring(f'<stored xmlns:mc="{NS_MC}">{view.main_text}</stored>')
        package = tag(
            "adtcore:packageRef",
            [
                ("adtcore:uri", package_uri(obj.package)),
                ("adtcore:type", "DEVC/K"),
                ("adtcore:name", obj.package),
            ],
        )
        messages = "".join(_served_message(obj, m, view) for m in stored.iterfind(f"{_MC}messages"))
        return DECL + tag(MSAG.root, attrs, package + messages)

    def new_content(self, obj: RepoObject, spec: NewSpec) -> str:
        return ""


MODULE = MessageClassKind()
