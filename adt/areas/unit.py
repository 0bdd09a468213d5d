"""ABAP Unit: run the tests of objects or packages; results with alerts and positions.

``POST /sap/bc/adt/abapunit/testruns`` with an ``aunit:runConfiguration`` (the body Eclipse
and abap-adt-api send) blocks until the tests ran and answers the whole ``aunit:runResult``.
The parser reads it by namespace; positions come from the stack entries' ``#start=L,C``
fragments (line 1-based, column 0-based, as ADT writes them).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import quoteattr

from lxml import etree

from adt._xml import parse_document
from adt.areas.base import Area
from adt.urls import encode_name, validate_adt_path

NS_AUNIT = "http://www.sap.com/adt/aunit"
NS_ADTCORE = "http://www.sap.com/adt/core"
RISK_LEVELS = ("harmless", "dangerous", "critical")
DURATIONS = ("short", "medium", "long")
#: What a run allows unless told otherwise: no test that may change Customizing or settings.
DEFAULT_RISK_LEVELS = ("harmless", "dangerous")
_ERRORS = ("critical", "fatal")
_START = re.compile(r"[#;]start=(\d+)(?:,(\d+))?")
_SELECTOR = re.compile(r"^[A-Za-z0-9_%/=;]+$")


@dataclass(frozen=True)
class SourcePosition:
    """A place in a source: its URL, a 1-based line and a 0-based column."""

    uri: str
    line: int
    column: int

    @classmethod
    def parse(cls, uri: str) -> SourcePosition | None:
        """``…/includes/testclasses#start=17,0`` → the include URL, line 17, column 0."""
        base, _, fragment = uri.partition("#")
        match = _START.search("#" + fragment) if fragment else None
        if match is None:
            return None
        return cls(base, int(match.group(1)), int(match.group(2) or 0))


@dataclass(frozen=True)
class UnitAlertDetail:
    """One line of an alert's details, with the lines nested below it."""

    text: str
    details: tuple[UnitAlertDetail, ...] = ()


@dataclass(frozen=True)
class UnitStackEntry:
    """Where an alert happened; ``position`` is read from the URI's ``#start`` fragment."""

    uri: str
    type: str
    name: str
    description: str
    position: SourcePosition | None


@dataclass(frozen=True)
class UnitAlert:
    """A failed assertion, an exception or a warning (``kind``), and how bad (``severity``)."""

    kind: str
    severity: str
    title: str
    details: tuple[UnitAlertDetail, ...]
    stack: tuple[UnitStackEntry, ...]

    @property
    def is_error(self) -> bool:
        """``critical`` and ``fatal`` alerts fail a test; ``tolerable`` ones only warn."""
        return self.severity in _ERRORS

    @property
    def position(self) -> SourcePosition | None:
        """The first stack entry with a position: the failing line."""
        return next((s.position for s in self.stack if s.position is not None), None)

    @property
    def lines(self) -> tuple[str, ...]:
        """The details flattened, nested lines indented by a tab."""

        def walk(details: Iterable[UnitAlertDetail], depth: int) -> Iterable[str]:
            for detail in details:
                yield "\t" * depth + detail.text
                yield from walk(detail.details, depth + 1)

        return tuple(walk(self.details, 0))


@dataclass(frozen=True)
class UnitTestMethod:
    uri: str
    type: str
    name: str
    execution_time: float
    navigation_uri: str
    alerts: tuple[UnitAlert, ...]

    @property
    def passed(self) -> bool:
        return not any(a.is_error for a in self.alerts)


@dataclass(frozen=True)
class UnitTestClass:
    uri: str
    type: str
    name: str
    navigation_uri: str
    duration: str
    risk_level: str
    methods: tuple[UnitTestMethod, ...]
    alerts: tuple[UnitAlert, ...]

    @property
    def passed(self) -> bool:
        return not any(a.is_error for a in self.alerts) and all(m.passed for m in self.methods)


@dataclass(frozen=True)
class UnitProgram:
    """One tested main program (a class pool, a program, a function group)."""

    uri: str
    type: str
    name: str
    test_classes: tuple[UnitTestClass, ...]
    alerts: tuple[UnitAlert, ...]


