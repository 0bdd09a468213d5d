"""What the CDS-family source kinds share (data definitions, metadata extensions, access
controls, behavior definitions, service definitions): one ``main`` source kept verbatim,
a description in the abapGit XML, and a metadata document of SAP's shape (A4H capture
``454``: the core attributes, source links, the package reference)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import stamps
from ..documents.common import NS_ABAPSOURCE, NS_ADTCORE, REL
from ..model import RepoObject, encode_name, package_uri
from ..xmlwriter import DECL, atom_link, tag
from .base import KindModule, NewSpec, SeedFolder, abapgit_name, read_verbatim_file, xml_text
from .dependencies import NameUse, names_used

if TYPE_CHECKING:
    from adt.abap.scanner import ScanIssue

    from ..documents import ObjectView
    from .base import SystemState


def core_attributes(view: ObjectView, *, created_at: bool = True) -> list[tuple[str, str | None]]:
    """``adtcore:*`` attributes in SAP's order (as on every object document); the
    dictionary documents (captures ``453``, ``844``, ``845``) have no ``createdAt``."""
    obj = view.obj
    attrs: list[tuple[str, str | None]] = [
        ("adtcore:responsible", obj.responsible),
        ("adtcore:masterLanguage", "EN"),
        ("adtcore:masterSystem", view.sid),
        ("adtcore:name", obj.name),
        ("adtcore:type", obj.kind.code),
        ("adtcore:changedAt", stamps.iso(view.changed_at)),
        ("adtcore:version", view.version),
    ]
    if created_at:
        attrs.append(("adtcore:createdAt", stamps.iso_date(obj.created_at)))
    return [
        *attrs,
        ("adtcore:changedBy", view.changed_by),
        ("adtcore:createdBy", obj.responsible),
        ("adtcore:description", obj.description),
        ("adtcore:language", "EN"),
    ]


def package_reference(obj: RepoObject, state: SystemState, *, package_name: bool = True) -> str:
    """The package reference; the dictionary documents leave out ``packageName``."""
    package = state.packages.get(obj.package)
    attrs: list[tuple[str, str | None]] = [
        ("adtcore:uri", package_uri(obj.package)),
        ("adtcore:type", "DEVC/K"),
        ("adtcore:name", obj.package),
    ]
    if package_name:
        attrs.append(("adtcore:packageName", obj.package))
    attrs.append(("adtcore:description", package.description if package else ""))
    return tag("adtcore:packageRef", attrs)


def documentation_link(obj: RepoObject, code: str, mode: str = "display") -> str:
    """The SAP GUI documentation link of a dictionary object (captures ``844``/``845``)."""
    return atom_link(
        f"/sap/bc/adt/vit/docu/object_type/{code}/object_name/{encode_name(obj.name)}"
        f"?masterLanguage=E&mode={mode}",
        REL + "documentation",
        type="application/vnd.sap.sapgui",
        title="Documentation",
    )


class VerbatimSourceKind(KindModule):
    """A source-based kind whose one source is stored exactly as written."""

    #: XPath of the description in the abapGit XML (``<stem>.<type>.xml``).
    description_path = "//DDTEXT"
    #: Patterns (``{name}`` marks the name) of the objects a source builds on.
    dependency_patterns: tuple[str, ...] = ()
    #: Kind-specific attributes of the metadata document's root (before ``abapsource``).
    root_attributes: tuple[tuple[str, str], ...] = ()

    def root_attributes_of(self, text: str) -> tuple[tuple[str, str], ...]:
        """The kind-specific root attributes for a source (default: the fixed ones)."""
        return self.root_attributes

    def seed(self, folder: SeedFolder, stem: str, suffix: str) -> list[RepoObject]:
        abapgit_type = suffix.split(".", 1)[0]
        xml = folder.folder / f"{stem}.{abapgit_type}.xml"
        obj = folder.new(self.kind, abapgit_name(stem), xml_text(xml, self.description_path) or "")
        folder.unit(obj, "main", read_verbatim_file(folder.folder / f"{stem}.{suffix}"))
        return [obj]

    def document(self, view: ObjectView, state: SystemState) -> str:
        obj = view.obj
        main = view.part("main")
        kind = obj.kind
        attrs: list[tuple[str, str | None]] = [
            *self.root_attributes_of(view.main_text),
            ("abapsource:sourceUri", "source/main"),
            *core_attributes(view),
            (f"xmlns:{kind.prefix}", kind.namespace),
            ("xmlns:abapsource", NS_ABAPSOURCE),
            ("xmlns:adtcore", NS_ADTCORE),
        ]
        body = (
            atom_link("source/main", REL + "source", type="text/plain", etag=main.etag)
            + atom_link("source/main", REL + "source", type="text/html", etag=main.etag)
            + atom_link("source/main/versions", REL + "versions")
            + atom_link(
                f"/sap/bc/adt/vit/wb/object_type/{kind.vit}/object_name/{obj.name}",
                "self",
                type="application/vnd.sap.sapgui",
                title="Representation in SAP Gui",
            )
            + package_reference(obj, state)
        )
        return DECL + tag(kind.root, attrs, body)

    def check(self, obj: RepoObject, part: str, text: str, state: SystemState) -> list[ScanIssue]:
        """The CDS-family check with name resolution (:mod:`adt.abap.cds.check`)."""
        from ..cds_language import check_source

        return check_source(obj, text, state)

    def dependencies(self, obj: RepoObject, text: str) -> list[NameUse]:
        """What the source builds on, with places, as :mod:`adt.abap.cds` reads it; the
        kind's patterns when the source does not parse into a definition."""
        from ..cds_language import dependencies

        found = dependencies(obj, text)
        if found is None:
            return names_used(text, self.dependency_patterns)
        return [NameUse(name, line, column) for name, line, column in found]

    def template(self, obj: RepoObject, spec: NewSpec) -> dict[str, str]:
        """A real system creates these with an empty source; the editor's wizard (ours:
        ``adt.kinds`` templates) writes the first text."""
        return {"main": ""}


__all__ = ["VerbatimSourceKind", "core_attributes", "documentation_link", "package_reference"]
