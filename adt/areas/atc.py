"""ATC: run a check variant on objects; findings with priority and position."""

from __future__ import annotations

from adt.areas.base import Area


class Atc(Area):
    """See docs/client.md and docs/protocol/."""
