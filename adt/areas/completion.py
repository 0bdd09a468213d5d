"""Code completion: proposals at a position and the text to insert."""

from __future__ import annotations

from adt.areas.base import Area


class Completion(Area):
    """See docs/client.md and docs/protocol/."""
