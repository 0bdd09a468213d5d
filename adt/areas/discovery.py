"""Which collections and templates a system offers (its service documents), and the
package value helps (software components, transport layers, …).

``/sap/bc/adt/core/discovery`` is the short document of core services, ``/sap/bc/adt/discovery``
the full one; both are AtomPub service documents (docs/protocol/discovery-and-packages.md).
Parsing matches namespaces, not prefixes.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlsplit

from lxml import etree

from adt._xml import XmlFormatError, _parse
from adt.areas.base import Area

NS_APP = "http://www.w3.org/2007/app"
NS_ATOM = "http://www.w3.org/2005/Atom"
NS_ADTCOMP = "http://www.sap.com/adt/compatibility"
NS_NAMEDITEM = "http://www.sap.com/adt/nameditem"

ATOMSVC = "application/atomsvc+xml"
NAMED_ITEMS = "application/vnd.sap.adt.nameditems.v1+xml"

#: The value helps of ``/sap/bc/adt/packages/valuehelps/<kind>``.
PACKAGE_VALUE_HELPS = (
    "applicationcomponents",
    "softwarecomponents",
    "transportlayers",
    "translationrelevances",
    "abaplanguageversions",
)


@dataclass(frozen=True)
class TemplateLink:
    """An RFC 6570 template a collection offers (``adtcomp:templateLink``)."""

    rel: str
    template: str
    title: str = ""
    type: str = ""


@dataclass(frozen=True)
class Collection:
    """One resource of a service document: where it is, what it accepts, what it is."""

    href: str
    title: str
    accepts: tuple[str, ...] = ()
    category_term: str = ""
    category_scheme: str = ""
    template_links: tuple[TemplateLink, ...] = ()
    workspace: str = ""

    def template_link(self, rel: str) -> TemplateLink | None:
        """The template with relation ``rel``, if the collection offers one."""
        return next((link for link in self.template_links if link.rel == rel), None)


@dataclass(frozen=True)
class Workspace:
    title: str
    collections: tuple[Collection, ...] = ()


def _path_key(url: str) -> str:
    """A URL compared the way ADT paths are: no query or fragment, no trailing slash,
    ``$`` and case spelled one way."""
    path = urlsplit(url).path.rstrip("/") or "/"
    return quote(path, safe="/%{}").replace("%24", "$").lower()


@dataclass(frozen=True)
class ServiceDocument:
    """A parsed ``app:service`` document."""

    workspaces: tuple[Workspace, ...] = ()

    @property
    def collections(self) -> tuple[Collection, ...]:
        return tuple(c for workspace in self.workspaces for c in workspace.collections)

    def workspace(self, title: str) -> Workspace | None:
        """The workspace titled ``title`` (abap-adt-api's ``featureDetails``)."""
        return next((w for w in self.workspaces if w.title == title), None)

    def find_collection(self, url: str) -> Collection | None:
        """The collection whose ``href`` is ``url`` (query, trailing slash, case and the
        spelling of ``$`` ignored); ``None`` when the system does not list it."""
        key = _path_key(url)
        return next((c for c in self.collections if _path_key(c.href) == key), None)

    def find_template(self, template: str) -> tuple[Collection, TemplateLink] | None:
        """The collection offering exactly ``template`` as a template link (abap-adt-api's
        ``collectionFeatureDetails``)."""
        for collection in self.collections:
            for link in collection.template_links:
                if link.template == template:
                    return collection, link
        return None

    def accepts(self, url: str) -> tuple[str, ...]:
        """The media types the collection at ``url`` accepts (empty when unlisted)."""
        found = self.find_collection(url)
        return found.accepts if found is not None else ()


@dataclass(frozen=True)
class NamedItem:
    """One value of a value help: the value, its text, and extra data (often empty)."""

    name: str
    description: str = ""
    data: str = ""


# --- parsers ------------------------------------------------------------------------------


def _text(element: etree._Element, namespace: str, local: str) -> str:
    return (element.findtext(f"{{{namespace}}}{local}") or "").strip()


def _template_links(collection: etree._Element) -> tuple[TemplateLink, ...]:
    path = f"{{{NS_ADTCOMP}}}templateLinks/{{{NS_ADTCOMP}}}templateLink"
    return tuple(
        TemplateLink(
            rel=link.get("rel", ""),
            template=link.get("template", ""),
            title=link.get("title", ""),
            type=link.get("type", ""),
        )
        for link in collection.findall(path)
    )


def _collection(element: etree._Element, workspace: str) -> Collection:
    category = element.find(f"{{{NS_ATOM}}}category")
    accepts = tuple(
        (accept.text or "").strip()
        for accept in element.findall(f"{{{NS_APP}}}accept")
        if (accept.text or "").strip()
    )
    return Collection(
        href=element.get("href", ""),
        title=_text(element, NS_ATOM, "title"),
        accepts=accepts,
        category_term=category.get("term", "") if category is not None else "",
        category_scheme=category.get("scheme", "") if category is not None else "",
        template_links=_template_links(element),
        workspace=workspace,
    )


def parse_service_document(body: bytes) -> ServiceDocument:
    """An AtomPub service document (``/discovery`` or ``/core/discovery``)."""
    root = _parse(body)
    if root.tag != f"{{{NS_APP}}}service":
        raise XmlFormatError(f"<{etree.QName(root).localname}> is not a service document")
    workspaces = []
    for element in root.findall(f"{{{NS_APP}}}workspace"):
        title = _text(element, NS_ATOM, "title")
        collections = tuple(
            _collection(c, title) for c in element.findall(f"{{{NS_APP}}}collection")
        )
        workspaces.append(Workspace(title, collections))
    return ServiceDocument(tuple(workspaces))


def parse_named_items(body: bytes) -> tuple[NamedItem, ...]:
    """``nameditem:namedItemList`` (value helps)."""
    root = _parse(body)
    if root.tag != f"{{{NS_NAMEDITEM}}}namedItemList":
        raise XmlFormatError(f"<{etree.QName(root).localname}> is not a named item list")
    return tuple(
        NamedItem(
            name=_text(item, NS_NAMEDITEM, "name"),
            description=_text(item, NS_NAMEDITEM, "description"),
            data=_text(item, NS_NAMEDITEM, "data"),
        )
        for item in root.findall(f"{{{NS_NAMEDITEM}}}namedItem")
    )


# --- the area -----------------------------------------------------------------------------


class Discovery(Area):
    """``client.discovery``: the service documents and the package value helps."""

    async def core(self) -> ServiceDocument:
        """The core discovery: the few services every ADT system has (graph, …)."""
        return await self._service("/sap/bc/adt/core/discovery")

    async def service(self) -> ServiceDocument:
        """The full discovery: every collection the system offers, with accepted media
        types, categories and template links. Large on real systems; fetch it once."""
        return await self._service("/sap/bc/adt/discovery")

    async def _service(self, path: str) -> ServiceDocument:
        response = await self._send("GET", path, headers={"Accept": ATOMSVC})
        return parse_service_document(response.content)

    async def package_value_help(
        self, kind: str, name: str = "*", *, max_items: int | None = None
    ) -> tuple[NamedItem, ...]:
        """The values of one package value help (``transportlayers``, …); ``name`` is a
        pattern with ``*``. An unknown ``kind`` is refused before anything is sent."""
        if kind not in PACKAGE_VALUE_HELPS:
            raise ValueError(f"kind must be one of {', '.join(PACKAGE_VALUE_HELPS)}, not {kind!r}")
        params = {"name": name}
        if max_items is not None:
            params["maxItemCount"] = str(max_items)
        response = await self._send(
            "GET",
            f"/sap/bc/adt/packages/valuehelps/{kind}",
            params=params,
            headers={"Accept": f"application/xml, {NAMED_ITEMS}"},
        )
        return parse_named_items(response.content)


__all__ = [
    "PACKAGE_VALUE_HELPS",
    "Collection",
    "Discovery",
    "NamedItem",
    "ServiceDocument",
    "TemplateLink",
    "Workspace",
    "parse_named_items",
    "parse_service_document",
]
