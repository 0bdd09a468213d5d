"""Errors of the source operations, in the V2 design's JSON form.

Codes 4000–4008 are exactly the V2 design's table. 4009 and above are ours, for failures the
design leaves unnamed (a lock held by someone else, a dead session, ...). Every error renders
to ``{"error", "code", "details", "retry", "retryAction"}`` via :meth:`SourceError.to_dict`
(``retryAction`` names this layer's operation; each face words it for its users),
and :func:`error_payload` does the same for any other exception, so no caller ever needs to
look inside an ADT error.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from adt.errors import (
    AdtError,
    AdtServerError,
    AdtTransportError,
    AuthenticationError,
    InvalidObjectUrlError,
    LineTooLongError,
    LockConflictError,
    NotAClassError,
    NotFoundError,
    SessionDeadError,
)

READ_SOURCE = "readSource"
"""The operation that fixes most refusals: read the source again for its content and token.
Faces word it for their users (:meth:`SourceError.to_dict`'s ``words``)."""


class SourceError(AdtError):
    """A refusal with a stable numeric code and machine-readable details."""

    code: ClassVar[int] = 4999
    name: ClassVar[str] = "SOURCE_ERROR"
    retry: ClassVar[bool] = False
    retry_action: ClassVar[str | None] = None

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self, words: Mapping[str, str] | None = None) -> dict[str, Any]:
        """The V2 JSON form. ``retryAction`` names an operation of this layer; ``words``
        maps it to what a face calls it (a tool name, a request name)."""
        action = self.retry_action
        if action is not None and words is not None:
            action = words.get(action, action)
        return {
            "error": self.message,
            "code": self.code,
            "name": self.name,
            "details": self.details,
            "retry": self.retry,
            "retryAction": action,
        }


class CacheExpired(SourceError):
    code, name, retry, retry_action = 4000, "CACHE_EXPIRED", True, READ_SOURCE


class TokenInvalid(SourceError):
    code, name, retry, retry_action = 4001, "TOKEN_INVALID", True, READ_SOURCE


class TokenMismatch(SourceError):
    code, name, retry, retry_action = 4002, "TOKEN_MISMATCH", True, READ_SOURCE


class VersionConflict(SourceError):
    code, name, retry, retry_action = 4003, "VERSION_CONFLICT", True, READ_SOURCE


class LineOutOfRange(SourceError):
    code, name = 4004, "LINE_OUT_OF_RANGE"


class LockRequired(SourceError):
    code, name, retry, retry_action = 4005, "LOCK_REQUIRED", True, "lock"


class PatternInvalid(SourceError):
    code, name = 4006, "PATTERN_INVALID"


class IncludeNotFound(SourceError):
    code, name = 4007, "INCLUDE_NOT_FOUND"


class NotClassObject(SourceError):
    code, name = 4008, "NOT_CLASS_OBJECT"


# --- beyond the V2 table ------------------------------------------------------------------


class ObjectLocked(SourceError):
    code, name, retry, retry_action = 4009, "OBJECT_LOCKED", True, "wait"


class SessionExpired(SourceError):
    code, name, retry, retry_action = 4010, "SESSION_EXPIRED", True, "lock"


class ObjectNotFound(SourceError):
    code, name = 4011, "OBJECT_NOT_FOUND"


class InvalidArgument(SourceError):
    code, name = 4012, "INVALID_ARGUMENT"


class WriteRefused(SourceError):
    code, name = 4013, "WRITE_REFUSED"


class PreviewRefused(SourceError):
    """Data preview for an agent on a bridge not started with ``--allow-data-preview``."""

    code, name = 4023, "PREVIEW_REFUSED"


class NoUniqueMatch(SourceError):
    code, name, retry, retry_action = 4014, "NO_UNIQUE_MATCH", True, READ_SOURCE


class BackendError(SourceError):
    code, name = 4015, "BACKEND_ERROR"


class AuthFailed(SourceError):
    code, name = 4016, "AUTH_FAILED"


class NetworkError(SourceError):
    code, name, retry, retry_action = 4017, "NETWORK_ERROR", True, "same call"


class UnknownSystem(SourceError):
    code, name = 4018, "UNKNOWN_SYSTEM"


# --- the development loop (objects, transports, named parts) -------------------------------

TRANSPORT_ACTION = "transport"
"""The operation that settles a missing or wrong request: pass one (``transport``), after
listing the candidates or creating one."""


class TransportRequired(SourceError):
    """The change is in a transportable package and names no request; ``details.candidates``
    lists the user's requests that fit."""

    code, name, retry, retry_action = 4019, "TRANSPORT_REQUIRED", True, TRANSPORT_ACTION


