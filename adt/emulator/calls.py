"""One authenticated request as the resource handlers see it, and the responses they give.

Kept apart from :mod:`adt.emulator.routes` (which dispatches to the areas) so the areas can
use it without importing the dispatcher that imports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from starlette.datastructures import Headers, QueryParams
from starlette.responses import Response

from . import errors
from .sessions import Context, SecuritySession

XML_UTF8 = "application/xml; charset=utf-8"


@dataclass
class Call:
    """One authenticated request as the handlers see it."""

    method: str
    path: str
    query: QueryParams
    headers: Headers
    body: bytes
    user: str
    session: SecuritySession
    context: Context | None
    extra_headers: dict[str, str] = field(default_factory=dict)


def respond(
    body: str | bytes = b"",
    *,
    status: int = 200,
    content_type: str | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    """A response with exactly the given content type (or none, like SAP's empty 200s)."""
    all_headers = dict(headers or {})
    if content_type is not None:
        all_headers["content-type"] = content_type
    raw = body.encode("utf-8") if isinstance(body, str) else body
    return Response(content=raw, status_code=status, headers=all_headers)


def error_response(error: errors.AdtException) -> Response:
    return respond(error.document(), status=error.status, content_type="application/xml")


__all__ = ["XML_UTF8", "Call", "error_response", "respond"]
