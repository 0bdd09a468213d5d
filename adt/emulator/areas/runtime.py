"""Runtime errors: the short dumps feed and one dump's ST22 text (:mod:`adt.emulator.dumps`).

``GET /sap/bc/adt/runtime/dumps`` lists every dump, newest first; a ``$query`` naming a user
(``equals( user, NAME )``, the feed query abap-adt-api passes through) narrows it to theirs.
``GET /sap/bc/adt/runtime/dump/<id>/formatted`` answers the text; unknown ids are 404.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from starlette.responses import Response

from adt.emulator import errors
from adt.emulator.areas import Route
from adt.emulator.calls import respond
from adt.emulator.dumps import DUMP, DUMPS, feed, formatted

if TYPE_CHECKING:
    from adt.emulator.calls import Call
    from adt.emulator.state import SystemState

_USER = re.compile(r"equals\(\s*user\s*,\s*([^\s)]+)\s*\)", re.IGNORECASE)


class Runtime:
    def __init__(self, state: SystemState) -> None:
        self.state = state

    def listing(self, call: Call, match: re.Match[str]) -> Response:
        if call.method != "GET":
            raise errors.method_not_supported(call.method)
        wanted = _USER.search(call.query.get("$query") or "")
        with self.state.lock:
            dumps = self.state.dumps.of(wanted.group(1).upper() if wanted else None)
            body = feed(dumps)
        return respond(body, content_type="application/atom+xml;type=feed; charset=utf-8")

    def text(self, call: Call, match: re.Match[str]) -> Response:
        if call.method != "GET":
            raise errors.method_not_supported(call.method)
        with self.state.lock:
            dump = self.state.dumps.find(match.group(1))
        if dump is None:
            raise errors.not_found(None, f"Runtime error {match.group(1)}")
        return respond(formatted(dump), content_type="text/plain; charset=utf-8")


def routes(state: SystemState) -> list[Route]:
    area = Runtime(state)
    return [
        Route.at(DUMPS, area.listing),
        Route(re.compile(re.escape(DUMP) + r"/([\w.-]+)/formatted/?", re.IGNORECASE), area.text),
    ]
