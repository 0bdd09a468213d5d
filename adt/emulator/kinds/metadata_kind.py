"""What the metadata kinds share (data elements, domains, message classes, service
bindings, table types): no source; the object is one ADT XML document, read with ``GET`` on
the object URI and written whole with ``PUT`` under a lock. The emulator keeps the
kind-specific content element(s) of that document as the object's one stored unit, so
versions, locks, activation and transports work as for sources."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lxml import etree

from .. import errors
from ..documents.common import NS_ADTCORE
from ..model import RepoObject
from ..xmlwriter import DECL, atom_link, esc_text, tag
from .base import KindModule, NewSpec, SeedFolder, abapgit_name, parse_xml
from .source_kind import core_attributes, documentation_link, package_reference

if TYPE_CHECKING:
    from ..documents import ObjectView
    from .base import SystemState

ATOM = "http://www.w3.org/2005/Atom"

#: Where the content of a metadata object is kept (never served as ``/source/main``).
CONTENT = "main"


def text_of(tree: etree._ElementTree, path: str) -> str:
    """The text at ``path`` of an abapGit XML (``""`` if absent)."""
    found = tree.find(path)
    return (found.text or "") if found is not None else ""


def element(name: str, value: str | None) -> str:
    """``<p:name>value</p:name>``, or ``<p:name/>`` when empty (SAP's short form)."""
    if not value:
        return f"<{name}/>"
    return f"<{name}>{esc_text(value)}</{name}>"


def inline(content: str, *declarations: tuple[str, str]) -> str:
    """Stored content without the namespace declarations the document's root already makes
    (``(prefix, uri)``): each content element is kept parseable on its own, but SAP writes
    a prefix's declaration once, on the root."""
    for prefix, uri in declarations:
        content = content.replace(f' xmlns:{prefix}="{uri}"', "")
    return content


class MetadataKind(KindModule):
    """A kind served as one ADT XML document."""

    #: Namespace declarations the content needs, ``(prefix, uri)``.
    content_namespaces: tuple[tuple[str, str], ...] = ()
    #: The abapGit XML suffix of the kind (``dtel.xml``).
    abapgit_file = ""
    #: The documentation object type of the kind's SAP GUI documentation link (``de``).
    documentation_code = ""

    def parts(self, obj: RepoObject) -> tuple[str, ...]:
        return ()

    def seed(self, folder: SeedFolder, stem: str, suffix: str) -> list[RepoObject]:
        tree = parse_xml(folder.folder / f"{stem}.{suffix}")
        if tree is None:
            return []
        description, content = self.from_abapgit(tree)
        obj = folder.new(self.kind, abapgit_name(stem), description)
        folder.unit(obj, CONTENT, content)
        return [obj]

    def from_abapgit(self, tree: etree._ElementTree) -> tuple[str, str]:
        """``(description, content XML)`` of an abapGit file."""
        raise NotImplementedError

    def links(self, obj: RepoObject) -> str:
        """The SAP GUI and documentation links (captures ``844``, ``845``)."""
        kind = obj.kind
        link = atom_link(
            f"/sap/bc/adt/vit/wb/object_type/{kind.vit}/object_name/{obj.name}",
            "self",
            type="application/vnd.sap.sapgui",
            title="Representation in SAP Gui",
        )
        if self.documentation_code:
            link += documentation_link(obj, self.documentation_code)
        return link

    def document(self, view: ObjectView, state: SystemState) -> str:
        obj = view.obj
        kind = obj.kind
        attrs: list[tuple[str, str | None]] = [
            *core_attributes(view, created_at=False),
            (f"xmlns:{kind.prefix}", kind.namespace),
            ("xmlns:adtcore", NS_ADTCORE),
        ]
        content = view.main_text
        body = self.links(obj) + package_reference(obj, state, package_name=False) + content
        return DECL + tag(kind.root, attrs, body)

    def template(self, obj: RepoObject, spec: NewSpec) -> dict[str, str]:
        return {CONTENT: self.new_content(obj, spec)}

    def new_content(self, obj: RepoObject, spec: NewSpec) -> str:
        raise NotImplementedError

    def accept(self, obj: RepoObject, body: bytes) -> tuple[str, str]:
        """``(description, content)`` of a document sent with ``PUT``; 400 if it is not
        this kind's document or names another object."""
        try:
            parser = etree.XMLParser(resolve_entities=False, no_network=True)
            root = etree.fromstring(body, parser)
        except etree.XMLSyntaxError as exc:
            raise errors.bad_request(f"The request body is not valid XML: {exc}") from None
        kind = obj.kind
        if etree.QName(root).namespace != kind.namespace:
            raise errors.bad_request(f"Expected a {kind.root} document")
        name = (root.get(f"{{{NS_ADTCORE}}}name") or obj.name).upper()
        if name != obj.name:
            raise errors.bad_request(f"The document is for {name}, not {obj.name}")
        description = root.get(f"{{{NS_ADTCORE}}}description")
        content = "".join(
            self.serialise(child)
            for child in root
            if isinstance(child.tag, str) and etree.QName(child).namespace not in (ATOM, NS_ADTCORE)
        )
        return (description if description is not None else obj.description), content

    def serialise(self, child: etree._Element) -> str:
        """One content element as stored: its own namespace declarations, no others."""
        copy = etree.fromstring(etree.tostring(child))
        etree.cleanup_namespaces(copy)
        return etree.tostring(copy, encoding="unicode", with_tail=False)


__all__ = ["CONTENT", "MetadataKind", "element", "inline", "text_of"]
