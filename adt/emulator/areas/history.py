"""Inactive objects and revisions of sources (docs/protocol/inactive-objects.md, versions.md).

* ``GET /sap/bc/adt/activation/inactiveobjects[?USERNAME=]``: the caller's (or the named
  user's) source units that have an inactive version.
* ``GET {source}/versions`` (``…/source/main/versions``; for classes
  ``…/includes/<type>/versions``): the unit's version list, newest first.
* ``GET {source}/versions/<stamp>/<number>/content``: the text of one version.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from starlette.responses import Response

from adt.emulator import errors, stamps
from adt.emulator.areas import Route
from adt.emulator.documents import history as documents
from adt.emulator.kinds import REGISTRY
from adt.emulator.model import ADT, CLAS, FINC, FUGR, FUNC, INCL, INTF, PROG, Kind, RepoObject
from adt.emulator.negotiation import choose
from adt.emulator.revisions import NumberedRevision, inactive_entries, recording_request

if TYPE_CHECKING:
    from adt.emulator.calls import Call
    from adt.emulator.state import SystemState

#: The request text the emulator's generated requests carry (as in the LOCK answer).
REQUEST_TEXT = "Generated Request for Change Recording"

_VERSIONS = re.compile(
    re.escape(ADT) + r"/(?P<source>(?:oo|programs|functions)/.+?/(?:source/main|includes/[^/]+))"
    r"/versions(?:/(?P<stamp>[^/]+)/(?P<number>[^/]+)/content)?/?",
    re.IGNORECASE,
)

#: The version-management type in the feed title (VRSD object types).
_VERSION_TYPE = {PROG: "REPS", INCL: "REPS", FUGR: "REPS", FINC: "REPS", INTF: "INTF", FUNC: "FUNC"}


def _respond(body: str, content_type: str) -> Response:
    return Response(body.encode("utf-8"), headers={"content-type": content_type})


def _negotiate(call: Call, offers: list[str]) -> str:
    chosen = choose(call.headers.get("accept"), offers)
    if chosen is None:
        raise errors.not_acceptable([offer.split(";")[0] for offer in offers])
    return chosen


def _only_get(call: Call) -> None:
    if call.method != "GET":
        raise errors.method_not_supported(call.method)


# inactive objects ----------------------------------------------------------------------------


def _inactive_objects(state: SystemState, call: Call) -> Response:
    _only_get(call)
    chosen = _negotiate(call, [documents.INACTIVE_CTS, "application/xml"])
    user = (call.query.get("USERNAME") or call.query.get("username") or call.user).upper()
    rows = inactive_entries(state, user)
    if chosen == documents.INACTIVE_CTS:
        body = documents.inactive_objects(rows)
    else:
        body = documents.inactive_references(rows)
    return _respond(body, f"{chosen}; charset=utf-8")


# revisions -----------------------------------------------------------------------------------


def _kind_of_key(key: str) -> Kind:
    kind = REGISTRY.kind_of_uri(key)
    assert kind is not None, key
    return kind


def _source_unit(state: SystemState, source: str) -> tuple[RepoObject, str]:
    """The object and part a ``…/versions`` path belongs to; 404 like SAP otherwise."""
    parsed = state.parse_path(source)
    if parsed is None or parsed[1] is None or parsed[2]:
        raise errors.no_suitable_resource()
    key, part = parsed[0], parsed[1]
    obj = state.objects.get(key)
    if obj is None:
        kind = _kind_of_key(key)
        raise errors.not_found(kind.resource_word, key.rsplit("/", 1)[1].upper())
    via_source_main = source.lower().endswith("/source/main")
    if via_source_main == (obj.kind is CLAS):
        # classes keep one history per include; the others only under source/main
        raise errors.no_suitable_resource()
    if part not in obj.parts:
        raise errors.not_found(obj.kind.resource_word, obj.include_name(part))
    return obj, part


def _feed_base(obj: RepoObject, part: str) -> str:
    if obj.kind is CLAS:
        return f"{obj.uri}/includes/{part}/versions"
    return f"{obj.source_uri('main')}/versions"


def _version_type(obj: RepoObject, part: str) -> str:
    if obj.kind is CLAS:
        return "CLAS" if part == "main" else "CINC"
    return _VERSION_TYPE.get(obj.kind, obj.kind.r3tr)


def _numbered(state: SystemState, obj: RepoObject, part: str) -> list[NumberedRevision]:
    return state.revisions.numbered(obj, obj.parts[part], recording_request(state, obj))


def _feed(state: SystemState, obj: RepoObject, part: str) -> str:
    base = _feed_base(obj, part)
    entries = [
        documents.FeedEntry(
            number=item.number,
            author=item.revision.author,
            updated=stamps.iso(item.revision.changed_at),
            content_src=f"{base}/{documents.FEED_STAMP}/{item.number}/content",
            transport=item.revision.transport,
            transport_text=REQUEST_TEXT,
        )
        for item in _numbered(state, obj, part)
    ]
    return documents.revision_feed(obj.name, _version_type(obj, part), entries)


def _content(state: SystemState, obj: RepoObject, part: str, number: str) -> str:
    for item in _numbered(state, obj, part):
        if item.number == number:
            return item.revision.text
    raise errors.AdtException(
        404, "ExceptionResourceNotFound", f"Version {number} of {obj.name} does not exist"
    )


def _versions(state: SystemState, call: Call, match: re.Match[str]) -> Response:
    _only_get(call)
    with state.lock:
        obj, part = _source_unit(state, f"{ADT}/{match['source']}")
        if match["number"] is None:
            _negotiate(call, [documents.ATOM_FEED])
            return _respond(_feed(state, obj, part), documents.ATOM_FEED)
        _negotiate(call, ["text/plain"])
        text = _content(state, obj, part, match["number"])
    return _respond(obj.served(text), "text/plain; charset=utf-8")


def routes(state: SystemState) -> list[Route]:
    return [
        Route.at(
            f"{ADT}/activation/inactiveobjects",
            lambda call, _match: _inactive_objects(state, call),
        ),
        Route(_VERSIONS, lambda call, match: _versions(state, call, match)),
    ]
