"""ADT's case preserving formatter for identifiers of DDL sources.

``POST /ddic/ddl/formatter/identifiers`` (and the same below ``ddic/ddlx`` and
``ddic/srvd``), ``text/plain`` in and out: the text with every name of something defined in
CDS written as its definition writes it (:mod:`adt.abap.cds.identifiers`), over the
system's catalog. Eclipse's DDL formatter lays a source out on the client and asks the
system only for this (discovery: "DDL Case Preserving Formatter for Identifiers"). Line
breaks, blanks, comments and everything else come back as sent. Nothing is stored.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from adt.abap.cds.identifiers import recase
from adt.emulator.areas import Handler, Route
from adt.emulator.areas.formatting import negotiate, only_methods, request_text
from adt.emulator.calls import Call, respond

from ..cds_language import catalog, parsed
from ..model import ADT

if TYPE_CHECKING:
    from starlette.responses import Response

    from adt.emulator.state import SystemState

#: Formatter path → the ADT type whose language its text is.
FORMATTERS = {
    f"{ADT}/ddic/ddl/formatter/identifiers": "DDLS",
    f"{ADT}/ddic/ddlx/formatter/identifiers": "DDLX",
    f"{ADT}/ddic/srvd/formatter/identifiers": "SRVD",
}


class DdlFormatterArea:
    def __init__(self, state: SystemState) -> None:
        self.state = state

    def routes(self) -> list[Route]:
        return [Route.at(path, self._handler(kind)) for path, kind in FORMATTERS.items()]

    def _handler(self, kind: str) -> Handler:
        def handle(call: Call, match: re.Match[str]) -> Response:
            return self.format(call, kind)

        return handle

    def format(self, call: Call, kind: str) -> Response:
        only_methods(call, "POST")
        negotiate(call, "text/plain")
        text = request_text(call)
        formatted = recase(text, parsed(kind, text), catalog(self.state))
        return respond(formatted, content_type="text/plain; charset=utf-8")


def routes(state: SystemState) -> list[Route]:
    return DdlFormatterArea(state).routes()
