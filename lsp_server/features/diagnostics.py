"""Diagnostics: the ADT syntax check of saved or unsaved text, published where the findings
are, beside the markers of an unresolved merge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument
from lsp_server.editor import Diagnostic, Severity
from lsp_server.features import Feature
from lsp_server.results import DocumentCheck
from lsp_server.uris import DocumentRef, parse_uri

if TYPE_CHECKING:
    from adt.source import CheckOutcome, Finding

_SEVERITIES = {"E": Severity.ERROR, "A": Severity.ERROR, "X": Severity.ERROR, "W": Severity.WARNING}


class Diagnostics(Feature):
    """The syntax check's findings and the merge markers of each document, plus the reports
    of runs (ABAP Unit, ATC) per object, which may also place findings in documents that are
    not open."""

    def __init__(self, ctx: WorkspaceContext) -> None:
        super().__init__(ctx)
        # (source, system, object URL, *part) → document URI → what that run reported there;
        # a part is what a narrower run covers (ABAP Unit: a test class, a test method)
        self._reports: dict[tuple[str, ...], dict[str, list[Diagnostic]]] = {}
        # document URI → the base token of the document when a run last reported in it
        self._reported_at: dict[str, str | None] = {}

    def document_opened(self, doc: OpenDocument) -> None:
        if self._reported(doc.uri):
            self.republish(doc)

    def document_closed(self, doc: OpenDocument) -> None:
        self._reported_at.pop(doc.uri, None)
        for report in self._reports.values():
            report.pop(doc.uri, None)
        self.ctx.editor.publish(doc.uri, [])

    def publish_report(
        self, source: str, system: str, object_url: str, by_uri: dict[str, list[Diagnostic]]
    ) -> None:
        """Replace what the last run of ``source`` reported for an object."""
        self.publish_parts(source, system, object_url, {(): by_uri})

    def publish_parts(
        self,
        source: str,
        system: str,
        object_url: str,
        parts: dict[tuple[str, ...], dict[str, list[Diagnostic]]],
        within: tuple[str, ...] = (),
    ) -> None:
        """Replace what earlier runs of ``source`` reported for the part ``within`` of an
        object (all of it by default) with ``parts``: a run of one test method replaces
        that method's failures and keeps those of the others."""
        prefix = (source, system, object_url, *within)
        dropped = [key for key in self._reports if key[: len(prefix)] == prefix]
        touched = {uri for key in dropped for uri in self._reports.pop(key)}
        reported: set[str] = set()
        for part, by_uri in parts.items():
            self._reports[(source, system, object_url, *part)] = by_uri
            reported |= set(by_uri)
        for uri in sorted(touched | reported):
            doc = self.ctx.documents.get(uri)
            if doc is not None and uri in reported:
                self._reported_at[uri] = doc.base_token
            if doc is not None:
                self.republish(doc)
            else:
                self.ctx.editor.publish(uri, self._reported(uri))

    def outdate_reports(self, doc: OpenDocument) -> None:
        """The document's base moved to another version (a save, reload, merge, an agent's
        edit): what earlier runs reported in it was about a version that is gone, at lines
        that may have moved; drop it rather than show it at the wrong place (it would come
        back with every later publish). Running again reports the new version."""
        if self._reported_at.get(doc.uri, doc.base_token) == doc.base_token:
            return  # the same version (an activation of what ran): still true
        del self._reported_at[doc.uri]
        if not self._reported(doc.uri):
            return
        for report in self._reports.values():
            report.pop(doc.uri, None)
        self.republish(doc)

    def _reported(self, uri: str) -> list[Diagnostic]:
        return [d for report in self._reports.values() for d in report.get(uri, [])]

    async def check_saved(self, ref: DocumentRef) -> CheckOutcome:
        outcome = await self.ctx.service_for(ref).check(ref.object_url)
        self.publish_findings(ref.object_url, outcome.findings)
        return outcome

    async def check_unsaved(self, doc: OpenDocument) -> CheckOutcome:
        outcome = await self.ctx.service_for(doc.ref).check(
            doc.ref.object_url, include_type=doc.ref.include_type, text=doc.buffer.text
        )
        self.publish_findings(doc.ref.object_url, outcome.findings, only=doc)
        return outcome

    async def check(self, uri: str) -> DocumentCheck:
        """Run the ADT syntax check now (command ``adt.check``) and publish its findings: on
        the unsaved text of an open document with changes, else on the stored object."""
        doc = self.ctx.documents.get(uri)
        if doc is not None and doc.dirty:
            outcome = await self.check_unsaved(doc)
        else:
            outcome = await self.check_saved(doc.ref if doc is not None else parse_uri(uri))
        return DocumentCheck(uri, outcome)

    def check_later(self, ref: DocumentRef) -> None:
        self.ctx.tasks.spawn(self.check_saved(ref), f"checking {ref.object_url}")

    def publish_findings(
        self, object_url: str, findings: Sequence[Finding], only: OpenDocument | None = None
    ) -> None:
        targets = [only] if only is not None else self.ctx.documents.of_object(object_url)
        for doc in targets:
            include = doc.ref.source.include
            doc.check_findings = [
                diagnostic(doc, f)
                for f in findings
                if f.object_url == object_url and f.include_type == include
            ]
            self.republish(doc)

    def republish(self, doc: OpenDocument) -> None:
        self.ctx.editor.publish(
            doc.uri, [*doc.check_findings, *doc.conflict_findings, *self._reported(doc.uri)]
        )

    def clear_conflict_markers(self, doc: OpenDocument) -> None:
        doc.conflict_findings = []
        self.republish(doc)


def diagnostic(doc: OpenDocument, finding: Finding) -> Diagnostic:
    """A finding placed in the document's current lines (clamped to them); without an end,
    it covers the word at its start."""
    lines = doc.buffer.lines
    line = max(0, min((finding.line or 1) - 1, len(lines) - 1))
    column = max(0, min(finding.column or 0, len(lines[line])))
    severity = _SEVERITIES.get(finding.severity, Severity.INFO)
    if finding.end_line is not None and finding.end_column is not None:
        end_line = max(line, min(finding.end_line - 1, len(lines) - 1))
        end = (end_line, max(0, min(finding.end_column, len(lines[end_line]))))
        return Diagnostic((line, column), end, severity, finding.text, code=finding.code)
    return placed(lines, line + 1, column, severity, finding.text, code=finding.code)


def placed(
    lines: Sequence[str] | None,
    line: int,
    column: int | None,
    severity: Severity,
    message: str,
    *,
    code: str = "",
    source: str = "abap-adt",
) -> Diagnostic:
    """A message at 1-based ``line``, 0-based ``column``, covering the word there (clamped
    to ``lines``; without them — a document that is not open — the rest of the line). At
    column 0, which is how the system places a message on a whole line, it starts after
    the indentation."""
    index = max(0, line - 1)
    start = max(0, column or 0)
    if lines is None:
        return Diagnostic((index, start), (index + 1, 0), severity, message, code, source)
    index = min(index, len(lines) - 1)
    text = lines[index]
    start = min(start, len(text)) if start else len(text) - len(text.lstrip())
    stop = start
    while stop < len(text) and not text[stop].isspace() and text[stop] != ".":
        stop += 1
    end = (index, stop if stop > start else len(text))
    return Diagnostic((index, start), end, severity, message, code, source)
