"""The transport organizer: requests and tasks, transport checks, and corrNr on lock,
write, create and delete."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt.emulator.areas import Route

if TYPE_CHECKING:
    from adt.emulator.state import SystemState


def routes(state: SystemState) -> list[Route]:
    return []
