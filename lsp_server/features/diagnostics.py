"""Diagnostics: the ADT syntax check of saved or unsaved text, published where the findings
are, beside the markers of an unresolved merge."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from lsp_server.documents import OpenDocument
from lsp_server.editor import Diagnostic, Severity
from lsp_server.features import Feature
from lsp_server.results import DocumentCheck
from lsp_server.uris import DocumentRef, parse_uri

if TYPE_CHECKING:
    from adt.source import CheckOutcome, Finding

_SEVERITIES = {"E": Severity.ERROR, "A": Severity.ERROR, "X": Severity.ERROR, "W": Severity.WARNING}


class Diagnostics(Feature):
    def document_closed(self, doc: OpenDocument) -> None:
        self.ctx.editor.publish(doc.uri, [])

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
        self.ctx.editor.publish(doc.uri, [*doc.check_findings, *doc.conflict_findings])

    def clear_conflict_markers(self, doc: OpenDocument) -> None:
        doc.conflict_findings = []
        self.republish(doc)


def diagnostic(doc: OpenDocument, finding: Finding) -> Diagnostic:
    """A finding placed in the document's current lines (clamped to them); without an end,
    it covers the word at its start."""
    lines = doc.buffer.lines
    line = max(0, min((finding.line or 1) - 1, len(lines) - 1))
    column = max(0, min(finding.column or 0, len(lines[line])))
    if finding.end_line is not None and finding.end_column is not None:
        end_line = max(line, min(finding.end_line - 1, len(lines) - 1))
        end = (end_line, max(0, min(finding.end_column, len(lines[end_line]))))
    else:
        text = lines[line]
        stop = column
        while stop < len(text) and not text[stop].isspace() and text[stop] != ".":
            stop += 1
        end = (line, stop if stop > column else len(text))
    severity = _SEVERITIES.get(finding.severity, Severity.INFO)
    return Diagnostic((line, column), end, severity, finding.text, code=finding.code)
