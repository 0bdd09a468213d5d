"""A tiny XML writer that reproduces SAP's byte layout.

SAP writes every document on one line, puts namespace declarations *after* the
attributes and declares ``xmlns:atom`` on every ``atom:link``.  lxml cannot be told
to order declarations that way, so documents are assembled from escaped strings.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

DECL = '<?xml version="1.0" encoding="utf-8"?>'
ATOM_NS = "http://www.w3.org/2005/Atom"

_ATTR_ESCAPES = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    '"': "&quot;",
    "\n": "&#10;",
    "\r": "&#13;",
    "\t": "&#9;",
}


_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
_ATTR_TABLE = str.maketrans(_ATTR_ESCAPES)


def _strip_invalid(value: str) -> str:
    """Drop the control characters XML 1.0 does not allow (tab, LF and CR stay)."""
    if value.isprintable():  # no control character at all: most values, tested cheaply
        return value
    return _INVALID.sub("", value)


def esc_text(value: str) -> str:
    """Escape character data (quotes stay literal, as SAP writes them)."""
    value = _strip_invalid(value)
    return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def esc_attr(value: str) -> str:
    """Escape an attribute value."""
    return _strip_invalid(value).translate(_ATTR_TABLE)


Attrs = Iterable[tuple[str, str | None]]


def tag(name: str, attrs: Attrs = (), body: str | None = None) -> str:
    """``<name a="v">body</name>``, or self-closing when ``body`` is ``None``/empty.

    Attributes whose value is ``None`` are left out.
    """
    rendered = "".join(f' {key}="{esc_attr(value)}"' for key, value in attrs if value is not None)
    if not body:
        return f"<{name}{rendered}/>"
    return f"<{name}{rendered}>{body}</{name}>"


def text_tag(name: str, value: str | None, attrs: Attrs = ()) -> str:
    """An element holding escaped text; empty text gives ``<name/>`` like SAP."""
    if not value:
        return tag(name, attrs)
    return tag(name, attrs, esc_text(value))


def atom_link(
    href: str,
    rel: str,
    *,
    type: str | None = None,
    title: str | None = None,
    etag: str | None = None,
) -> str:
    """An ``atom:link`` with its own namespace declaration, attributes in SAP's order."""
    return tag(
        "atom:link",
        [
            ("href", href),
            ("rel", rel),
            ("type", type),
            ("title", title),
            ("etag", etag),
            ("xmlns:atom", ATOM_NS),
        ],
    )
