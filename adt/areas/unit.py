"""ABAP Unit: run the tests of objects or packages; results with alerts and positions."""

from __future__ import annotations

from adt.areas.base import Area


class AbapUnit(Area):
    """See docs/client.md and docs/protocol/."""
