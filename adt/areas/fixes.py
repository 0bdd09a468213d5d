"""Quick fixes: what ADT offers at a position, and the edits of one."""

from __future__ import annotations

from adt.areas.base import Area


class QuickFixes(Area):
    """See docs/client.md and docs/protocol/."""
