"""Go to definition, element info (hover) and usage references (where-used) with snippets."""

from __future__ import annotations

from adt.areas.base import Area


class Navigation(Area):
    """See docs/client.md and docs/protocol/."""
