"""Transport requests: checks for an object, the user's requests, creating and releasing.

Endpoints and shapes: ``docs/protocol/transports.md``; the typed results and their parsers
are in :mod:`adt.areas.transport_results`. A4H answers release failures with 200:
:class:`ReleaseReport` says whether the release happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple
from xml.sax.saxutils import escape, quoteattr

from adt.areas.base import Area
from adt.areas.transport_results import (
    CheckMessage,
    ObjectLock,
    ReleaseMessage,
    ReleaseReport,
    RequestHeader,
    TransportCheck,
    TransportObject,
    TransportRequest,
    TransportTask,
    UserRequests,
    parse_check,
    parse_details,
    parse_release,
    parse_user_requests,
)
from adt.errors import BadRequestError, NoAccessError, ServerFailure, UnexpectedResponseError
from adt.urls import validate_adt_path

BASE = "/sap/bc/adt/cts/transportrequests"
CHECK_DATA = (
    "application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.transport.service.checkData"
)
CREATE_REQUEST = (
    "application/vnd.sap.as+xml; charset=UTF-8; dataname=com.sap.adt.CreateCorrectionRequest"
)
ORGANIZER = "application/vnd.sap.adt.transportorganizer.v1+xml"
TM_NS = "http://www.sap.com/cts/adt/tm"


class ObjectKey(NamedTuple):
    """How the transport organizer names an object: ``R3TR PROG ZDEMO_REPORT``."""

    pgmid: str
    type: str
    name: str


class TransportRequiredError(BadRequestError):
    """A change in a transportable package without a request (400 "Parameter corrNr could
    not be found."): pass ``transport=`` (see :meth:`Transports.check`)."""


class TransportRequestError(NoAccessError):
    """``corrNr`` names no request of this system, or a task instead of a request (403)."""


class LockedInOtherRequestError(ServerFailure):
    """CTS_WBO_API/020: the object is already locked in another request (500)."""

    @property
    def request(self) -> str:
        """The request that holds the object (use it, or release it first)."""
        return self.properties.get("corrNr", "")


def transport_error(error: Exception) -> Exception:
    """The transport-specific error for a refused change, or ``error`` itself."""
    if isinstance(error, BadRequestError) and "corrNr" in error.info.text:
        hint = "Pass a transport request (corrNr); Transports.check lists the candidates."
        return TransportRequiredError(error.info, hint)
    if isinstance(error, NoAccessError) and error.type_id == "ExceptionResourceNoAuthorization":
        return TransportRequestError(error.info, "Pass the number of a modifiable request.")
    if isinstance(error, ServerFailure) and error.t100 and error.t100.area == "CTS_WBO_API":
        return LockedInOtherRequestError(error.info, "Use the request the object is locked in.")
    return error


# --- request bodies -------------------------------------------------------------------


def asx_data(**fields: str) -> bytes:
    """An ``asx:abap`` request body with the fields in the given order."""
    inner = "".join(f"<{key}>{escape(value)}</{key}>" for key, value in fields.items())
    return (
        '<?xml version="1.0" encoding="UTF-8"?><asx:abap xmlns:asx="http://www.sap.com/abapxml"'
        f' version="1.0"><asx:values><DATA>{inner}</DATA></asx:values></asx:abap>'
    ).encode()


# --- the area -------------------------------------------------------------------------


class Transports(Area):
    """``client.transports``: transport checks, the user's requests, create, details,
    delete and release."""

    async def check(
        self, object_url: str, package: str = "", *, operation: str = "I"
    ) -> TransportCheck:
        """Whether changing ``object_url`` in ``package`` needs a request, which requests
        fit, and which request already holds the object."""
        body = asx_data(
            DEVCLASS=package.upper(), OPERATION=operation, URI=validate_adt_path(object_url)
        )
        response = await self._send(
            "POST",
            "/sap/bc/adt/cts/transportchecks",
            headers={"Accept": CHECK_DATA.replace("; ", ";"), "Content-Type": CHECK_DATA},
            content=body,
        )
        return parse_check(response.content)

    async def create(self, text: str, package: str, *, object_url: str = "") -> str:
        """Create a workbench request (one task for the caller); returns its number.
        ``object_url`` only helps the system find the transport route."""
        body = asx_data(DEVCLASS=package.upper(), REQUEST_TEXT=text, REF=object_url, OPERATION="I")
        response = await self._send(
            "POST",
            "/sap/bc/adt/cts/transports",
            headers={"Accept": "text/plain", "Content-Type": CREATE_REQUEST},
            content=body,
        )
        number = response.text.strip().rsplit("/", 1)[-1]
        if not number:
            raise UnexpectedResponseError("the answer names no request number")
        return number

    async def user_requests(self, user: str | None = None) -> UserRequests:
        """The workbench requests of ``user`` (default: the logged-on user)."""
        response = await self._send(
            "GET",
            BASE,
            params={"user": (user or self._client.profile.user).upper(), "targets": "true"},
            headers={"Accept": "application/vnd.sap.adt.transportorganizertree.v1+xml"},
        )
        return parse_user_requests(response.content)

    async def details(self, number: str) -> TransportRequest:
        """A request with its tasks and objects (a task number gives its request)."""
        response = await self._send(
            "GET", f"{BASE}/{number.upper()}", headers={"Accept": ORGANIZER}
        )
        return parse_details(response.content)

    async def delete(self, number: str) -> None:
        """Delete a request or task (refused when released or holding objects)."""
        await self._send("DELETE", f"{BASE}/{number.upper()}", headers={"Accept": "application/*"})

    async def remove_objects(self, task: str, objects: Sequence[ObjectKey]) -> None:
        """Take objects out of a task (``removeobject``): no longer locked in its request."""
        await self._organize(task, "removeobject", objects)

    async def add_objects(self, request: str, objects: Sequence[ObjectKey]) -> None:
        """Record existing objects in the caller's task of ``request`` (``addobject``)."""
        await self._organize(request, "addobject", objects)

    async def _organize(self, number: str, action: str, objects: Sequence[ObjectKey]) -> None:
        number = number.upper()
        rows = "".join(
            f"<tm:abap_object tm:pgmid={quoteattr(o.pgmid)} tm:type={quoteattr(o.type)} "
            f"tm:name={quoteattr(o.name)}/>"
            for o in objects
        )
        body = (
            f'<?xml version="1.0" encoding="UTF-8"?><tm:root xmlns:tm="{TM_NS}" '
            f"tm:number={quoteattr(number)} tm:useraction={quoteattr(action)}>"
            f"<tm:request>{rows}</tm:request></tm:root>"
        )
        await self._send(
            "PUT",
            f"{BASE}/{number}",
            headers={"Accept": ORGANIZER, "Content-Type": "application/xml"},
            content=body.encode(),
        )

    async def release(
        self, number: str, *, ignore_locks: bool = False, ignore_atc: bool = False
    ) -> ReleaseReport:
        """Release a task, then its request. A refusal is a report, not an exception."""
        action = (
            "relObjigchkatc"
            if ignore_atc
            else "relwithignlock"
            if ignore_locks
            else "newreleasejobs"
        )
        response = await self._send(
            "POST", f"{BASE}/{number.upper()}/{action}", headers={"Accept": "application/*"}
        )
        return parse_release(response.content)


__all__ = [
    "CheckMessage",
    "LockedInOtherRequestError",
    "ObjectKey",
    "ObjectLock",
    "ReleaseMessage",
    "ReleaseReport",
    "RequestHeader",
    "TransportCheck",
    "TransportObject",
    "TransportRequest",
    "TransportRequestError",
    "TransportRequiredError",
    "TransportTask",
    "Transports",
    "UserRequests",
]
