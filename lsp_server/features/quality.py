"""ABAP Unit and ATC from the editor: run them for a document's object, publish failures and
findings as diagnostics where they are, and answer with a summary.

Both run on the system's *active* version of the object: unsaved or unactivated changes are
not what runs, and the answer says so. Their diagnostics stay until the next run of the same
kind for the object.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from adt.urls import object_type_for
from lsp_server.editor import Diagnostic, Severity
from lsp_server.features import Feature
from lsp_server.features.diagnostics import Diagnostics, placed
from lsp_server.uris import DocumentRef, make_uri, parse_uri

if TYPE_CHECKING:
    from adt.workbench import AtcReport, Finding, TestFailure, UnitReport
    from lsp_server.context import WorkspaceContext

UNIT_SOURCE, ATC_SOURCE = "abap-unit", "atc"
Progress = Callable[[str], None]


@dataclass(frozen=True)
class TestLens:
    """A "run" action over a test class or method: ``line`` is 0-based."""

    line: int
    title: str
    test_class: str
    method: str | None = None

    def scope(self) -> dict[str, str]:
        found = {"testClass": self.test_class}
        if self.method:
            found["method"] = self.method
        return found


def atc_severity(priority: int) -> Severity:
    """Priority 1 is an error, 2 a warning, 3 and lower information."""
    return {1: Severity.ERROR, 2: Severity.WARNING}.get(priority, Severity.INFO)


class Quality(Feature):
    def __init__(self, ctx: WorkspaceContext, diagnostics: Diagnostics) -> None:
        super().__init__(ctx)
        self._diagnostics = diagnostics

    # --- code lenses ----------------------------------------------------------------------

    def test_lenses(self, uri: str) -> list[TestLens]:
        """Over each local test class of the buffer and each of its test methods."""
        doc = self.ctx.documents.get(uri)
        if doc is None:
            return []
        from adt.abap.testclasses import local_test_classes  # with the first lenses

        lenses = []
        for test_class in local_test_classes(doc.buffer.text):
            lenses.append(TestLens(test_class.line - 1, "Run tests", test_class.name))
            lenses.extend(
                TestLens(m.line - 1, "Run test", test_class.name, m.name)
                for m in test_class.methods
            )
        return lenses

    # --- ABAP Unit ------------------------------------------------------------------------

    async def run_unit_tests(
        self, uri: str, scope: dict[str, Any] | None, progress: Progress
    ) -> dict[str, Any]:
        """Run the tests of the document's object (or one test class or method of it)."""
        ref = parse_uri(uri)
        quality = self.ctx.connections.workbench(ref.system).quality
        test_class = str((scope or {}).get("testClass") or "")
        method = str((scope or {}).get("method") or "") or None
        what = f" ({test_class}{'->' + method if method else ''})" if test_class else ""
        progress(f"running the tests of {ref.object_name}{what}")
        if test_class:
            report = await quality.unit_tests_of_class(ref.object_url, test_class, method)
        else:
            report = await quality.unit_tests((ref.object_url,))
        ran = tuple(name.upper() for name in (test_class, method or "") if name)
        self._publish_failures(ref, report.failures, ran)
        return self._unit_result(ref, report)

    async def run_package_tests(
        self, package: str, system: str | None, progress: Progress
    ) -> dict[str, Any]:
        """Every test of a package, by object, class and method, each where it is and with
        its duration; a failure where it failed. For a test explorer's package items."""
        service = self.ctx.connections.service(system)
        progress(f"running the tests of package {package.strip().upper()}")
        quality = self.ctx.connections.workbench(system).quality
        tree = (await quality.package_tests(package)).to_dict()
        placed_in(service.system, tree)
        return {"package": package.strip().upper(), "system": service.system, **tree}

    def _publish_failures(
        self, ref: DocumentRef, failures: tuple[TestFailure, ...], ran: tuple[str, ...]
    ) -> None:
        """Failures per test method, replacing those of what ran (the object, a test class
        or a method): a run of one method keeps the other methods' failures."""
        parts: dict[tuple[str, ...], dict[str, list[Diagnostic]]] = {}
        for failure in failures:
            if failure.line is None or not failure.source_url:
                continue
            target = make_uri(ref.system, failure.source_url)
            name = f"{failure.test_class}->{failure.method}" if failure.method else ""
            message = f"{name}: {failure.message}" if name else failure.message
            details = [d for d in failure.details if d != failure.message]
            if details:
                message += "\n" + "\n".join(details)
            part = (failure.test_class.upper(), (failure.method or "").upper())
            parts.setdefault(part, {}).setdefault(target, []).append(
                self._place(
                    target, failure.line, failure.column, Severity.ERROR, message, UNIT_SOURCE
                )
            )
        self._diagnostics.publish_parts(UNIT_SOURCE, ref.system, ref.object_url, parts, ran)

    def _unit_result(self, ref: DocumentRef, report: UnitReport) -> dict[str, Any]:
        failures = [
            {
                "testClass": f.test_class,
                "method": f.method,
                "message": f.message,
                **(
                    {"uri": make_uri(ref.system, f.source_url), "line": f.line}
                    if f.line is not None and f.source_url
                    else {}
                ),
            }
            for f in report.failures
        ]
        result: dict[str, Any] = {
            "uri": ref.uri,
            "objectUrl": ref.object_url,
            "tests": report.tests,
            "passed": report.passed,
            "failed": report.failed,
            "failures": failures,
        }
        notes = list(report.notes) + self._unsaved_note(ref)
        if notes:
            result["notes"] = notes
        return result

    # --- ATC ------------------------------------------------------------------------------

    async def run_atc(self, uri: str, progress: Progress) -> dict[str, Any]:
        """Run ATC on the document's object and publish the findings."""
        ref = parse_uri(uri)
        progress(f"checking {ref.object_name}")
        report = await self.ctx.connections.workbench(ref.system).quality.atc((ref.object_url,))
        by_uri: dict[str, list[Diagnostic]] = {}
        for finding in report.findings:
            if finding.line is None or not finding.source_url:
                continue
            target = make_uri(ref.system, finding.source_url)
            by_uri.setdefault(target, []).append(
                self._place(
                    target,
                    finding.line,
                    finding.column,
                    atc_severity(finding.priority),
                    f"{finding.message} (priority {finding.priority})",
                    ATC_SOURCE,
                    finding.check,
                )
            )
        self._diagnostics.publish_report(ATC_SOURCE, ref.system, ref.object_url, by_uri)
        return self._atc_result(ref, report)

    def _atc_result(self, ref: DocumentRef, report: AtcReport) -> dict[str, Any]:
        def entry(f: Finding) -> dict[str, Any]:
            found = f.to_dict()
            if f.line is not None and f.source_url:
                found["uri"] = make_uri(ref.system, f.source_url)
            return found

        result: dict[str, Any] = {
            "uri": ref.uri,
            "objectUrl": ref.object_url,
            "variant": report.variant,
            "findings": [entry(f) for f in report.findings],
            "counts": {str(k): v for k, v in report.counts.items()},
        }
        notes = self._unsaved_note(ref)
        if notes:
            result["notes"] = notes
        return result

    # --- shared ---------------------------------------------------------------------------

    def _place(
        self,
        uri: str,
        line: int,
        column: int | None,
        severity: Severity,
        message: str,
        source: str,
        code: str = "",
    ) -> Diagnostic:
        doc = self.ctx.documents.get(uri)
        lines = doc.buffer.lines if doc is not None else None
        return placed(lines, line, column, severity, message, code=code, source=source)

    def _unsaved_note(self, ref: DocumentRef) -> list[str]:
        if any(d.dirty for d in self.ctx.documents.of_object(ref.object_url)):
            return ["the active version ran; your unsaved changes did not (save and activate)"]
        return []


def placed_in(system: str, tree: dict[str, Any]) -> None:
    """Each ``sourceUrl`` of a test tree (of an object, class, method or failure) gets the
    document ``uri`` an editor opens, and each object its ``documentUri``."""
    for obj in tree["objects"]:
        if object_type_for(obj["objectUrl"]):
            obj["documentUri"] = make_uri(system, obj["objectUrl"])
        for entry in _tree_entries(obj):
            if entry.get("sourceUrl"):
                entry["uri"] = make_uri(system, entry["sourceUrl"])


def _tree_entries(obj: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for test_class in obj["classes"]:
        for entry in [test_class, *test_class["methods"]]:
            found.append(entry)
            if "failure" in entry:
                found.append(entry["failure"])
    return found


__all__ = ["ATC_SOURCE", "UNIT_SOURCE", "Quality", "TestLens", "atc_severity"]
