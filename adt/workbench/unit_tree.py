"""An ABAP Unit run as a tree (tested objects, their test classes, their methods), for an
editor's test explorer: unlike :class:`~adt.workbench.quality.UnitReport`, which keeps only
what failed, it names every test that ran, where it is, whether it passed and how long it
took, so a view can build its items from the run of a whole package."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from adt.abap.testclasses import local_test_classes
from adt.areas.unit import SourcePosition

if TYPE_CHECKING:
    from adt.areas.unit import UnitAlert, UnitProgram, UnitRunResult, UnitTestClass


Places = Mapping[tuple[str, str, str], int]
"""1-based lines of tests by (source URL, test class, method or ``""``), found in sources."""


def navigation_source(uri: str) -> str:
    """The source a navigation URI points into (``…/includes/testclasses#type=…``)."""
    return uri.partition("#")[0]


def _place(uri: str, places: Places, test_class: str, method: str = "") -> dict[str, Any]:
    """``sourceUrl`` and 1-based ``line`` of a test: from a navigation URI that names a
    position (``#start=``), else from a semantic one (``#type=…;name=…``) and the line
    the test's source has it at."""
    if not uri:
        return {}
    position = SourcePosition.parse(uri)
    if position is not None:
        return {"sourceUrl": position.uri, "line": position.line}
    source = navigation_source(uri)
    line = places.get((source, test_class.upper(), method.upper()))
    return {"sourceUrl": source, **({"line": line} if line else {})}


def _failure(alerts: tuple[UnitAlert, ...]) -> dict[str, Any] | None:
    """The first error alert: its title, the rest of its text, and where it failed."""
    alert = next((a for a in alerts if a.is_error), None)
    if alert is None:
        return None
    lines = [line.strip() for line in alert.lines if line.strip()]
    found: dict[str, Any] = {"message": alert.title or (lines[0] if lines else alert.kind)}
    details = [line for line in lines if line != found["message"]]
    if details:
        found["details"] = details
    position = alert.position
    if position is not None:
        found.update(sourceUrl=position.uri, line=position.line)
    return found


def _test_class(test_class: UnitTestClass, places: Places) -> dict[str, Any]:
    methods = []
    for method in test_class.methods:
        entry: dict[str, Any] = {
            "name": method.name,
            "passed": method.passed,
            "durationMs": round(method.execution_time * 1000),
            **_place(method.navigation_uri, places, test_class.name, method.name),
        }
        failure = _failure(method.alerts)
        if failure:
            entry["failure"] = failure
        methods.append(entry)
    found: dict[str, Any] = {
        "name": test_class.name,
        "passed": test_class.passed,
        **_place(test_class.navigation_uri, places, test_class.name),
        "methods": methods,
    }
    failure = _failure(test_class.alerts)  # its setup failed: every method with it
    if failure:
        found["failure"] = failure
    return found


def _program(program: UnitProgram, places: Places) -> dict[str, Any]:
    return {
        "name": program.name,
        "type": program.type,
        "objectUrl": program.uri,
        "classes": [_test_class(c, places) for c in program.test_classes],
    }


def sources_to_place(result: UnitRunResult) -> list[str]:
    """The sources whose test lines a semantic run result does not give."""
    found: dict[str, None] = {}
    for test_class in result.test_classes:
        for uri in [test_class.navigation_uri, *(m.navigation_uri for m in test_class.methods)]:
            if uri and SourcePosition.parse(uri) is None:
                found[navigation_source(uri)] = None
    return list(found)


def places_in(source_url: str, text: str) -> dict[tuple[str, str, str], int]:
    """Where each local test class and method of a source is (as its "run" lenses are)."""
    found: dict[tuple[str, str, str], int] = {}
    for test_class in local_test_classes(text):
        found[(source_url, test_class.name.upper(), "")] = test_class.line
        for method in test_class.methods:
            found[(source_url, test_class.name.upper(), method.name.upper())] = method.line
    return found


@dataclass(frozen=True)
class UnitTree:
    """Every test of a run, by object and class; the counts and notes are the compact
    report's (``UnitReport``), so both say the same of one run."""

    result: UnitRunResult
    tests: int
    passed: int
    failed: int
    notes: tuple[str, ...] = ()
    places: Places = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "tests": self.tests,
            "passed": self.passed,
            "failed": self.failed,
            "objects": [_program(p, self.places) for p in self.result.programs],
        }
        if self.notes:
            found["notes"] = list(self.notes)
        return found


__all__ = ["UnitTree", "navigation_source", "places_in", "sources_to_place"]
