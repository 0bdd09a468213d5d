"""ABAP Unit answers: ``aunit:runResult`` (A4H ``361``, ``382``, ``852``) and the status of an
asynchronous run (trial ``unittest-run-passing--02``).

Below the root every element is unqualified; ``xmlns:adtcore`` is declared on each
``program`` after its attributes, as SAP writes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..xmlwriter import DECL, atom_link, tag, text_tag
from .common import NS_ADTCORE

NS_AUNIT = "http://www.sap.com/adt/aunit"
NS_API_AUNIT = "http://www.sap.com/adt/api/aunit"
RUN_RESULT_API = "application/vnd.sap.adt.api.abapunit.run-result.v1+xml"
JUNIT_RESULT_API = "application/vnd.sap.adt.api.junit.run-result.v1+xml"
RUN_STATUS_API = "application/vnd.sap.adt.api.abapunit.run-status.v1+xml"
_RESULT_REL = "http://www.sap.com/adt/relations/api/abapunit/run-result"


@dataclass(frozen=True)
class DetailDoc:
    text: str
    children: tuple[DetailDoc, ...] = ()


@dataclass(frozen=True)
class StackDoc:
    uri: str
    type: str
    name: str
    description: str


@dataclass(frozen=True)
class AlertDoc:
    kind: str
    severity: str
    title: str
    details: tuple[DetailDoc, ...] = ()
    stack: tuple[StackDoc, ...] = ()


@dataclass(frozen=True)
class MethodDoc:
    uri: str
    type: str
    name: str
    navigation_uri: str | None
    alerts: tuple[AlertDoc, ...] = ()


@dataclass(frozen=True)
class ClassDoc:
    uri: str
    type: str
    name: str
    navigation_uri: str | None
    duration: str
    risk_level: str
    methods: tuple[MethodDoc, ...]


@dataclass(frozen=True)
class ProgramDoc:
    uri: str
    type: str
    name: str
    classes: tuple[ClassDoc, ...]


NO_TESTS = AlertDoc("noTestClasses", "tolerable", "The task definition does not refer to any test")


def _details(details: tuple[DetailDoc, ...]) -> str:
    return "".join(
        tag(
            "detail",
            [("text", d.text)],
            tag("details", (), _details(d.children)) if d.children else None,
        )
        for d in details
    )


def _alert(alert: AlertDoc) -> str:
    body = text_tag("title", alert.title)
    if alert.details:
        body += tag("details", (), _details(alert.details))
    if alert.stack:
        entries = "".join(
            tag(
                "stackEntry",
                [
                    ("adtcore:uri", s.uri),
                    ("adtcore:type", s.type),
                    ("adtcore:name", s.name),
                    ("adtcore:description", s.description),
                ],
            )
            for s in alert.stack
        )
        body += tag("stack", (), entries)
    return tag("alert", [("kind", alert.kind), ("severity", alert.severity)], body)


def _alerts(alerts: tuple[AlertDoc, ...]) -> str:
    return tag("alerts", (), "".join(_alert(a) for a in alerts)) if alerts else ""


def _method(method: MethodDoc) -> str:
    attrs = [
        ("adtcore:uri", method.uri),
        ("adtcore:type", method.type),
        ("adtcore:name", method.name),
        ("executionTime", "0"),
        ("uriType", "semantic"),
        ("navigationUri", method.navigation_uri),
        ("unit", "s"),
    ]
    return tag("testMethod", attrs, _alerts(method.alerts) or None)


def _class(test_class: ClassDoc) -> str:
    attrs = [
        ("adtcore:uri", test_class.uri),
        ("adtcore:type", test_class.type),
        ("adtcore:name", test_class.name),
        ("uriType", "semantic"),
        ("navigationUri", test_class.navigation_uri),
        ("durationCategory", test_class.duration),
        ("riskLevel", test_class.risk_level),
    ]
    methods = tag("testMethods", (), "".join(_method(m) for m in test_class.methods))
    return tag("testClass", attrs, methods)


def _program(program: ProgramDoc) -> str:
    attrs = [
        ("adtcore:uri", program.uri),
        ("adtcore:type", program.type),
        ("adtcore:name", program.name),
        ("uriType", "semantic"),
        ("xmlns:adtcore", NS_ADTCORE),
    ]
    classes = tag("testClasses", (), "".join(_class(c) for c in program.classes))
    return tag("program", attrs, classes)


def unit_run_result(programs: list[ProgramDoc]) -> str:
    """``aunit:runResult``; without any test class the run-level ``noTestClasses`` alert."""
    body = "".join(_program(p) for p in programs) if programs else _alerts((NO_TESTS,))
    return DECL + tag("aunit:runResult", [("xmlns:aunit", NS_AUNIT)], body)


def unit_run_status(
    run_id: str, title: str, context: str, user: str, started: str, ended: str
) -> str:
    """``aunit:run`` with ``FINISHED`` progress and the two result links (trial ``--02``)."""
    href = f"/sap/bc/adt/abapunit/results/{run_id}"
    body = (
        tag("aunit:progress", [("status", "FINISHED"), ("percentage", "100")])
        + tag("aunit:executedBy", [("user", user)])
        + tag("aunit:time", [("started", started), ("ended", ended)])
        + atom_link(href, _RESULT_REL, type=JUNIT_RESULT_API, title="Run Result (JUnit Format)")
        + atom_link(href, _RESULT_REL, type=RUN_RESULT_API, title="Run Result (ABAP Unit Format)")
    )
    attrs = [("title", title), ("context", context), ("xmlns:aunit", NS_API_AUNIT)]
    return DECL + tag("aunit:run", attrs, body)


__all__ = [
    "JUNIT_RESULT_API",
    "NO_TESTS",
    "NS_API_AUNIT",
    "NS_AUNIT",
    "RUN_RESULT_API",
    "RUN_STATUS_API",
    "AlertDoc",
    "ClassDoc",
    "DetailDoc",
    "MethodDoc",
    "ProgramDoc",
    "StackDoc",
    "unit_run_result",
    "unit_run_status",
]


NS_OCCURRENCES = "http://www.sap.com/adt/abapsource/occurrences"


@dataclass(frozen=True)
class OccurrenceMarker:
    """One place a symbol occurs: ``kind`` (``definition``, ``implementation``, ``read``,
    ``write``), whether it stores a result, and its range."""

    kind: str
    keeps_result: bool
    uri: str


def occurrence_markers(markers: Sequence[OccurrenceMarker]) -> str:
    """``occ:occurrenceInfo``: the occurrences, each with its ``adtcore:objectReference``."""
    body = "".join(
        tag(
            "occ:occurrence",
            [("kind", m.kind), ("keepsResult", "true" if m.keeps_result else "false")],
            tag("adtcore:objectReference", [("adtcore:uri", m.uri)]),
        )
        for m in markers
    )
    return DECL + tag(
        "occ:occurrenceInfo",
        [("xmlns:occ", NS_OCCURRENCES), ("xmlns:adtcore", NS_ADTCORE)],
        tag("occ:occurrences", (), body),
    )
