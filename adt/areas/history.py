"""Inactive objects and the revisions (versions) of a source."""

from __future__ import annotations

from adt.areas.base import Area


class History(Area):
    """See docs/client.md and docs/protocol/."""
