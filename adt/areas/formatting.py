"""The pretty printer and its settings."""

from __future__ import annotations

from adt.areas.base import Area


class Formatting(Area):
    """See docs/client.md and docs/protocol/."""
