"""Code intelligence from an index of the stored sources: completion, navigation,
element info, where-used (see :mod:`adt.emulator.intelligence`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from starlette.responses import Response

from adt.emulator.areas import Handler, Route
from adt.emulator.intelligence.handlers import CodeIntelligence

if TYPE_CHECKING:
    from adt.emulator.routes import Call
    from adt.emulator.state import SystemState

ADT = "/sap/bc/adt"


def _ignoring_match(handler: Callable[[Call], Response]) -> Handler:
    return lambda call, match: handler(call)


def routes(state: SystemState) -> list[Route]:
    serve = CodeIntelligence(state)
    table: list[tuple[str, Callable[[Call], Response]]] = [
        ("abapsource/codecompletion/proposal", serve.proposal),
        ("abapsource/codecompletion/insertion", serve.insertion),
        ("abapsource/codecompletion/elementinfo", serve.element_info),
        ("navigation/target", serve.navigation),
        ("urifragmentmappings", serve.fragment_mapping),
        ("repository/informationsystem/usageReferences", serve.usage_references),
        ("repository/informationsystem/usageSnippets", serve.usage_snippets),
    ]
    return [Route.at(f"{ADT}/{path}", _ignoring_match(handler)) for path, handler in table]
