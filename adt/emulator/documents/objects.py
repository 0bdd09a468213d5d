"""Object metadata documents (classes, interfaces, programs, includes, function groups
and modules), modelled on the A4H captures: one line, SAP's attribute order. Each kind
module of :mod:`adt.emulator.kinds` calls its builder."""

from __future__ import annotations

from dataclasses import dataclass

from .. import stamps
from ..model import CLAS, FINC, FUGR, FUNC, INCL, INTF, PROG, Kind, RepoObject, package_uri
from ..xmlwriter import DECL, atom_link, tag, text_tag
from .common import (
    ENH_IMPLS,
    ENH_OPTIONS,
    NS_ABAPOO,
    NS_ABAPSOURCE,
    NS_ADTCORE,
    OBJSTRUCT,
    REL,
)


@dataclass(frozen=True)
class PartView:
    """One source unit as a metadata document shows it."""

    part: str
    changed_at: int
    changed_by: str
    active: bool

    @property
    def etag(self) -> str:
        return stamps.source_etag(self.changed_at, active=self.active)


@dataclass(frozen=True)
class ObjectView:
    """An object as seen in one version: what the metadata document reports."""

    obj: RepoObject
    parts: list[PartView]
    sid: str
    main_text: str

    @property
    def changed_at(self) -> int:
        return max(p.changed_at for p in self.parts)

    @property
    def changed_by(self) -> str:
        newest = max(self.parts, key=lambda p: p.changed_at)
        return newest.changed_by

    @property
    def version(self) -> str:
        return "active" if all(p.active for p in self.parts) else "inactive"

    @property
    def active(self) -> bool:
        return self.version == "active"

    def part(self, name: str) -> PartView:
        return next(p for p in self.parts if p.part == name)


# The abapsource attributes every main-source object (program, include, group...) carries.
_SOURCE_MAIN_ATTRS: tuple[tuple[str, str | None], ...] = (
    ("abapsource:sourceUri", "source/main"),
    ("abapsource:fixPointArithmetic", "true"),
    ("abapsource:activeUnicodeCheck", "true"),
)


def _core_attrs(view: ObjectView, *, created_by: bool) -> list[tuple[str, str | None]]:
    obj = view.obj
    attrs: list[tuple[str, str | None]] = [
        ("adtcore:responsible", obj.responsible),
        ("adtcore:masterLanguage", "EN"),
        ("adtcore:masterSystem", view.sid),
        ("adtcore:name", obj.name),
        ("adtcore:type", obj.kind.code),
        ("adtcore:changedAt", stamps.iso(view.changed_at)),
        ("adtcore:version", view.version),
        ("adtcore:createdAt", stamps.iso_date(obj.created_at)),
        ("adtcore:changedBy", view.changed_by),
    ]
    if created_by:
        attrs.append(("adtcore:createdBy", obj.responsible))
    attrs += [
        ("adtcore:description", obj.description),
        ("adtcore:descriptionTextLimit", str(obj.kind.text_limit)),
        ("adtcore:language", "EN"),
    ]
    return attrs


def _ns(kind: Kind, *extra: tuple[str, str]) -> list[tuple[str, str | None]]:
    decls: list[tuple[str, str | None]] = [(f"xmlns:{kind.prefix}", kind.namespace)]
    decls += [(f"xmlns:{p}", uri) for p, uri in extra]
    decls.append(("xmlns:adtcore", NS_ADTCORE))
    return decls


def _source_links(href: str, etag: str, versions: str) -> str:
    return (
        atom_link(versions, REL + "versions")
        + atom_link(href, REL + "source", type="text/plain", etag=etag)
        + atom_link(href, REL + "source", type="text/html", etag=etag)
    )


def _package_ref(name: str) -> str:
    return tag(
        "adtcore:packageRef",
        [("adtcore:uri", package_uri(name)), ("adtcore:type", "DEVC/K"), ("adtcore:name", name)],
    )


def _syntax_configuration() -> str:
    title = "Standard ABAP (Unicode)"
    link = atom_link(
        "/sap/bc/adt/abapsource/parsers/rnd/grammar",
        REL + "abapsource/parser",
        type="text/plain",
        title=title,
        etag="754",
    )
    language = (
        text_tag("abapsource:version", "X") + text_tag("abapsource:description", title) + link
    )
    return tag("abapsource:syntaxConfiguration", (), tag("abapsource:language", (), language))


def _enh_links(uri: str, *, source_options: bool) -> str:
    links = atom_link(
        f"{uri}/enhancements/implementations",
        REL + "enhancementImplementations",
        type=ENH_IMPLS,
        title="Enhancement Implementations",
    ) + atom_link(
        f"{uri}/enhancements/options",
        REL + "enhancementOptionsOfMainObject",
        type=ENH_OPTIONS,
        title="Enhancement Options of Main Object",
    )
    if source_options:
        links += atom_link(
            f"{uri}/source/main/enhancements/options",
            REL + "enhancementOptions",
            type=ENH_OPTIONS,
            title="Enhancement Options",
        )
    return links


