"""Response documents, modelled on the A4H captures (one line, SAP's attribute order).

Each builder takes plain values and returns the body text; nothing here touches
emulator state, so the builders can be compared with the captures in isolation.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import stamps
from .model import CLAS, FINC, FUGR, FUNC, INCL, INTF, PROG, Kind, RepoObject, package_uri
from .xmlwriter import DECL, atom_link, esc_text, tag, text_tag

NS_ADTCORE = "http://www.sap.com/adt/core"
NS_ABAPSOURCE = "http://www.sap.com/adt/abapsource"
NS_ABAPOO = "http://www.sap.com/adt/oo"
REL = "http://www.sap.com/adt/relations/"
ENH_OPTIONS = "application/vnd.sap.adt.enhancementoptions.v2+xml"
ENH_IMPLS = "application/vnd.sap.adt.enhancementimplementations.v1+xml"
OBJSTRUCT = "application/vnd.sap.adt.objectstructure.v2+xml"

LOCK_RESULT = "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.lock.Result"
LOCK_RESULT2 = "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.lock.Result2"
CHECK_MESSAGES = "application/vnd.sap.adt.checkmessages+xml"
TREE_CONTENT = (
    "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.RepositoryObjectTreeContent"
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


def _class_document(view: ObjectView) -> str:
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


def _interface_document(view: ObjectView) -> str:
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


def _program_document(view: ObjectView) -> str:
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


def _include_document(view: ObjectView, context: RepoObject | None) -> str:
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


def _group_document(view: ObjectView) -> str:
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


def _group_member_document(view: ObjectView, group: RepoObject) -> str:
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


def object_document(
    view: ObjectView, *, group: RepoObject | None = None, context: RepoObject | None = None
) -> str:
    """The metadata document of any supported object type."""
    kind = view.obj.kind
    if kind is CLAS:
        return _class_document(view)
    if kind is INTF:
        return _interface_document(view)
    if kind is PROG:
        return _program_document(view)
    if kind is INCL:
        return _include_document(view, context)
    if kind is FUGR:
        return _group_document(view)
    assert group is not None
    return _group_member_document(view, group)


def lock_result(
    handle: str,
    *,
    corrnr: str,
    corruser: str,
    corrtext: str,
    local: bool,
    modification: str,
    result2: bool,
) -> str:
    """``asx:abap`` lock result; Result2 adds ``LINK_UP_MODE``/``CORR_*`` (§4.2)."""
    fields = (
        text_tag("LOCK_HANDLE", handle)
        + text_tag("CORRNR", corrnr)
        + text_tag("CORRUSER", corruser)
        + text_tag("CORRTEXT", corrtext)
        + text_tag("IS_LOCAL", "X" if local else "")
        + tag("IS_LINK_UP")
        + text_tag("MODIFICATION_SUPPORT", modification)
    )
    if result2:
        fields += tag("LINK_UP_MODE") + tag("CORR_LOCKS") + tag("CORR_CONTENTS")
    fields += tag("SCOPE_MESSAGES")
    return (
        DECL
        + '<asx:abap version="1.0" xmlns:asx="http://www.sap.com/abapxml"><asx:values>'
        + tag("DATA", (), fields)
        + "</asx:values></asx:abap>"
    )


@dataclass(frozen=True)
class Message:
    """A finding as activation and check runs report it."""

    uri: str
    line: int
    column: int
    end_column: int
    text: str
    severity: str = "E"
    code: str = "MESSAGE(EMU)"
    obj_descr: str = ""


CHKL_NS = "http://www.sap.com/abapxml/checklist"


def activation_messages(
    messages: list[Message], *, properties: tuple[bool, bool, bool] | None
) -> str:
    """``chkl:messages``: properties are (check, activation, generation) executed."""
    body = ""
    if properties is not None:
        check, activation, generation = (str(v).lower() for v in properties)
        body += tag(
            "chkl:properties",
            [
                ("checkExecuted", check),
                ("activationExecuted", activation),
                ("generationExecuted", generation),
            ],
        )
    for msg in messages:
        body += tag(
            "msg",
            [
                ("objDescr", msg.obj_descr),
                ("type", msg.severity),
                ("line", "1"),
                ("href", f"{msg.uri}#start={msg.line},{msg.column}"),
                ("forceSupported", "true"),
            ],
            tag("shortText", (), text_tag("txt", msg.text)),
        )
    return DECL + tag("chkl:messages", [("xmlns:chkl", CHKL_NS)], body)


CHKRUN_NS = "http://www.sap.com/adt/checkrun"


@dataclass(frozen=True)
class CheckReport:
    """One ``chkrun:checkReport``."""

    triggering_uri: str
    processed: bool
    status_text: str
    messages: list[Message]


def check_run_reports(reports: list[CheckReport]) -> str:
    """``chkrun:checkRunReports`` for the ``abapCheckRun`` reporter (§7.2)."""
    body = ""
    for report in reports:
        messages = ""
        for msg in report.messages:
            fragment = f"#start={msg.line},{msg.column};end={msg.line},{msg.end_column}"
            messages += tag(
                "chkrun:checkMessage",
                [
                    ("chkrun:uri", msg.uri + fragment),
                    ("chkrun:type", msg.severity),
                    ("chkrun:shortText", msg.text),
                    ("chkrun:code", msg.code),
                ],
            )
        inner = tag("chkrun:checkMessageList", (), messages) if messages else None
        body += tag(
            "chkrun:checkReport",
            [
                ("chkrun:reporter", "abapCheckRun"),
                ("chkrun:triggeringUri", report.triggering_uri),
                ("chkrun:status", "processed" if report.processed else "notProcessed"),
                ("chkrun:statusText", report.status_text),
            ],
            inner,
        )
    return DECL + tag("chkrun:checkRunReports", [("xmlns:chkrun", CHKRUN_NS)], body)


@dataclass(frozen=True)
class Reference:
    """One quick-search hit."""

    uri: str
    type: str
    name: str
    package: str | None
    description: str | None


def object_references(refs: list[Reference]) -> str:
    """``adtcore:objectReferences`` (an empty result is the 109-byte empty root)."""
    body = "".join(
        tag(
            "adtcore:objectReference",
            [
                ("adtcore:uri", ref.uri),
                ("adtcore:type", ref.type),
                ("adtcore:name", ref.name),
                ("adtcore:packageName", ref.package),
                ("adtcore:description", ref.description),
            ],
        )
        for ref in refs
    )
    return DECL + tag("adtcore:objectReferences", [("xmlns:adtcore", NS_ADTCORE)], body)


_CATEGORY_LABEL = {"source_library": "Source Code Library"}


def _tree_node(obj: RepoObject) -> str:
    kind = obj.kind
    tech = f"SAPL{obj.name}" if kind is FUGR else obj.name
    empty_flags = "".join(
        tag(flag)
        for flag in (
            "IS_FINAL",
            "IS_ABSTRACT",
            "IS_FOR_TESTING",
            "IS_EVENT_HANDLER",
            "IS_CONSTRUCTOR",
            "IS_REDEFINITION",
            "IS_STATIC",
            "IS_READ_ONLY",
            "IS_CONSTANT",
        )
    )
    return tag(
        "SEU_ADT_REPOSITORY_OBJ_NODE",
        (),
        text_tag("OBJECT_TYPE", kind.code)
        + text_tag("OBJECT_NAME", obj.name)
        + text_tag("TECH_NAME", tech)
        + text_tag("OBJECT_URI", obj.uri)
        + text_tag(
            "OBJECT_VIT_URI",
            f"/sap/bc/adt/vit/wb/object_type/{kind.code.replace('/', '').lower()}"
            f"/object_name/{obj.name}",
        )
        + text_tag("EXPANDABLE", "X")
        + empty_flags
        + text_tag("VISIBILITY", "0")
        + tag("NODE_ID")
        + tag("PARENT_NAME")
        + text_tag("DESCRIPTION", obj.description)
        + text_tag("DESCRIPTION_TYPE", kind.code.split("/")[1])
        + tag("VERSION")
        + tag("INACTIVE_TYPE"),
    )


def _tree_document(tree: str, kinds: list[Kind], node_offset: int, labels: bool) -> str:
    categories = text_tag("CATEGORY", "source_library") + text_tag(
        "CATEGORY_LABEL", _CATEGORY_LABEL["source_library"]
    )
    types = ""
    for kind in kinds:
        assert kind.tree_node_id is not None
        types += tag(
            "SEU_ADT_OBJECT_TYPE_INFO",
            (),
            text_tag("OBJECT_TYPE", kind.code)
            + text_tag("CATEGORY_TAG", "source_library")
            + text_tag("OBJECT_TYPE_LABEL", kind.tree_label if labels else "")
            + text_tag("NODE_ID", f"{kind.tree_node_id + node_offset:06d}"),
        )
    data = (
        (tag("TREE_CONTENT", (), tree) if tree else tag("TREE_CONTENT"))
        + tag("CATEGORIES", (), tag("SEU_ADT_OBJECT_CATEGORY_INFO", (), categories))
        + tag("OBJECT_TYPES", (), types)
    )
    return (
        DECL
        + '<asx:abap version="1.0" xmlns:asx="http://www.sap.com/abapxml"><asx:values>'
        + tag("DATA", (), data)
        + "</asx:values></asx:abap>"
    )


def tree_root(kinds: list[Kind]) -> str:
    """The package root call: categories and object types with their ``NODE_ID``."""
    return _tree_document("", kinds, 0, True)


def tree_objects(kind: Kind, objects: list[RepoObject]) -> str:
    """The objects of one type node (``node_id=…``)."""
    return _tree_document("".join(_tree_node(o) for o in objects), [kind], 1, False)


def package_document(
    name: str, description: str, responsible: str, created_at: int, sid: str, parent: str | None
) -> str:
    """``pak:package`` metadata, trimmed from the trial capture."""
    uri = package_uri(name)
    attrs: list[tuple[str, str | None]] = [
        ("adtcore:responsible", responsible),
        ("adtcore:masterLanguage", "EN"),
        ("adtcore:masterSystem", sid),
        ("adtcore:name", name),
        ("adtcore:type", "DEVC/K"),
        ("adtcore:changedAt", stamps.iso_date(created_at)),
        ("adtcore:version", "active"),
        ("adtcore:createdAt", stamps.iso_date(created_at)),
        ("adtcore:changedBy", responsible),
        ("adtcore:createdBy", responsible),
        ("adtcore:description", description),
        ("adtcore:descriptionTextLimit", "60"),
        ("adtcore:language", "EN"),
        ("xmlns:pak", "http://www.sap.com/adt/packages"),
        ("xmlns:adtcore", NS_ADTCORE),
    ]
    local = name.startswith("$")
    body = (
        atom_link("versions", REL + "versions", title="Historic versions")
        + atom_link(
            f"/sap/bc/adt/vit/wb/object_type/devck/object_name/{name}",
            "self",
            type="application/vnd.sap.sapgui",
            title="Representation in SAP Gui",
        )
        + tag(
            "adtcore:packageRef",
            [
                ("adtcore:uri", uri),
                ("adtcore:type", "DEVC/K"),
                ("adtcore:name", name),
                ("adtcore:description", description),
            ],
        )
        + tag(
            "pak:attributes",
            [
                ("pak:packageType", "development"),
                ("pak:isPackageTypeEditable", "false"),
                ("pak:isAddingObjectsAllowed", "false"),
                ("pak:isAddingObjectsAllowedEditable", "true"),
                ("pak:isEncapsulated", "false"),
                ("pak:isEncapsulationEditable", "true"),
                ("pak:recordChanges", "false" if local else "true"),
                ("pak:isRecordChangesEditable", "false"),
                ("pak:isSwitchVisible", "false"),
            ],
        )
    )
    if parent is not None:
        body += tag(
            "pak:superPackage",
            [
                ("adtcore:uri", package_uri(parent)),
                ("adtcore:type", "DEVC/K"),
                ("adtcore:name", parent),
            ],
        )
    else:
        body += tag("pak:superPackage")
    component = "LOCAL" if local else "HOME"
    body += tag(
        "pak:transport",
        (),
        tag(
            "pak:softwareComponent",
            [("pak:name", component), ("pak:description", ""), ("pak:isVisible", "true")],
        )
        + tag(
            "pak:transportLayer",
            [("pak:name", "" if local else f"Z{sid}"), ("pak:description", "")],
        ),
    )
    body += tag("pak:subPackages")
    return DECL + tag("pak:package", attrs, body)


_COLLECTIONS = [
    ("Classes", "/sap/bc/adt/oo/classes", CLAS),
    ("Interfaces", "/sap/bc/adt/oo/interfaces", INTF),
    ("Programs", "/sap/bc/adt/programs/programs", PROG),
    ("Includes", "/sap/bc/adt/programs/includes", INCL),
    ("Function Groups", "/sap/bc/adt/functions/groups", FUGR),
]


def discovery_document() -> str:
    """A compact ``app:service`` document listing the collections served."""
    collections = ""
    for title, href, kind in _COLLECTIONS:
        accepts = "".join(text_tag("app:accept", mt) for mt in kind.media_types)
        collections += tag(
            "app:collection", [("href", href)], text_tag("atom:title", title) + accepts
        )
    for title, href, accept in [
        ("Activation", "/sap/bc/adt/activation", "application/xml"),
        ("Check Runs", "/sap/bc/adt/checkruns", "application/vnd.sap.adt.checkobjects+xml"),
        ("Search", "/sap/bc/adt/repository/informationsystem/search", "application/xml"),
        ("Node Structure", "/sap/bc/adt/repository/nodestructure", "application/xml"),
        ("Packages", "/sap/bc/adt/packages", "application/vnd.sap.adt.packages.v1+xml"),
    ]:
        collections += tag(
            "app:collection",
            [("href", href)],
            text_tag("atom:title", title) + text_tag("app:accept", accept),
        )
    workspace = tag("app:workspace", (), text_tag("atom:title", "ADT emulator") + collections)
    return DECL + tag(
        "app:service",
        [
            ("xmlns:app", "http://www.w3.org/2007/app"),
            ("xmlns:atom", "http://www.w3.org/2005/Atom"),
        ],
        workspace,
    )


def compatibility_graph() -> str:
    """A minimal compatibility graph; clients use this resource only for the token."""
    return DECL + tag(
        "cgraph:graph",
        [("xmlns:cgraph", "http://www.sap.com/adt/compatibility")],
        tag("nodes") + tag("edges"),
    )


def logon_failed_page(sid: str, client: str) -> str:
    """The 401 HTML page (SAP's is the ICF logon-error page; keyed on status only)."""
    return (
        '<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8">'
        '<title>Logon failed</title></head><body><p class="errorTextHeader">'
        f'401 Unauthorized</p><p class="detailText">Logon failed on {esc_text(sid)}/'
        f"{esc_text(client)}. Check user and password.</p></body></html>"
    )


def session_timed_out_page() -> str:
    """The ICM page for a dead stateful context (reason phrase "Session timed out")."""
    return (
        "<html><head><title>Session timed out</title></head><body>"
        "<h1>Session timed out</h1><p>Session not found (ICMENOSESSION).</p></body></html>"
    )