@dataclass(frozen=True)
class UnitFailure:
    """An error alert with the program, test class and (unless class-level) method it hit."""

    program: str
    test_class: str
    method: str | None
    alert: UnitAlert

    @property
    def position(self) -> SourcePosition | None:
        return self.alert.position


@dataclass(frozen=True)
class UnitRunResult:
    """The whole run: tested programs and run-level alerts (e.g. ``noTestClasses``)."""

    programs: tuple[UnitProgram, ...]
    alerts: tuple[UnitAlert, ...]

    @property
    def test_classes(self) -> tuple[UnitTestClass, ...]:
        return tuple(c for p in self.programs for c in p.test_classes)

    @property
    def methods(self) -> tuple[UnitTestMethod, ...]:
        return tuple(m for c in self.test_classes for m in c.methods)

    @property
    def no_tests(self) -> bool:
        """Nothing ran: the object set holds no test (for the allowed risk levels/durations)."""
        return not self.programs

    @property
    def failures(self) -> tuple[UnitFailure, ...]:
        found: list[UnitFailure] = []
        for program in self.programs:
            for test_class in program.test_classes:
                found += [
                    UnitFailure(program.name, test_class.name, None, a)
                    for a in test_class.alerts
                    if a.is_error
                ]
                for method in test_class.methods:
                    found += [
                        UnitFailure(program.name, test_class.name, method.name, a)
                        for a in method.alerts
                        if a.is_error
                    ]
        return tuple(found)

    @property
    def passed(self) -> bool:
        """Every test passed and at least one ran."""
        return bool(self.programs) and not self.failures


# --- requests ------------------------------------------------------------------------------


def _flags(name: str, chosen: Iterable[str], allowed: tuple[str, ...]) -> str:
    wanted = {c.lower() for c in chosen}
    unknown = wanted - set(allowed)
    if unknown:
        raise ValueError(
            f"unknown {name}: {', '.join(sorted(unknown))} (allowed: {', '.join(allowed)})"
        )
    return " ".join(f'{a}="{str(a in wanted).lower()}"' for a in allowed)


def run_configuration(
    uris: Sequence[str],
    *,
    risk_levels: Iterable[str] = DEFAULT_RISK_LEVELS,
    durations: Iterable[str] = DURATIONS,
    coverage: bool = False,
) -> bytes:
    """The ``aunit:runConfiguration`` body (the shape Eclipse and abap-adt-api send)."""
    references = "".join(f"<adtcore:objectReference adtcore:uri={quoteattr(uri)}/>" for uri in uris)
    text = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<aunit:runConfiguration xmlns:aunit="{NS_AUNIT}">'
        f'<external><coverage active="{str(coverage).lower()}"/></external>'
        "<options>"
        '<uriType value="semantic"/>'
        '<testDeterminationStrategy sameProgram="true" assignedTests="false"/>'
        f"<testRiskLevels {_flags('risk levels', risk_levels, RISK_LEVELS)}/>"
        f"<testDurations {_flags('durations', durations, DURATIONS)}/>"
        '<withNavigationUri enabled="true"/>'
        "</options>"
        f'<adtcore:objectSets xmlns:adtcore="{NS_ADTCORE}">'
        f'<objectSet kind="inclusive"><adtcore:objectReferences>{references}'
        "</adtcore:objectReferences></objectSet></adtcore:objectSets>"
        "</aunit:runConfiguration>"
    )
    return text.encode("utf-8")


# --- parsing -------------------------------------------------------------------------------


def _core(element: etree._Element, name: str) -> str:
    return element.get(f"{{{NS_ADTCORE}}}{name}") or ""


def _details(element: etree._Element | None) -> tuple[UnitAlertDetail, ...]:
    if element is None:
        return ()
    return tuple(
        UnitAlertDetail(d.get("text") or "", _details(d.find("details")))
        for d in element.findall("detail")
    )


def _alert(element: etree._Element) -> UnitAlert:
    stack = tuple(
        UnitStackEntry(
            _core(s, "uri"),
            _core(s, "type"),
            _core(s, "name"),
            _core(s, "description"),
            SourcePosition.parse(_core(s, "uri")),
        )
        for s in element.findall("stack/stackEntry")
    )
    return UnitAlert(
        element.get("kind") or "",
        element.get("severity") or "",
        (element.findtext("title") or "").strip(),
        _details(element.find("details")),
        stack,
    )