def class_flags(source: str) -> tuple[bool, bool]:
    """``(final, abstract)`` read from the ``CLASS … DEFINITION`` statement."""
    upper = source.upper()
    start = upper.find(" DEFINITION")
    if start < 0:
        return False, False
    end = upper.find(".", start)
    header = upper[start : end if end >= 0 else len(upper)].split()
    return "FINAL" in header, "ABSTRACT" in header


def class_document(view: ObjectView) -> str:
    obj = view.obj
    uri = obj.uri
    final, abstract = class_flags(view.main_text)
    attrs: list[tuple[str, str | None]] = [
        ("class:final", "true" if final else "false"),
        ("class:abstract", "true" if abstract else "false"),
        ("class:visibility", "public"),
        ("class:category", "generalObjectType"),
        ("class:sharedMemoryEnabled", "false"),
        ("abapoo:modeled", "false"),
        ("abapsource:fixPointArithmetic", "true"),
        ("abapsource:activeUnicodeCheck", "true"),
        *_core_attrs(view, created_by=True),
        *_ns(CLAS, ("abapoo", NS_ABAPOO), ("abapsource", NS_ABAPSOURCE)),
    ]
    body = (
        atom_link(
            f"{uri}/enhancements/options",
            REL + "enhancementOptionsOfMainObject",
            type=ENH_OPTIONS,
            title="Enhancement Options of Main Object",
        )
        + atom_link(
            f"{uri}/enhancements/implementations",
            REL + "enhancementImplementations",
            type=ENH_IMPLS,
            title="Enhancement Implementations",
        )
        + atom_link("objectstructure", REL + "objectstructure", type=OBJSTRUCT)
        + atom_link(
            f"/sap/bc/adt/vit/wb/object_type/clasocx/object_name/{obj.name}",
            REL + "sources/textelements",
            type="application/vnd.sap.sapgui",
            title="Text elements",
        )
        + atom_link(
            f"{uri}/source/main?withAbapDocFromShortTexts=true",
            REL + "sources/withabapdocfromshorttexts",
            type="text/plain",
            title="Source with ABAP Doc",
        )
        + atom_link(
            f"{uri}/transports",
            REL + "transport",
            type="application/vnd.sap.as+xml;charset=utf-8;dataname=com.sap.adt.lock.result2",
            title="Related Transport Requests",
        )
        + _package_ref(obj.package)
        + _syntax_configuration()
    )
    for part in view.parts:
        href = obj.source_href(part.part)
        versions = f"includes/{part.part}/versions"
        links = _source_links(href, part.etag, versions) + atom_link(
            f"{uri}/{href}/enhancements/options",
            REL + "enhancementOptions",
            type=ENH_OPTIONS,
            title="Enhancement Options",
        )
        include_attrs: list[tuple[str, str | None]] = [
            ("class:includeType", part.part),
            ("abapsource:sourceUri", href),
            ("adtcore:name", ""),
            ("adtcore:type", "CLAS/I"),
            ("adtcore:changedAt", stamps.iso(part.changed_at)),
            ("adtcore:version", "active" if part.active else "inactive"),
            ("adtcore:createdAt", stamps.iso_date(obj.created_at)),
            ("adtcore:changedBy", part.changed_by),
            ("adtcore:createdBy", obj.responsible),
        ]
        body += tag("class:include", include_attrs, links)
    return DECL + tag(CLAS.root, attrs, body)


def interface_document(view: ObjectView) -> str:
    obj = view.obj
    main = view.part("main")
    attrs: list[tuple[str, str | None]] = [
        ("abapoo:modeled", "false"),
        *_SOURCE_MAIN_ATTRS,
        *_core_attrs(view, created_by=True),
        *_ns(INTF, ("abapoo", NS_ABAPOO), ("abapsource", NS_ABAPSOURCE)),
    ]
    body = (
        _source_links("source/main", main.etag, "source/main/versions")
        + atom_link("objectstructure", REL + "objectstructure", type=OBJSTRUCT)
        + atom_link(
            f"{obj.uri}/source/main?withAbapDocFromShortTexts=true",
            REL + "sources/withabapdocfromshorttexts",
            type="text/plain",
            title="Source with ABAP Doc",
        )
        + _package_ref(obj.package)
        + _syntax_configuration()
    )
    return DECL + tag(INTF.root, attrs, body)


