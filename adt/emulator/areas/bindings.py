"""Publishing and unpublishing service bindings: ``POST
/sap/bc/adt/businessservices/odatav2|odatav4/publishjobs|unpublishjobs?servicename=<binding>
&serviceversion=<nnnn>`` (the calls of ADT's binding editor, as abap-adt-api and the RAP
tools send them), answered with an ``asx:abap`` status (``SEVERITY`` ``OK`` or ``ERROR``,
``SHORT_TEXT``). A binding of the other OData version or an unknown binding is an
``ERROR`` status, not an HTTP error (docs/protocol/cds-rap-dictionary.md)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from starlette.responses import Response

from adt.emulator import errors
from adt.emulator.areas import Route
from adt.emulator.calls import respond
from adt.emulator.documents import lifecycle as docs
from adt.emulator.kinds.srvb import PUBLISHED, SRVB
from adt.emulator.model import ADT, encode_name

if TYPE_CHECKING:
    from adt.emulator.calls import Call
    from adt.emulator.state import SystemState

_VERSION = re.compile(r'srvb:version="(V\d)"')


class Bindings:
    def __init__(self, state: SystemState) -> None:
        self.state = state

    def job(self, call: Call, match: re.Match[str]) -> Response:
        if call.method != "POST":
            raise errors.method_not_supported(call.method)
        name = (call.query.get("servicename") or "").upper()
        if not name:
            raise errors.parameter_missing("servicename")
        odata, publish = match.group(1).upper(), match.group(2).lower() == "publishjobs"
        with self.state.lock:
            obj = self.state.objects.get(f"{SRVB.collection}/{encode_name(name)}")
            if obj is None:
                return _status("ERROR", f"Service binding {name} does not exist")
            picked = obj.parts["main"].pick("active")
            found = _VERSION.search(picked[0].text) if picked is not None else None
            if found is None or found.group(1) != odata:
                return _status("ERROR", f"Service binding {name} is not an OData {odata} binding")
            obj.facts[PUBLISHED] = "true" if publish else "false"
        verb = "published" if publish else "unpublished"
        return _status("OK", f"Local service endpoint of {name} {verb}")


def _status(severity: str, text: str) -> Response:
    return respond(docs.status_message(severity, text), content_type=docs.STATUS_MESSAGE)


def routes(state: SystemState) -> list[Route]:
    area = Bindings(state)
    pattern = re.compile(
        re.escape(f"{ADT}/businessservices/") + r"odata(v[24])/(publishjobs|unpublishjobs)/?",
        re.IGNORECASE,
    )
    return [Route(pattern, area.job)]
