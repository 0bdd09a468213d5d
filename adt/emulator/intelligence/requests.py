"""Reading code-intelligence requests: the ``uri`` parameter with its ``#start=L,C`` fragment
(and a nested ``?context=`` that abap-adt-api encodes twice), and the posted source text."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote

from .. import errors

_FRAGMENT = re.compile(r"start=(\d+)(?:,(\d+))?(?:;end=(\d+),(\d+))?")


@dataclass(frozen=True)
class Position:
    """A source URI and a cursor: line 1-based, column 0-based (``end`` when one was sent)."""

    path: str
    context: str | None
    line: int | None
    column: int
    end: tuple[int, int] | None = None

    @property
    def has_position(self) -> bool:
        return self.line is not None


def parse_uri(value: str | None, *, required: bool = True) -> Position:
    """``/sap/…/source/main?context=%2Fsap%2F…#start=3,5;end=3,9`` → its parts."""
    if not value:
        raise errors.parameter_missing("uri")
    base, _, fragment = value.partition("#")
    path, _, query = base.partition("?")
    context = None
    for pair in query.split("&"):
        key, _, raw = pair.partition("=")
        if key == "context" and raw:
            context = unquote(raw)
    match = _FRAGMENT.search(fragment)
    if match is None:
        if required:
            raise errors.bad_request(
                "The URI has no position: append #start=<line>,<column> to the source URI"
            )
        return Position(path, context, None, 0)
    end = (int(match.group(3)), int(match.group(4))) if match.group(3) else None
    return Position(path, context, int(match.group(1)), int(match.group(2) or 0), end)


def body_text(body: bytes, content_type: str | None) -> str:
    """The posted source in the charset the request names (UTF-8 by default)."""
    match = re.search(r"charset=([\w-]+)", content_type or "", re.IGNORECASE)
    charset = match.group(1) if match else "utf-8"
    try:
        return body.decode(charset)
    except (LookupError, UnicodeDecodeError):
        raise errors.bad_request(f"The body is not valid {charset}") from None