def program_document(view: ObjectView) -> str:
    obj = view.obj
    main = view.part("main")
    attrs: list[tuple[str, str | None]] = [
        ("program:lockedByEditor", "false"),
        ("program:programType", "executableProgram"),
        *_SOURCE_MAIN_ATTRS,
        *_core_attrs(view, created_by=False),
        *_ns(PROG, ("abapsource", NS_ABAPSOURCE)),
    ]
    short = obj.uri.rsplit("/", 1)[1]
    body = (
        _source_links("source/main", main.etag, "source/main/versions")
        + atom_link(f"./{short}/objectstructure", REL + "objectstructure", type=OBJSTRUCT)
        + atom_link(
            f"/sap/bc/adt/vit/wb/object_type/progpx/object_name/{obj.name}",
            REL + "sources/textelements",
            type="application/vnd.sap.sapgui",
            title="Text Elements",
        )
        + _enh_links(obj.uri, source_options=True)
        + _package_ref(obj.package)
        + _syntax_configuration()
        + tag("program:logicalDatabase", (), tag("program:ref", [("adtcore:name", "D$S")]))
    )
    return DECL + tag(PROG.root, attrs, body)


def include_document(view: ObjectView, context: RepoObject | None) -> str:
    obj = view.obj
    main = view.part("main")
    attrs: list[tuple[str, str | None]] = [
        ("include:contextRefCount", "1" if context is not None else "0"),
        *_SOURCE_MAIN_ATTRS,
        *_core_attrs(view, created_by=False),
        *_ns(INCL, ("abapsource", NS_ABAPSOURCE)),
    ]
    body = (
        _source_links("source/main", main.etag, "source/main/versions")
        + atom_link(
            f"/sap/bc/adt/vit/wb/object_type/progpx/object_name/{obj.name}",
            REL + "sources/textelements",
            type="application/vnd.sap.sapgui",
            title="Text Elements",
        )
        + _enh_links(obj.uri, source_options=True)
        + _package_ref(obj.package)
    )
    if context is not None:
        body += tag(
            "include:contextRef",
            [
                ("adtcore:uri", context.uri),
                ("adtcore:type", context.kind.code),
                ("adtcore:name", context.name),
                ("adtcore:packageName", context.package),
                ("adtcore:description", context.description),
            ],
        )
    return DECL + tag(INCL.root, attrs, body)


def group_document(view: ObjectView) -> str:
    obj = view.obj
    main = view.part("main")
    attrs: list[tuple[str, str | None]] = [
        ("group:lockedByEditor", "false"),
        *_SOURCE_MAIN_ATTRS,
        *_core_attrs(view, created_by=True),
        *_ns(FUGR, ("abapsource", NS_ABAPSOURCE)),
    ]
    short = obj.uri.rsplit("/", 1)[1]
    body = (
        _source_links("source/main", main.etag, "source/main/versions")
        + atom_link(
            f"/sap/bc/adt/vit/wb/object_type/progpx/object_name/SAPL{obj.name}",
            REL + "sources/textelements",
            type="application/vnd.sap.sapgui",
            title="Text elements",
        )
        + _enh_links(obj.uri, source_options=True)
        + atom_link(f"./{short}/objectstructure", REL + "objectstructure", type=OBJSTRUCT)
        + _package_ref(obj.package)
        + _syntax_configuration()
    )
    return DECL + tag(FUGR.root, attrs, body)


def group_member_document(view: ObjectView, group: RepoObject) -> str:
    obj = view.obj
    main = view.part("main")
    kind = obj.kind
    attrs: list[tuple[str, str | None]] = []
    if kind is FUNC:
        attrs += [("fmodule:releaseState", "notReleased"), ("fmodule:processingType", "normal")]
    attrs += [("abapsource:sourceUri", "source/main")]
    core = _core_attrs(view, created_by=False)
    if kind is FINC:
        core = [a for a in core if a[0] not in ("adtcore:masterLanguage", "adtcore:masterSystem")]
    else:
        core = [
            a
            for a in core
            if a[0] not in ("adtcore:responsible", "adtcore:masterLanguage", "adtcore:masterSystem")
        ]
    attrs += core + _ns(kind, ("abapsource", NS_ABAPSOURCE))
    group_uri = group.uri
    body = (
        tag(
            "adtcore:containerRef",
            [
                ("adtcore:uri", group_uri),
                ("adtcore:type", FUGR.code),
                ("adtcore:name", group.name),
                ("adtcore:packageName", group.package),
            ],
        )
        + _source_links("source/main", main.etag, "source/main/versions")
        + atom_link(
            f"/sap/bc/adt/vit/wb/object_type/progpx/object_name/SAPL{group.name}",
            REL + "sources/textelements",
            type="application/vnd.sap.sapgui",
            title="Text elements",
        )
        + atom_link(
            f"{group_uri}/enhancements/implementations",
            REL + "enhancementImplementations",
            type=ENH_IMPLS,
            title="Enhancement Implementations",
        )
        + atom_link(
            f"{obj.uri}/source/main/enhancements/options",
            REL + "enhancementOptions",
            type=ENH_OPTIONS,
            title="Enhancement Options",
        )
        + atom_link(
            f"{group_uri}/enhancements/options",
            REL + "enhancementOptionsOfMainObject",
            type=ENH_OPTIONS,
            title="Enhancement Options of Main Object",
        )
    )
    return DECL + tag(kind.root, attrs, body)