def _alerts(element: etree._Element) -> tuple[UnitAlert, ...]:
    return tuple(_alert(a) for a in element.findall("alerts/alert"))


def _seconds(value: str | None) -> float:
    try:
        return float(value or 0)
    except ValueError:
        return 0.0


def _method(element: etree._Element) -> UnitTestMethod:
    return UnitTestMethod(
        _core(element, "uri"),
        _core(element, "type"),
        _core(element, "name"),
        _seconds(element.get("executionTime")),
        element.get("navigationUri") or "",
        _alerts(element),
    )


def _class(element: etree._Element) -> UnitTestClass:
    return UnitTestClass(
        _core(element, "uri"),
        _core(element, "type"),
        _core(element, "name"),
        element.get("navigationUri") or "",
        element.get("durationCategory") or "",
        element.get("riskLevel") or "",
        tuple(_method(m) for m in element.findall("testMethods/testMethod")),
        _alerts(element),
    )


def parse_run_result(body: bytes) -> UnitRunResult:
    """Parse ``aunit:runResult`` (the synchronous answer and the API's result document)."""
    root = parse_document(body, NS_AUNIT, "runResult")
    programs = tuple(
        UnitProgram(
            _core(p, "uri"),
            _core(p, "type"),
            _core(p, "name"),
            tuple(_class(c) for c in p.findall("testClasses/testClass")),
            _alerts(p),
        )
        for p in root.findall("program")
    )
    return UnitRunResult(programs, _alerts(root))


# --- the area ------------------------------------------------------------------------------


class AbapUnit(Area):
    """ABAP Unit runs (docs/client.md, docs/protocol/abap-unit.md)."""

    async def run(
        self,
        objects: str | Sequence[str] = (),
        *,
        package: str | None = None,
        risk_levels: Iterable[str] = DEFAULT_RISK_LEVELS,
        durations: Iterable[str] = DURATIONS,
        coverage: bool = False,
    ) -> UnitRunResult:
        """Run the tests of classes, programs or function groups (object URLs) and/or of a
        package and its sub-packages. Systems run the *active* version: activate first."""
        urls = [objects] if isinstance(objects, str) else list(objects)
        paths = [validate_adt_path(u) for u in urls]
        if package is not None:
            paths.append(f"/sap/bc/adt/packages/{encode_name(package)}")
        if not paths:
            raise ValueError("name at least one object URL or a package")
        return await self._run(paths, risk_levels, durations, coverage)

    async def rerun(
        self,
        tests: Iterable[UnitTestClass | UnitTestMethod | str],
        *,
        risk_levels: Iterable[str] = RISK_LEVELS,
        durations: Iterable[str] = DURATIONS,
    ) -> UnitRunResult:
        """Run test classes or single methods of an earlier result again (their semantic URIs,
        ``…#testclass=X;testmethod=Y``, as Eclipse does, or such URIs as strings); every risk
        level and duration by default, since the classes were chosen already."""
        paths = []
        for test in tests:
            uri = test if isinstance(test, str) else test.uri
            base, _, fragment = uri.partition("#")
            if not fragment or not _SELECTOR.match(fragment):
                raise ValueError(f"{uri!r} does not name a test class or method")
            paths.append(f"{validate_adt_path(base)}#{fragment}")
        if not paths:
            raise ValueError("name at least one test class or method")
        return await self._run(paths, risk_levels, durations, False)

    async def _run(
        self,
        paths: Sequence[str],
        risk_levels: Iterable[str],
        durations: Iterable[str],
        coverage: bool,
    ) -> UnitRunResult:
        body = run_configuration(
            paths, risk_levels=risk_levels, durations=durations, coverage=coverage
        )
        response = await self._send(
            "POST",
            "/sap/bc/adt/abapunit/testruns",
            headers={"Content-Type": "application/*", "Accept": "application/*"},
            content=body,
        )
        return parse_run_result(response.content)


__all__ = [
    "DEFAULT_RISK_LEVELS",
    "DURATIONS",
    "RISK_LEVELS",
    "AbapUnit",
    "SourcePosition",
    "UnitAlert",
    "UnitAlertDetail",
    "UnitFailure",
    "UnitProgram",
    "UnitRunResult",
    "UnitStackEntry",
    "UnitTestClass",
    "UnitTestMethod",
    "parse_run_result",
    "run_configuration",
]
