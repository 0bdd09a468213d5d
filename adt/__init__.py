"""Async client for SAP's ABAP Development Tools (ADT) REST API.

The public surface is small: :class:`AdtClient`, :class:`ConnectionProfile`, the result
models in :mod:`adt.models` and the errors in :mod:`adt.errors`. Everything starting with an
underscore is implementation. Names are imported on first use."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from adt._lazy import lazy_names

# httpx imports its own command-line client (rich, click, pygments: about 8 MB of memory and
# 30 ms of start-up) whenever those happen to be installed; we never run it. A ``None``
# entry makes that one import fail, and httpx then defines a stub instead (its own fallback).
if "httpx" not in sys.modules:
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

if TYPE_CHECKING:
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
    from adt.profile import (
        ConnectionProfile,
        Secret,
    )

_WHERE = {
    "ActivationResult": "adt.models",
    "AdtClient": "adt.client",
    "AdtError": "adt.errors",
    "AdtServerError": "adt.errors",
    "AdtTransportError": "adt.errors",
    "AuthenticationError": "adt.errors",
    "CheckResult": "adt.models",
    "ClassInclude": "adt.models",
    "ConnectionProfile": "adt.profile",
    "InvalidLockHandleError": "adt.errors",
    "InvalidObjectUrlError": "adt.errors",
    "LineTooLongError": "adt.errors",
    "LockConflictError": "adt.errors",
    "LockResult": "adt.models",
    "Message": "adt.models",
    "NotFoundError": "adt.errors",
    "ObjectMetadata": "adt.models",
    "ObjectRef": "adt.models",
    "Secret": "adt.profile",
    "SessionDeadError": "adt.errors",
    "SourceText": "adt.models",
    "Timestamp": "adt.models",
}

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


__getattr__ = lazy_names(__name__, globals(), _WHERE)
