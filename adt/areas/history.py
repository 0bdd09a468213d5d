"""Inactive objects and the revisions (versions) of a source.

* :meth:`History.inactive_objects` — ``GET /sap/bc/adt/activation/inactiveobjects``: the
  caller's objects (or sub-objects such as class includes) that have an unactivated
  version, with the transport request each is recorded in. A tool warns about drafts with it.
* :meth:`History.revisions` — the object's ``versions`` link (from its metadata), an Atom
  feed of the source unit's versions, newest first.
* :meth:`History.read_revision` / :meth:`History.compare` — one version's text, and a
  comparison of the current source with the active version or with a revision.

The wire protocol is in docs/protocol/inactive-objects.md and docs/protocol/versions.md.
"""

from __future__ import annotations

import dataclasses
import difflib
import re

from lxml import etree

from adt import _xml
from adt.areas.base import Area
from adt.errors import UnexpectedResponseError
from adt.models import ObjectMetadata, SourceText, Timestamp
from adt.text import to_canonical
from adt.urls import validate_adt_path

NS_IOC = "http://www.sap.com/abapxml/inactiveCtsObjects"
NS_ADTCORE = "http://www.sap.com/adt/core"
NS_ATOM = "http://www.w3.org/2005/Atom"
INACTIVE_ACCEPT = "application/vnd.sap.adt.inactivectsobjects.v1+xml, application/xml;q=0.8"
FEED_ACCEPT = "application/atom+xml;type=feed"
VERSIONS_REL = "http://www.sap.com/adt/relations/versions"
TRANSPORT_REQUEST_TYPE = "application/vnd.sap.adt.transportrequests.v1+xml"
#: ``atom:id`` of the inactive version and of the current active version (SAP's VRSD rule).
DRAFT_VERSION = "99999"
ACTIVE_VERSION = "00000"

_SOURCE_SUFFIX = re.compile(r"/(?:source/main|includes/(?P<include>[^/]+))/?$", re.IGNORECASE)


@dataclasses.dataclass(frozen=True)
class TransportRef:
    """The request (or task) an inactive object is recorded in."""

    number: str
    uri: str
    user: str
    linked: bool
    parent_uri: str = ""


@dataclasses.dataclass(frozen=True)
class InactiveObject:
    """One entry of the inactive-objects list. ``uri`` may name a sub-object (a class
    include such as ``…/includes/definitions``, a method ``…#type=CLAS%2FOM;name=X``);
    ``object_url`` is the object to activate for it."""

    uri: str
    type: str
    name: str
    parent_uri: str = ""
    description: str = ""
    package: str = ""
    user: str = ""
    deleted: bool = False
    transport: TransportRef | None = None

    @property
    def object_url(self) -> str:
        """The activatable object: a class for its includes and methods, else ``uri``."""
        if self.parent_uri and self.type.upper().startswith("CLAS/"):
            return self.parent_uri
        return self.uri.split("#", 1)[0]


@dataclasses.dataclass(frozen=True)
class Revision:
    """One version of a source unit from its version list.

    ``version_id`` is SAP's ``atom:id``: ``99999`` the inactive version, ``00000`` the
    active one, ``00001``… older ones (higher is newer). ``transport`` is the request the
    version was recorded in (what abap-adt-api calls ``version``); ``title`` its text.
    """

    version_id: str
    url: str
    author: str
    date: Timestamp | None
    transport: str = ""
    title: str = ""

    @property
    def is_draft(self) -> bool:
        return self.version_id == DRAFT_VERSION

    @property
    def is_active(self) -> bool:
        return self.version_id == ACTIVE_VERSION


@dataclasses.dataclass(frozen=True)
class SourceComparison:
    """The current text of a source next to an older one (the active version or a revision)."""

    source_url: str
    base_label: str
    base: str
    current: str

    @property
    def changed(self) -> bool:
        return self.base != self.current

    def unified_diff(self, context: int = 3) -> str:
        """A unified diff from the older text to the current one ("" when equal)."""
        lines = difflib.unified_diff(
            self.base.split("\n"),
            self.current.split("\n"),
            fromfile=f"{self.source_url} ({self.base_label})",
            tofile=f"{self.source_url} (current)",
            n=context,
            lineterm="",
        )
        return "\n".join(lines)


