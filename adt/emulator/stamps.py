"""Time formats SAP uses for ``changedAt``, ``Last-Modified`` and source ETags.

SAP keeps change times in whole seconds.  Tests write several times per second, so
every source unit carries a logical clock that never repeats a second (see
:func:`next_stamp`); otherwise two writes could share an ETag.
"""

from __future__ import annotations

import email.utils
import time

#: ETag suffix of an inactive source version (A4H ``094``/``212``: ``…0001``).
INACTIVE_SUFFIX = "0001"
#: ETag suffix of an active source version (A4H ``092``/``217``: ``…0011``).
ACTIVE_SUFFIX = "0011"


def now_seconds() -> int:
    """The current wall-clock time in whole seconds (SAP's resolution)."""
    return int(time.time())


def next_stamp(last: int | None) -> int:
    """A change time strictly after ``last``: ``max(now, last + 1)``."""
    now = now_seconds()
    if last is None:
        return now
    return max(now, last + 1)


def iso(ts: int) -> str:
    """``2026-07-31T15:09:42Z``, the form of ``adtcore:changedAt``."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))


def iso_date(ts: int) -> str:
    """``2026-07-31T00:00:00Z``: ``adtcore:createdAt`` carries only the day."""
    return time.strftime("%Y-%m-%dT00:00:00Z", time.gmtime(ts))


def day(ts: int) -> str:
    """``2026-07-31``: the day of a message class's ``mc:lastmodified``."""
    return time.strftime("%Y-%m-%d", time.gmtime(ts))


def http_date(ts: int) -> str:
    """RFC 1123 date for ``Last-Modified`` (``Fri, 31 Jul 2026 15:09:42 GMT``)."""
    return email.utils.formatdate(ts, usegmt=True)


def source_etag(ts: int, *, active: bool) -> str:
    """``YYYYMMDDhhmmss`` plus four digits, as on the metadata source links."""
    suffix = ACTIVE_SUFFIX if active else INACTIVE_SUFFIX
    return time.strftime("%Y%m%d%H%M%S", time.gmtime(ts)) + suffix


def metadata_etag(ts: int, *, active: bool) -> str:
    """The metadata response's own ETag: opaque, and never equal to a source ETag."""
    suffix = "0016" if active else "0006"
    return time.strftime("%Y%m%d%H%M%S", time.gmtime(ts)) + suffix
