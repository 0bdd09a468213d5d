"""Counting the ADT requests one operation costs.

:func:`metered` opens a meter for the current task (a context variable, so concurrent calls
on one client each count only their own requests, and work the call hands to threads or
sub-tasks still counts); the session reports every request it sends to the open meter.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class RequestMeter:
    """Requests sent (retries and CSRF fetches included) and bytes on the wire."""

    requests: int = 0
    bytes_sent: int = 0
    bytes_received: int = 0


_CURRENT: ContextVar[RequestMeter | None] = ContextVar("adt_request_meter", default=None)


@contextlib.contextmanager
def metered() -> Iterator[RequestMeter]:
    """A meter for what runs inside the block (nested meters count for the inner one)."""
    meter = RequestMeter()
    token = _CURRENT.set(meter)
    try:
        yield meter
    finally:
        _CURRENT.reset(token)


def count_request(sent: int, received: int) -> None:
    """Called by the session for every request it sends."""
    meter = _CURRENT.get()
    if meter is not None:
        meter.requests += 1
        meter.bytes_sent += sent
        meter.bytes_received += received


__all__ = ["RequestMeter", "count_request", "metered"]