# --- parsers ------------------------------------------------------------------------------


def _a(element: etree._Element, ns: str, local: str) -> str:
    return element.get(f"{{{ns}}}{local}") or ""


def _transport_ref(element: etree._Element | None) -> TransportRef | None:
    ref = element.find(f"{{{NS_IOC}}}ref") if element is not None else None
    if element is None or ref is None:
        return None
    return TransportRef(
        number=_a(ref, NS_ADTCORE, "name"),
        uri=_a(ref, NS_ADTCORE, "uri"),
        user=_a(element, NS_IOC, "user"),
        linked=_a(element, NS_IOC, "linked") == "true",
        parent_uri=_a(ref, NS_ADTCORE, "parentUri"),
    )


def _reference(ref: etree._Element) -> InactiveObject:
    return InactiveObject(
        uri=_a(ref, NS_ADTCORE, "uri"),
        type=_a(ref, NS_ADTCORE, "type"),
        name=_a(ref, NS_ADTCORE, "name"),
        parent_uri=_a(ref, NS_ADTCORE, "parentUri"),
        description=_a(ref, NS_ADTCORE, "description"),
        package=_a(ref, NS_ADTCORE, "packageName"),
    )


def parse_inactive_objects(body: bytes) -> tuple[InactiveObject, ...]:
    """``ioc:inactiveObjects`` (entries without an object, i.e. bare requests, are skipped),
    the flat ``adtcore:objectReferences`` form, or an empty body (no objects)."""
    if not body.strip():
        return ()
    root = _xml._parse(body)
    if root.tag == f"{{{NS_ADTCORE}}}objectReferences":
        return tuple(_reference(ref) for ref in root.iter(f"{{{NS_ADTCORE}}}objectReference"))
    if root.tag != f"{{{NS_IOC}}}inactiveObjects":
        raise _xml.XmlFormatError(f"unexpected inactive-objects answer <{etree.QName(root)}>")
    objects: list[InactiveObject] = []
    for entry in root.findall(f"{{{NS_IOC}}}entry"):
        holder = entry.find(f"{{{NS_IOC}}}object")
        ref = holder.find(f"{{{NS_IOC}}}ref") if holder is not None else None
        if holder is None or ref is None:
            continue
        objects.append(
            dataclasses.replace(
                _reference(ref),
                user=_a(holder, NS_IOC, "user"),
                deleted=_a(holder, NS_IOC, "deleted") == "true",
                transport=_transport_ref(entry.find(f"{{{NS_IOC}}}transport")),
            )
        )
    return tuple(objects)


def _text(element: etree._Element, path: str) -> str:
    found = element.find(path, {"atom": NS_ATOM})
    return (found.text or "").strip() if found is not None else ""


def _transport_of(entry: etree._Element) -> str:
    links = entry.findall(f"{{{NS_ATOM}}}link")
    preferred = [link for link in links if link.get("type") == TRANSPORT_REQUEST_TYPE]
    chosen = preferred or links
    return _a(chosen[0], NS_ADTCORE, "name") if chosen else ""


def parse_revisions(body: bytes, feed_url: str) -> tuple[Revision, ...]:
    """An Atom version list; content links are resolved against the feed URL."""
    root = _xml._parse(body)
    if root.tag != f"{{{NS_ATOM}}}feed":
        raise _xml.XmlFormatError(f"unexpected version list <{etree.QName(root)}>")
    revisions = []
    for entry in root.findall(f"{{{NS_ATOM}}}entry"):
        content = entry.find(f"{{{NS_ATOM}}}content")
        src = content.get("src", "") if content is not None else ""
        revisions.append(
            Revision(
                version_id=_text(entry, "atom:id"),
                url=_xml.follow_href(feed_url, src) if src else "",
                author=_text(entry, "atom:author/atom:name"),
                date=Timestamp.parse_iso(_text(entry, "atom:updated")),
                transport=_transport_of(entry),
                title=_text(entry, "atom:title"),
            )
        )
    return tuple(revisions)


