"""Object lifecycle: validate a new name, create objects in a package, delete them."""

from __future__ import annotations

from adt.areas.base import Area


class Lifecycle(Area):
    """See docs/client.md and docs/protocol/."""
