"""Code intelligence from an index of the stored sources: completion, navigation,
element info, where-used, and how code is organised: object structure, type hierarchy,
occurrence markers, main programs, node paths (see :mod:`adt.emulator.intelligence`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from starlette.responses import Response

from adt.emulator.areas import Handler, Route
from adt.emulator.areas.refactoring import rename_routes
from adt.emulator.intelligence.handlers import CodeIntelligence
from adt.emulator.intelligence.structure import StructureAnswers

if TYPE_CHECKING:
    from adt.emulator.calls import Call
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
    fixed = [Route.at(f"{ADT}/{path}", _ignoring_match(handler)) for path, handler in table]
    return fixed + _structure_routes(StructureAnswers(serve)) + rename_routes(serve)


def _structure_routes(serve: StructureAnswers) -> list[Route]:
    """Object structure, type hierarchy, occurrence markers, main programs, node path."""
    name = r"(?P<name>[^/?#]+)"
    return [
        Route(
            re.compile(
                rf"{ADT}/oo/(?P<collection>classes|interfaces)/{name}/objectstructure/?", re.I
            ),
            serve.object_structure,
        ),
        Route(
            re.compile(rf"{ADT}/programs/includes/{name}/mainprograms/?", re.I), serve.main_programs
        ),
        Route.at(f"{ADT}/abapsource/typehierarchy", serve.type_hierarchy),
        Route.at(f"{ADT}/abapsource/occurencemarkers", serve.occurrence_markers),  # sic
        Route.at(f"{ADT}/repository/nodepath", serve.node_path),
    ]