def split_source_url(url: str) -> tuple[str, str | None]:
    """``(object URL, include type)``: ``…/source/main`` → main, ``…/includes/x`` → x, an
    object URL → ``None`` (its main source)."""
    match = _SOURCE_SUFFIX.search(url)
    if match is None:
        return url.rstrip("/"), None
    return url[: match.start()], (match.group("include") or "main").lower()


def versions_url(metadata: ObjectMetadata, include: str | None = None) -> str:
    """The version list of an object's source (a class's: of one include, ``main`` by default)
    from its metadata's ``versions`` link; raises when the object advertises none."""
    links = metadata.links
    if metadata.is_class:
        found = metadata.include(include or "main")
        links = found.links if found is not None else ()
    for link in links:
        if link.rel == VERSIONS_REL:
            return link.url
    part = f" (include {include})" if include else ""
    raise UnexpectedResponseError(
        f"{metadata.name}{part} has no versions link: its type keeps no version history"
    )


# --- the area -----------------------------------------------------------------------------


class History(Area):
    """Inactive objects and the version history of sources (see docs/client.md)."""

    async def inactive_objects(self, user: str | None = None) -> tuple[InactiveObject, ...]:
        """The objects with an inactive version of the logged-on user (or of ``user``)."""
        params = {"USERNAME": user.upper()} if user else None
        response = await self._send(
            "GET",
            "/sap/bc/adt/activation/inactiveobjects",
            params=params,
            headers={"Accept": INACTIVE_ACCEPT},
        )
        return parse_inactive_objects(response.content)

    async def versions_url(
        self, url: str, *, include: str | None = None, metadata: ObjectMetadata | None = None
    ) -> str:
        """Where the version list of ``url`` (an object or one of its sources) is."""
        object_url, from_url = split_source_url(validate_adt_path(url))
        if metadata is None:
            metadata = await self._client.object_metadata(object_url)
        return versions_url(metadata, include or from_url)

    async def revisions(
        self, url: str, *, include: str | None = None, metadata: ObjectMetadata | None = None
    ) -> tuple[Revision, ...]:
        """The versions of a source, newest first. ``url`` is an object URL (its main
        source; ``include`` picks a class include) or a source URL (``…/source/main``,
        ``…/includes/definitions``). Pass ``metadata`` to save the metadata read."""
        feed_url = await self.versions_url(url, include=include, metadata=metadata)
        response = await self._send("GET", feed_url, headers={"Accept": FEED_ACCEPT})
        return parse_revisions(response.content, feed_url)

    async def read_revision(self, revision: Revision | str) -> SourceText:
        """The text of one version (a :class:`Revision` or its content URL), canonical LF."""
        url = revision.url if isinstance(revision, Revision) else revision
        response = await self._send("GET", url, headers={"Accept": "text/plain"})
        return SourceText(
            text=to_canonical(response.content.decode("utf-8")),
            etag=response.headers.get("etag", ""),
            last_modified=Timestamp.parse_http_date(response.headers.get("last-modified")),
        )

    async def compare(self, source_url: str, revision: Revision | None = None) -> SourceComparison:
        """The current source (the inactive version if there is one) against ``revision``,
        or against the active version when none is given."""
        current = await self._client.read_source(source_url)
        if revision is None:
            base = await self._client.read_source(source_url, version="active")
            label = "active"
        else:
            base = await self.read_revision(revision)
            label = f"version {revision.version_id}"
        return SourceComparison(source_url, label, base.text, current.text)


__all__ = [
    "History",
    "InactiveObject",
    "Revision",
    "SourceComparison",
    "TransportRef",
    "parse_inactive_objects",
    "parse_revisions",
    "split_source_url",
    "versions_url",
]
