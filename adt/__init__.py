"""Async client for SAP's ABAP Development Tools (ADT) REST API.

The public surface is small: :class:`AdtClient`, :class:`ConnectionProfile`, the result
models in :mod:`adt.models` and the errors in :mod:`adt.errors`. Everything starting with an
underscore is implementation.
"""

from adt.client import AdtClient
from adt.errors import (
    AdtError,
    AdtServerError,
    AdtTransportError,
    AuthenticationError,
    InvalidLockHandleError,
    InvalidObjectUrlError,
    LineTooLongError,
    LockConflictError,
    NotFoundError,
    SessionDeadError,
)
from adt.models import (
    ActivationResult,
    CheckResult,
    ClassInclude,
    LockResult,
    Message,
    ObjectMetadata,
    ObjectRef,
    SourceText,
    Timestamp,
)
from adt.profile import ConnectionProfile, Secret

__all__ = [
    "ActivationResult",
    "AdtClient",
    "AdtError",
    "AdtServerError",
    "AdtTransportError",
    "AuthenticationError",
    "CheckResult",
    "ClassInclude",
    "ConnectionProfile",
    "InvalidLockHandleError",
    "InvalidObjectUrlError",
    "LineTooLongError",
    "LockConflictError",
    "LockResult",
    "Message",
    "NotFoundError",
    "ObjectMetadata",
    "ObjectRef",
    "Secret",
    "SessionDeadError",
    "SourceText",
    "Timestamp",
]
