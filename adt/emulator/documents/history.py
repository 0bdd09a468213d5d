"""Inactive-objects lists and revision feeds (docs/protocol/inactive-objects.md, versions.md).

Clients such as abap-adt-api match these documents by their literal prefixes (``ioc:``,
``adtcore:``, ``atom:``), so the prefixes below are part of the contract, not a style.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..xmlwriter import ATOM_NS, DECL, tag, text_tag
from .common import NS_ADTCORE, REL

NS_IOC = "http://www.sap.com/abapxml/inactiveCtsObjects"
INACTIVE_CTS = "application/vnd.sap.adt.inactivectsobjects.v1+xml"
ATOM_FEED = "application/atom+xml;type=feed"
TRANSPORT_REQUEST = "application/vnd.sap.adt.transportrequests.v1+xml"
#: The timestamp segment of content links and the feed's ``atom:updated``: a constant on
#: the systems seen (``19700101101123``), whatever the version's own time.
FEED_STAMP = "19700101101123"
FEED_UPDATED = "1970-01-01T10:11:23Z"


@dataclass(frozen=True)
class InactiveRow:
    """One ``ioc:entry``: the object (sub-object) and the request it is recorded in."""

    uri: str
    type: str
    name: str
    parent_uri: str | None
    description: str | None
    package: str
    user: str
    transport: str | None


@dataclass(frozen=True)
class FeedEntry:
    """One ``atom:entry`` of a version list."""

    number: str
    author: str
    updated: str
    content_src: str
    transport: str | None
    transport_text: str


def _ref(row: InactiveRow) -> str:
    return tag(
        "ioc:ref",
        [
            ("adtcore:uri", row.uri),
            ("adtcore:type", row.type),
            ("adtcore:name", row.name),
            ("adtcore:parentUri", row.parent_uri),
            ("adtcore:description", row.description),
            ("xmlns:adtcore", NS_ADTCORE),
        ],
    )


def _transport(row: InactiveRow) -> str:
    if row.transport is None:
        return tag("ioc:transport")
    ref = tag(
        "ioc:ref",
        [
            ("adtcore:uri", f"/sap/bc/adt/cts/transportrequests/{row.transport}"),
            ("adtcore:type", "/RQ"),
            ("adtcore:name", row.transport),
            ("xmlns:adtcore", NS_ADTCORE),
        ],
    )
    return tag("ioc:transport", [("ioc:user", row.user), ("ioc:linked", "true")], ref)


def inactive_objects(rows: Sequence[InactiveRow]) -> str:
    """``ioc:inactiveObjects``; an empty list is the self-closed root."""
    body = "".join(
        tag(
            "ioc:entry",
            (),
            tag("ioc:object", [("ioc:user", row.user), ("ioc:deleted", "false")], _ref(row))
            + _transport(row),
        )
        for row in rows
    )
    return DECL + tag("ioc:inactiveObjects", [("xmlns:ioc", NS_IOC)], body)


def inactive_references(rows: Sequence[InactiveRow]) -> str:
    """The flat ``adtcore:objectReferences`` form, for clients that accept only XML."""
    body = "".join(
        tag(
            "adtcore:objectReference",
            [
                ("adtcore:uri", row.uri),
                ("adtcore:type", row.type),
                ("adtcore:name", row.name),
                ("adtcore:parentUri", row.parent_uri),
                ("adtcore:packageName", row.package),
            ],
        )
        for row in rows
    )
    return DECL + tag("adtcore:objectReferences", [("xmlns:adtcore", NS_ADTCORE)], body)


def _transport_links(number: str, text: str) -> str:
    common = [("rel", REL + "transport/request")]
    vit = tag(
        "atom:link",
        [
            ("adtcore:name", number),
            ("href", f"/sap/bc/adt/vit/wb/object_type/%20%20%20%20rq/object_name/{number}"),
            *common,
            ("type", "application/vnd.sap.sapgui"),
            ("title", text),
        ],
    )
    adt = tag(
        "atom:link",
        [
            ("adtcore:name", number),
            ("href", f"/sap/bc/adt/cts/transportrequests/{number}"),
            *common,
            ("type", TRANSPORT_REQUEST),
            ("title", text),
        ],
    )
    return vit + adt


def _feed_entry(entry: FeedEntry) -> str:
    body = (
        tag("atom:author", (), text_tag("atom:name", entry.author))
        + tag("atom:content", [("type", "text/plain"), ("src", entry.content_src)])
        + text_tag("atom:id", entry.number)
    )
    if entry.transport is not None:
        body += _transport_links(entry.transport, entry.transport_text)
        body += text_tag("atom:title", entry.transport_text)
    body += text_tag("atom:updated", entry.updated)
    return tag("atom:entry", (), body)


def revision_feed(name: str, version_type: str, entries: Sequence[FeedEntry]) -> str:
    """``atom:feed`` "Version List of NAME (TYPE)", entries newest first."""
    head = text_tag("atom:title", f"Version List of {name} ({version_type})") + text_tag(
        "atom:updated", FEED_UPDATED
    )
    body = head + "".join(_feed_entry(entry) for entry in entries)
    return DECL + tag("atom:feed", [("xmlns:atom", ATOM_NS), ("xmlns:adtcore", NS_ADTCORE)], body)


__all__ = [
    "ATOM_FEED",
    "FEED_STAMP",
    "INACTIVE_CTS",
    "NS_IOC",
    "FeedEntry",
    "InactiveRow",
    "inactive_objects",
    "inactive_references",
    "revision_feed",
]
