"""ABAP Unit and ATC runs as compact reports: counts first, then only what needs attention
(failed tests, findings), each at a source position an editor can show and an agent can
read with a range read."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from adt.areas.unit import RISK_LEVELS
from adt.errors import AdtError
from adt.source.errors import InvalidArgument
from adt.workbench.unit_tree import UnitTree, places_in, sources_to_place

if TYPE_CHECKING:
    from adt.areas.atc import AtcFinding
    from adt.areas.unit import UnitFailure, UnitRunResult
    from adt.client import AdtClient


@dataclass(frozen=True)
class TestFailure:
    """A failed test method (or test class): the first line of the alert is ``message``,
    the rest ``details``; the position is where it failed, if the system says."""

    program: str
    test_class: str
    method: str
    kind: str
    message: str
    details: tuple[str, ...]
    source_url: str
    line: int | None
    column: int | None

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "testClass": self.test_class,
            "method": self.method,
            "kind": self.kind,
            "message": self.message,
        }
        if self.details:
            found["details"] = list(self.details)
        if self.line is not None:
            found.update(sourceUrl=self.source_url, line=self.line)
        return found


@dataclass(frozen=True)
class UnitReport:
    tests: int
    passed: int
    failed: int
    test_classes: int
    failures: tuple[TestFailure, ...]
    notes: tuple[str, ...] = ()

    @property
    def green(self) -> bool:
        return self.tests > 0 and self.failed == 0

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "tests": self.tests,
            "passed": self.passed,
            "failed": self.failed,
            "testClasses": self.test_classes,
            "failures": [f.to_dict() for f in self.failures],
        }
        if self.notes:
            found["notes"] = list(self.notes)
        return found


def _failure(failure: UnitFailure) -> TestFailure:
    alert = failure.alert
    position = failure.position
    lines = [line.strip() for line in alert.lines if line.strip()]
    message = alert.title or (lines[0] if lines else alert.kind)
    return TestFailure(
        failure.program,
        failure.test_class,
        failure.method or "",
        alert.kind,
        message,
        tuple(lines),
        position.uri if position else "",
        position.line if position else None,
        position.column if position else None,
    )


def unit_report(result: UnitRunResult) -> UnitReport:
    methods = result.methods
    failed_methods = sum(1 for m in methods if not m.passed)
    notes = tuple(a.title for a in result.alerts if a.title)
    if result.no_tests and not notes:
        notes = (
            "no tests ran: the object has no test classes (for these risk levels and durations)",
        )
    return UnitReport(
        len(methods),
        len(methods) - failed_methods,
        failed_methods,
        len(result.test_classes),
        tuple(_failure(f) for f in result.failures),
        notes,
    )


@dataclass(frozen=True)
class Finding:
    """One ATC finding; priority 1 is the most urgent."""

    priority: int
    check: str
    message: str
    object_name: str
    object_type: str
    source_url: str
    line: int | None
    column: int | None

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "priority": self.priority,
            "check": self.check,
            "message": self.message,
            "object": self.object_name,
        }
        if self.line is not None:
            found.update(sourceUrl=self.source_url, line=self.line, column=self.column)
        return found


@dataclass(frozen=True)
class AtcReport:
    variant: str
    findings: tuple[Finding, ...]

    @property
    def counts(self) -> dict[int, int]:
        """Findings per priority."""
        return dict(sorted(Counter(f.priority for f in self.findings).items()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "total": len(self.findings),
            "byPriority": {str(k): v for k, v in self.counts.items()},
            "findings": [f.to_dict() for f in self.findings],
        }


def _finding(finding: AtcFinding) -> Finding:
    position = finding.position
    return Finding(
        finding.priority,
        finding.check_title,
        finding.message_title,
        finding.object_name,
        finding.object_type,
        position.uri if position else "",
        position.line if position else None,
        position.column if position else None,
    )


class Quality:
    """Unit tests and ATC of one system."""

    def __init__(self, client: AdtClient) -> None:
        self._client = client

    async def unit_tests(
        self, object_urls: tuple[str, ...] = (), *, package: str | None = None
    ) -> UnitReport:
        """Run the tests of objects and/or a package: every risk level and duration (the
        user asked for these tests; a test class without ``RISK LEVEL`` is critical, and the
        system still refuses levels its settings forbid)."""
        result = await self._client.unit.run(
            list(object_urls), package=package, risk_levels=RISK_LEVELS
        )
        return unit_report(result)

    async def package_tests(self, package: str) -> UnitTree:
        """Run every test of a package (and its sub-packages, as the system selects them),
        answering each test that ran, not only the failures: a test explorer's items."""
        name = package.strip().upper()
        if not name:
            raise InvalidArgument("name the package whose tests to run")
        result = await self._client.unit.run([], package=name, risk_levels=RISK_LEVELS)
        report = unit_report(result)
        places: dict[tuple[str, str, str], int] = {}
        for source_url in sources_to_place(result):  # semantic URIs: find the lines ourselves
            try:
                read = await self._client.read_source(source_url, version="active")
            except AdtError:  # the tests are still answered, only without their lines
                continue
            places.update(places_in(source_url, read.text))
        return UnitTree(result, report.tests, report.passed, report.failed, report.notes, places)

    async def unit_tests_of_class(
        self, object_url: str, test_class: str, method: str | None = None
    ) -> UnitReport:
        """Run one local test class of an object, or one of its test methods."""
        if not test_class.strip():
            raise InvalidArgument("name the test class to run")
        fragment = f"testclass={quote(test_class.strip().upper(), safe='')}"
        if method:
            fragment += f";testmethod={quote(method.strip().upper(), safe='')}"
        result = await self._client.unit.rerun([f"{object_url}#{fragment}"])
        return unit_report(result)

    async def atc(
        self,
        object_urls: tuple[str, ...] = (),
        *,
        package: str | None = None,
        variant: str | None = None,
    ) -> AtcReport:
        """Check the active versions with ``variant`` (default: the system's)."""
        result = await self._client.atc.run(list(object_urls), package=package, variant=variant)
        return AtcReport(result.variant, tuple(_finding(f) for f in result.findings))


__all__ = ["AtcReport", "Finding", "Quality", "TestFailure", "UnitReport", "unit_report"]