class TransportInvalid(SourceError):
    """The named request cannot take the change: unknown, released, a task, or the object is
    locked in another request (``details.request`` names that one)."""

    code, name, retry, retry_action = 4020, "TRANSPORT_INVALID", True, TRANSPORT_ACTION


class SymbolNotFound(SourceError):
    """No part of the source has that name, or several do; ``details.candidates`` lists the
    names to use."""

    code, name = 4021, "SYMBOL_NOT_FOUND"


class NameRefused(SourceError):
    """The system refuses the name of a new object (taken, invalid, wrong namespace)."""

    code, name = 4022, "NAME_REFUSED"


class ReleaseRefused(SourceError):
    """A task or request was not released: ``details.reason`` says why (``inactive``,
    ``locked``, ``openTasks`` or the system's report), ``details.objects`` names them."""

    code, name = 4024, "RELEASE_REFUSED"


ALL_ERRORS: tuple[type[SourceError], ...] = (
    CacheExpired,
    TokenInvalid,
    TokenMismatch,
    VersionConflict,
    LineOutOfRange,
    LockRequired,
    PatternInvalid,
    IncludeNotFound,
    NotClassObject,
    ObjectLocked,
    SessionExpired,
    ObjectNotFound,
    InvalidArgument,
    WriteRefused,
    NoUniqueMatch,
    BackendError,
    AuthFailed,
    NetworkError,
    UnknownSystem,
    TransportRequired,
    TransportInvalid,
    SymbolNotFound,
    NameRefused,
    PreviewRefused,
    ReleaseRefused,
)


def as_source_error(exc: BaseException) -> SourceError:
    """Translate any ADT-layer failure into the source operations' vocabulary."""
    if isinstance(exc, SourceError):
        return exc
    transport = _transport_error(exc)
    if transport is not None:
        return transport
    if isinstance(exc, LockConflictError):
        return ObjectLocked(
            f"{exc.object_name or 'The object'} is locked by {exc.holder or 'another user'}; "
            "try again when they have finished.",
            lockedBy=exc.holder,
            object=exc.object_name,
        )
    if isinstance(exc, SessionDeadError):
        return SessionExpired(
            "The ABAP session that held the lock ended, and the lock with it. Nothing was "
            "written. Lock again (or omit lockHandle) and retry.",
            reason=str(exc),
        )
    if isinstance(exc, NotFoundError):
        return ObjectNotFound(exc.info.text or str(exc), path=exc.info.path)
    if isinstance(exc, LineTooLongError):
        return InvalidArgument(str(exc), line=exc.line_number, length=exc.length, limit=exc.limit)
    if isinstance(exc, NotAClassError):
        return NotClassObject(f"{exc}; class includes exist only for classes")
    if isinstance(exc, InvalidObjectUrlError):
        return InvalidArgument(str(exc))
    if isinstance(exc, AuthenticationError):
        return AuthFailed(str(exc))
    if isinstance(exc, AdtTransportError):
        return NetworkError(str(exc))
    if isinstance(exc, AdtServerError):
        details: dict[str, Any] = {"status": exc.status, "type": exc.type_id}
        if exc.t100 is not None:
            details["t100"] = str(exc.t100)
        return BackendError(str(exc), **details)
    if isinstance(exc, AdtError):
        return BackendError(str(exc))
    if isinstance(exc, (ValueError, TypeError)):
        return InvalidArgument(str(exc))
    return BackendError(f"unexpected {type(exc).__name__}: {exc}")


def _transport_error(exc: BaseException) -> SourceError | None:
    """The transport organizer's refusals in this layer's words (imported late: the
    transport area is only loaded by processes that change transportable objects)."""
    from adt.areas.transports import (
        LockedInOtherRequestError,
        TransportRequestError,
        TransportRequiredError,
        transport_error,
    )

    if isinstance(exc, AdtError):
        exc = transport_error(exc)
    if isinstance(exc, TransportRequiredError):
        return TransportRequired(
            "the object is in a transportable package: pass a transport request "
            "(transport); list the candidates or create one",
            candidates=[],
        )
    if isinstance(exc, LockedInOtherRequestError):
        return TransportInvalid(
            f"{exc.info.text} Use that request.", request=exc.request, reason=exc.info.text
        )
    if isinstance(exc, TransportRequestError):
        return TransportInvalid(
            f"{exc.info.text}. Pass the number of one of your modifiable requests.",
            reason=exc.info.text,
        )
    return None


def error_payload(exc: BaseException, words: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The V2 JSON error form for any exception (``words``: see :meth:`SourceError.to_dict`)."""
    return as_source_error(exc).to_dict(words)
