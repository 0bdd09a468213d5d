"""The emulator's ADT areas beyond source editing, one module each.

Every area module offers ``routes(state) -> list[Route]``: the paths it serves and their
handlers. :class:`~adt.emulator.routes.Resources` asks the areas (in the order of
:func:`_areas`) before it parses object paths, so a new area is a new module listed here once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from starlette.responses import Response

if TYPE_CHECKING:
    from adt.emulator.calls import Call
    from adt.emulator.state import SystemState

Handler = Callable[["Call", "re.Match[str]"], Response]


@dataclass(frozen=True)
class Route:
    """Requests whose path matches ``pattern`` (a full match) go to ``handler``; the handler
    checks the method itself (so a wrong method is SAP's 405, not a 404)."""

    pattern: re.Pattern[str]
    handler: Handler

    @classmethod
    def at(cls, path: str, handler: Handler) -> Route:
        """An exact path (case-insensitive, a trailing slash ignored)."""
        return cls(re.compile(re.escape(path.rstrip("/")) + "/?", re.IGNORECASE), handler)


def _areas() -> tuple[ModuleType, ...]:
    from adt.emulator.areas import (
        atc,
        bindings,
        catalogue,
        datapreview,
        ddl_formatter,
        documentation,
        formatting,
        history,
        intelligence,
        lifecycle,
        repository,
        runtime,
        transports,
        unit,
    )

    return (
        repository,
        catalogue,
        lifecycle,
        transports,
        history,
        intelligence,
        formatting,
        ddl_formatter,
        datapreview,
        unit,
        atc,
        bindings,
        documentation,
        runtime,
    )


def area_routes(state: SystemState, areas: Sequence[ModuleType] | None = None) -> list[Route]:
    return [route for area in (areas or _areas()) for route in area.routes(state)]


def find(routes: Sequence[Route], path: str) -> tuple[Route, re.Match[str]] | None:
    for route in routes:
        match = route.pattern.fullmatch(path)
        if match is not None:
            return route, match
    return None
