"""Core discovery (which collections and templates a system offers) and package value helps."""

from __future__ import annotations

from adt.areas.base import Area


class Discovery(Area):
    """See docs/client.md and docs/protocol/."""
