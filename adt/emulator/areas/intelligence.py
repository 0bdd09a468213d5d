"""Code intelligence from an index of the stored sources: completion, navigation,
element info, where-used."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt.emulator.areas import Route

if TYPE_CHECKING:
    from adt.emulator.state import SystemState


def routes(state: SystemState) -> list[Route]:
    return []
