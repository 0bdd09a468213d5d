"""Transport requests: checks for an object, the user's requests, creating and releasing."""

from __future__ import annotations

from adt.areas.base import Area


class Transports(Area):
    """See docs/client.md and docs/protocol/."""
