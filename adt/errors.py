"""Typed errors for everything that can go wrong between us and an ADT server.

Callers branch on the class, never on message text: SAP localises its messages, so the
stable parts are the HTTP status, the exception type id and the T100 key (area and number,
both strings: ``"EU"``, ``"510"``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


class AdtError(Exception):
    """Base class of every error this package raises."""


class InvalidObjectUrlError(AdtError, ValueError):
    """An object or source URL that is not a plain path under ``/sap/bc/adt/``."""


class NotAClassError(InvalidObjectUrlError):
    """A class-include path (``/includes/definitions``...) on an object that is no class."""


class LineTooLongError(AdtError, ValueError):
    """A source line exceeds ABAP's 255-character limit; raised before anything is sent."""

    def __init__(self, line_number: int, length: int, limit: int = 255) -> None:
        self.line_number = line_number
        self.length = length
        self.limit = limit
        super().__init__(
            f"line {line_number} has {length} characters; ABAP source lines are limited to "
            f"{limit}. Split the line before saving."
        )


class StaleDocumentError(AdtError):
    """A metadata document (data element, domain, message class …) changed on the server
    since the caller read it: the write was not sent. Read it again and redo the change."""

    def __init__(self, object_url: str, expected: str, current: str) -> None:
        super().__init__(
            f"{object_url} changed since it was read (token {expected}, now {current}); "
            "read it again and redo the change"
        )
        self.object_url = object_url
        self.expected = expected
        self.current = current


class FormattingNotOfferedError(AdtError):
    """ADT offers no formatter for this kind of source (behavior definitions, access
    controls, tables): nothing was changed. Data definitions, metadata extensions and
    service definitions have the system's identifier formatter; ABAP the pretty printer."""

    def __init__(self, label: str) -> None:
        super().__init__(
            f"ADT offers no formatter for a {label}; the source was left as it is "
            "(data definitions, metadata extensions and service definitions get their "
            "identifiers in defined case, ABAP sources the pretty printer)"
        )
        self.label = label


class ConfigurationError(AdtError, ValueError):
    """A connection profile or system configuration that cannot work."""


class AdtTransportError(AdtError):
    """The server could not be reached or the connection broke (after any retries).
    ``system_down``: it refused connections or failed through every retry, so retrying the
    whole operation at once would only wait longer."""

    def __init__(self, message: str, *, system_down: bool = False) -> None:
        super().__init__(message)
        self.system_down = system_down


class UnexpectedResponseError(AdtError, ValueError):
    """The server answered with a body we cannot read as the document we asked for."""


class AuthenticationError(AdtError):
    """HTTP 401. Never retried with the same password: failed logons lock SAP users."""


@dataclass(frozen=True)
class T100Key:
    """SAP message key: message class (``area``) and zero-padded number, both strings."""

    area: str
    number: str
    variables: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.area}/{self.number}"


@dataclass
class ServerErrorInfo:
    """What an error response told us, parsed from an ``exc:exception`` body when there is one."""

    status: int
    type_id: str = ""
    namespace: str = ""
    message: str = ""
    localized_message: str = ""
    properties: Mapping[str, str] = field(default_factory=dict)
    method: str = ""
    path: str = ""

    @property
    def t100(self) -> T100Key | None:
        area = self.properties.get("T100KEY-ID")
        number = self.properties.get("T100KEY-NO")
        if area is None or number is None:
            return None
        variables = tuple(
            self.properties[key]
            for key in ("T100KEY-V1", "T100KEY-V2", "T100KEY-V3", "T100KEY-V4")
            if key in self.properties
        )
        return T100Key(area, number, variables)

    @property
    def text(self) -> str:
        return self.localized_message or self.message


class AdtServerError(AdtError):
    """The server answered with an error status (or a 200 carrying a failure)."""

    def __init__(self, info: ServerErrorInfo, hint: str = "") -> None:
        self.info = info
        self.hint = hint
        where = f" ({info.method} {info.path})" if info.method else ""
        detail = info.text or info.type_id or "no details in the response"
        key = f" [{info.t100}]" if info.t100 else ""
        msg = f"HTTP {info.status}{where}: {detail}{key}"
        super().__init__(f"{msg}. {hint}" if hint else msg)

    @property
    def status(self) -> int:
        return self.info.status

    @property
    def type_id(self) -> str:
        return self.info.type_id

    @property
    def t100(self) -> T100Key | None:
        return self.info.t100

    @property
    def properties(self) -> Mapping[str, str]:
        return self.info.properties


class NotFoundError(AdtServerError):
    """HTTP 404: the object, include or resource does not exist."""


class BadRequestError(AdtServerError):
    """HTTP 400 that is not a session death (bad parameter, line too long on the server, ...)."""


class NoAccessError(AdtServerError):
    """HTTP 403 ``ExceptionResourceNoAccess`` other than a lock conflict (authorisation)."""


class LockConflictError(NoAccessError):
    """EU/510: somebody (perhaps our own session) holds the enqueue lock on the object."""

    @property
    def holder(self) -> str:
        """The user holding the lock, from T100 variable 1."""
        return self.info.properties.get("T100KEY-V1", "")

    @property
    def object_name(self) -> str:
        return self.info.properties.get("T100KEY-V2", "")


class NotAcceptableError(AdtServerError):
    """HTTP 406: the resource cannot produce the requested media type."""


class MethodNotAllowedError(AdtServerError):
    """HTTP 405."""


class CsrfTokenError(AdtServerError):
    """HTTP 403 with ``x-csrf-token: Required`` that a single token re-fetch did not cure."""


class SessionDeadError(AdtServerError):
    """The stateful ABAP session is gone, and with it every lock it held.

    Callers must not retry the write as is: re-lock, re-read and re-verify the token first.
    """


class SessionTimedOutError(SessionDeadError):
    """HTTP 400 "Session timed out" / ``ICMENOSESSION``."""


class InvalidLockHandleError(SessionDeadError):
    """HTTP 423 ``ExceptionResourceInvalidLockHandle``: the handle is not valid in this session."""


class CheckRunError(AdtServerError):
    """A check run came back ``notProcessed`` inside an HTTP 200."""


class ServerFailure(AdtServerError):
    """HTTP 5xx (after retries for idempotent requests) or another unexpected status."""


_STATUS_CLASSES: dict[int, type[AdtServerError]] = {
    400: BadRequestError,
    404: NotFoundError,
    405: MethodNotAllowedError,
    406: NotAcceptableError,
}


def error_for(info: ServerErrorInfo) -> AdtServerError:
    """Map a parsed error response to the most specific error class, with an actionable hint."""
    t100 = info.t100
    if info.status == 423 or info.type_id == "ExceptionResourceInvalidLockHandle":
        return InvalidLockHandleError(
            info,
            "The lock handle is not valid in this session (the session or its lock ended). "
            "Lock the object again and re-read it before writing.",
        )
    if info.status == 403 and t100 is not None and (t100.area, t100.number) == ("EU", "510"):
        holder = info.properties.get("T100KEY-V1", "another user")
        return LockConflictError(
            info,
            f"{holder} holds the lock; wait until they finish (or release your own lock "
            "before activating).",
        )
    if info.status == 403:
        return NoAccessError(info)
    cls = _STATUS_CLASSES.get(info.status)
    if cls is not None:
        return cls(info)
    return ServerFailure(info)
