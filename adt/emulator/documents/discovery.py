"""Service documents (``/discovery``, ``/core/discovery``) and the compatibility graph.

The catalogue lists what the emulator's areas serve, grouped into workspaces with the titles,
category terms and schemes, accepted media types and template links that recorded discovery
documents of real systems use (docs/protocol/discovery-and-packages.md). Element order within
a collection is SAP's: ``atom:title``, ``app:accept``\\*, ``atom:category``, then
``adtcomp:templateLinks`` declaring its own namespace (empty when there are no templates).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import ADT, CLAS, FUGR, INCL, INTF, PROG
from ..xmlwriter import DECL, tag, text_tag

NS_APP = "http://www.w3.org/2007/app"
NS_ATOM = "http://www.w3.org/2005/Atom"
NS_ADTCOMP = "http://www.sap.com/adt/compatibility"
NAMED_ITEMS = "application/vnd.sap.adt.nameditems.v1+xml"

CAT = "http://www.sap.com/adt/categories/"
REL = "http://www.sap.com/adt/relations/"
PACKAGES_SCHEME = "http://www.sap.com/wbobj/packages"
REPOSITORY = CAT + "respository"  # sic: SAP's own spelling of this scheme

#: The package value helps the emulator answers (``/packages/valuehelps/<type>``).
VALUE_HELP_TITLES = {
    "applicationcomponents": "Application Components Value Help",
    "softwarecomponents": "Software Components Value Help",
    "transportlayers": "Transport Layers Value Help",
    "translationrelevances": "Transport Relevances Value Help",
}


@dataclass(frozen=True)
class TemplateLink:
    """An ``adtcomp:templateLink`` (RFC 6570 template)."""

    rel: str
    template: str
    title: str | None = None
    type: str | None = None


@dataclass(frozen=True)
class Collection:
    """One ``app:collection``: a resource and how to call it."""

    href: str
    title: str
    term: str
    scheme: str
    accepts: tuple[str, ...] = ()
    links: tuple[TemplateLink, ...] = ()


@dataclass(frozen=True)
class Workspace:
    title: str
    collections: tuple[Collection, ...] = ()


def _c(
    path: str,
    title: str,
    term: str,
    scheme: str,
    accepts: tuple[str, ...] = (),
    *links: TemplateLink,
) -> Collection:
    return Collection(f"{ADT}{path}", title, term, scheme, accepts, links)


def _link(
    rel: str, path: str, *, title: str | None = None, type: str | None = None
) -> TemplateLink:
    return TemplateLink(rel, f"{ADT}{path}", title, type)


def _vnd(*names: str) -> tuple[str, ...]:
    return tuple(f"application/vnd.sap.adt.{name}+xml" for name in names)


_PACKAGES = Workspace(
    "Packages",
    (
        _c(
            "/packages",
            "Packages",
            "devck",
            PACKAGES_SCHEME,
            _vnd("packages.v2", "packages.v1"),
            _link(
                f"{PACKAGES_SCHEME}/devck/properties",
                "/packages/{object_name}{?corrNr,lockHandle,version,accessMode,_action}",
            ),
            *(
                _link(help_type, f"/packages/valuehelps/{help_type}", title=title, type=NAMED_ITEMS)
                for help_type, title in VALUE_HELP_TITLES.items()
            ),
        ),
        _c("/packages/validation", "Package Name Validation", "devck/validation", PACKAGES_SCHEME),
    ),
)

_OO = Workspace(
    "Classes and Interfaces",
    (
        _c("/oo/classes", "Classes", "classes", CAT + "oo", CLAS.media_types),
        _c("/oo/interfaces", "Interfaces", "interfaces", CAT + "oo", INTF.media_types),
        _c("/oo/validation/objectname", "Validation of Object Name", "validation", CAT + "oo"),
    ),
)

_PROGRAMS = Workspace(
    "Programs",
    (
        _c("/programs/programs", "Programs", "programs", CAT + "programs", PROG.media_types),
        _c("/programs/includes", "Includes", "includes", CAT + "programs", INCL.media_types),
        _c("/programs/validation", "Program Validation", "validation", CAT + "programs"),
        _c("/includes/validation", "Include Validation", "validation", CAT + "includes"),
    ),
)

_FUNCTIONS = Workspace(
    "Function Groups; Functions; Function Group Includes",
    (
        _c(
            "/functions/groups",
            "Function Groups",
            "groups",
            CAT + "functions",
            FUGR.media_types,
            _link(
                CAT + "functiongroups/functionmodules",
                "/functions/groups/{groupname}/fmodules",
                title="Function Modules",
                type="application/vnd.sap.adt.functions.fmodules.v3+xml",
            ),
            _link(
                CAT + "functiongroups/includes",
                "/functions/groups/{groupname}/includes",
                title="Function Group Includes",
                type="application/vnd.sap.adt.functions.fincludes.v2+xml",
            ),
        ),
        _c("/functions/validation", "Function Group Validation", "validation", CAT + "functions"),
    ),
)

_ACTIVATION = Workspace(
    "Activation",
    (
        _c(
            "/activation/inactiveobjects",
            "Inactive Objects",
            "inactiveobjects",
            CAT + "activation",
            (),
            _link(REL + "activation/inactiveobjects", "/activation/inactiveobjects{?USERNAME}"),
        ),
        _c("/activation", "Activation", "activationruns", CAT + "activation"),
        _c(
            "/checkruns",
            "Check",
            "checkruns",
            CAT + "check",
            (),
            _link(CAT + "check/relations/reporters", "/checkruns{?reporters}"),
        ),
    ),
)

_DELETION = Workspace(
    "Deletion",
    (
        _c("/deletion/delete", "Deletion", "delete", CAT + "deletion", _vnd("deletion.request.v1")),
        _c(
            "/deletion/check",
            "Deletion check",
            "check",
            CAT + "deletion",
            _vnd("deletion.check.request.v1"),
        ),
    ),
)

_COMPLETION = CAT + "abapsource/codecompletion"
_SOURCE = Workspace(
    "ABAP Source",
    (
        _c("/abapsource/codecompletion/proposal", "Code Completion", "proposal", _COMPLETION),
        _c(
            "/abapsource/codecompletion/elementinfo",
            "Element Info",
            "elementinfo",
            _COMPLETION,
            ("text/plain",),
            _link(
                REL + "elementinfo",
                "/abapsource/codecompletion/elementinfo{?uri,fullname}",
                type="application/vnd.sap.adt.elementinfo+xml",
            ),
        ),
        _c("/abapsource/codecompletion/insertion", "Code Insertion", "insertion", _COMPLETION),
        _c("/abapsource/prettyprinter", "Pretty Printer", "prettyprinter", CAT + "abapsource"),
        _c(
            "/abapsource/prettyprinter/settings",
            "Pretty Printer Settings",
            "settings",
            CAT + "abapsource/prettyprinter",
            _vnd("ppsettings.v2", "ppsettings.v3", "ppsettings.v4", "ppsettings.v5"),
        ),
    ),
)

_NAVIGATION = Workspace(
    "Navigation",
    (
        _c(
            "/navigation/target",
            "Navigation",
            "target",
            CAT + "navigation",
            ("application/xml", "semantic.navigation.v1"),
            _link(CAT + "navigation/options", "/navigation/target{?uri,filter,fullname}"),
        ),
    ),
)

_FRAGMENTS = Workspace(
    "URI Fragment Mapper",
    (
        _c(
            "/urifragmentmappings",
            "URI Fragment Mapper",
            "urifragmentmappings",
            CAT + "urimapping/fragments",
            (),
            _link(
                CAT + "urimapping/fragments/plaintext",
                "/urifragmentmappings?targettype=plaintext&uri={uri}",
                title="Map URI Fragment to PlainText",
            ),
        ),
    ),
)

_QUICKFIXES = Workspace(
    "Quickfixes",
    (
        _c(
            "/quickfixes/evaluation",
            "Quickfixes",
            "evaluation",
            CAT + "quickfixes",
            ("application/vnd.sap.adt.quickfixes.evaluation+xml;version=1.0.0",),
        ),
    ),
)

_INFO = "/repository/informationsystem"
_REPOSITORY = Workspace(
    "Repository Information",
    (
        _c(
            f"{_INFO}/usageReferences",
            "Usage References",
            "usageReferences",
            REPOSITORY,
            (),
            _link(REL + "informationsystem/usageReferences", f"{_INFO}/usageReferences{{?uri}}"),
            _link(
                REL + "informationsystem/usageReferences/scope",
                f"{_INFO}/usageReferences/scope{{?uri}}",
            ),
        ),
        _c(
            f"{_INFO}/usageSnippets",
            "Usage Snippets",
            "usageSnippets",
            REPOSITORY,
            (),
            _link(REL + "informationsystem/usageSnippets", f"{_INFO}/usageSnippets"),
        ),
        _c(
            f"{_INFO}/search",
            "Search",
            "search",
            REPOSITORY,
            (),
            _link(
                REL + "informationsystem/search/quicksearch",
                f"{_INFO}/search{{?operation,query,maxResults}}{{&objectType*}}",
            ),
        ),
        _c("/repository/nodestructure", "Node Structure", "nodestructure", REPOSITORY),
    ),
)

_CTS = CAT + "cts"
_TRANSPORTS = Workspace(
    "Change and Transport System",
    (
        _c(
            "/cts/transports",
            "Transports",
            "transports",
            _CTS,
            (
                "application/vnd.sap.as+xml; charset=UTF-8; "
                "dataname=com.sap.adt.CreateCorrectionRequest",
            ),
        ),
        _c("/cts/transportchecks", "Transport Checks", "transportchecks", _CTS),
        _c(
            "/cts/transportrequests",
            "Transport Management",
            "transportmanagement",
            _CTS,
            _vnd("transportorganizer.v1"),
            _link(_CTS + "/transportrequests", "/cts/transportrequests{?targets}"),
            _link(
                _CTS + "/transportrequests/valuehelp/target",
                "/cts/transportrequests/valuehelp/target{?maxItemCount}{&name}",
            ),
        ),
        _c(
            "/cts/transportrequests/reference",
            "Transport Management",
            "transportmanagementref",
            _CTS,
        ),
        _c(
            "/cts/transportrequests/searchconfiguration/configurations",
            "Transport Search Configurations",
            "transportconfigurations",
            _CTS,
        ),
    ),
)

_UNIT = Workspace(
    "ABAP Unit",
    (
        _c(
            "/abapunit/testruns",
            "ABAP Unit Testruns",
            "unittestruns",
            CAT + "abapunit",
            (
                *_vnd(*(f"abapunit.testruns.config.v{n}" for n in range(1, 5))),
                "application/xml",
            ),
        ),
        _c("/abapunit/runs", "ABAP Unit", "runs", CAT + "api/abapunit"),
    ),
)

_ATC = CAT + "atc"
_ATC_REL = "http://www.sap.com/adt/atc/relations/"
_TEST_COCKPIT = Workspace(
    "ABAP Test Cockpit",
    (
        _c("/atc/customizing", "ATC customizing", "atccustomizing", _ATC),
        _c(
            "/atc/runs",
            "ATC runs",
            "atcruns",
            _ATC,
            (),
            _link(
                _ATC_REL + "worklist",
                "/atc/runs{?worklistId,clientWait}",
                title="ATC run in worklist mode",
            ),
        ),
        _c(
            "/atc/worklists",
            "ATC worklist",
            "atcworklists",
            _ATC,
            (),
            _link(_ATC_REL + "new", "/atc/worklists{?checkVariant}"),
            _link(
                _ATC_REL + "get",
                "/atc/worklists/{worklistId}{?timestamp,usedObjectSet,includeExemptedFindings}",
            ),
            _link(_ATC_REL + "actions/deleteFindings", "/atc/worklists/{worklistId}{?action}"),
        ),
    ),
)

_DDL_SOURCES = Workspace(
    "ABAP DDL Sources",
    (
        _c(
            "/ddic/ddl/formatter/identifiers",
            "DDL Case Preserving Formatter for Identifiers",
            "formatter/identifiers",
            CAT + "ddic/ddlsources",
            ("text/plain",),
        ),
    ),
)

_COMPATIBILITY = Workspace(
    "Compatibility",
    (_c("/compatibility/graph", "Compatibility graph", "graph", CAT + "compatibility"),),
)

#: ``/sap/bc/adt/discovery``: every resource of the emulator's areas.
WORKSPACES: tuple[Workspace, ...] = (
    _COMPATIBILITY,
    _TEST_COCKPIT,
    _PACKAGES,
    _UNIT,
    _TRANSPORTS,
    _SOURCE,
    _NAVIGATION,
    _PROGRAMS,
    _OO,
    _DELETION,
    _ACTIVATION,
    _FRAGMENTS,
    _FUNCTIONS,
    _QUICKFIXES,
    _REPOSITORY,
    _DDL_SOURCES,
)

#: ``/sap/bc/adt/core/discovery``: the core services only, at most one collection per
#: workspace (abap-adt-api reads a workspace's collection as a single element).
CORE_WORKSPACES: tuple[Workspace, ...] = (_COMPATIBILITY, Workspace("ADT Protected Mode"))


def _template_link(link: TemplateLink) -> str:
    return tag(
        "adtcomp:templateLink",
        [
            ("title", link.title),
            ("rel", link.rel),
            ("template", link.template),
            ("type", link.type),
        ],
    )


def _collection(collection: Collection) -> str:
    links = "".join(_template_link(link) for link in collection.links)
    return tag(
        "app:collection",
        [("href", collection.href)],
        text_tag("atom:title", collection.title)
        + "".join(text_tag("app:accept", accept) for accept in collection.accepts)
        + tag("atom:category", [("term", collection.term), ("scheme", collection.scheme)])
        + tag("adtcomp:templateLinks", [("xmlns:adtcomp", NS_ADTCOMP)], links),
    )


def service_document(workspaces: tuple[Workspace, ...]) -> str:
    """An AtomPub ``app:service`` document over ``workspaces``."""
    body = "".join(
        tag(
            "app:workspace",
            (),
            text_tag("atom:title", workspace.title)
            + "".join(_collection(c) for c in workspace.collections),
        )
        for workspace in workspaces
    )
    return DECL + tag("app:service", [("xmlns:app", NS_APP), ("xmlns:atom", NS_ATOM)], body)


def compatibility_graph() -> str:
    """An empty compatibility graph; clients call this resource for the CSRF token."""
    return DECL + tag(
        "compatibility:graph",
        [("xmlns:compatibility", NS_ADTCOMP)],
        tag("nodes") + tag("edges"),
    )
