"""Conflicts: after a save met a newer server version, reload theirs, overwrite with mine, or
merge (markers where the edits overlap) — asked through the editor or requested directly."""

from __future__ import annotations

import dataclasses
import enum

from adt.source.errors import BackendError, InvalidArgument
from adt.text import split_lines
from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument, RemoteVersion, base_lines
from lsp_server.editor import Diagnostic, Severity
from lsp_server.features import Feature
from lsp_server.features.diagnostics import Diagnostics
from lsp_server.features.saving import Saving
from lsp_server.merge import diff_hunks, merge, merge_without_base, patches_between
from lsp_server.results import SaveResult, SaveStatus


class Choice(enum.StrEnum):
    RELOAD = "reload"
    OVERWRITE = "overwrite"
    MERGE = "merge"


CHOICES = {
    "Reload theirs": Choice.RELOAD,
    "Overwrite with mine": Choice.OVERWRITE,
    "Merge": Choice.MERGE,
}
_MARKER_TEXT = (
    "Merge conflict: your lines and the server's lines overlap here. Keep what should stay, "
    "delete the markers, then save."
)


class Conflicts(Feature):
    def __init__(self, ctx: WorkspaceContext, saving: Saving, diagnostics: Diagnostics) -> None:
        super().__init__(ctx)
        self._saving = saving
        self._diagnostics = diagnostics

    def ask_later(self, uri: str) -> None:
        self.ctx.tasks.spawn(self.ask(uri), f"resolving the conflict on {uri}")

    async def ask(self, uri: str) -> None:
        """Ask the user how to resolve the document's conflict, and do it."""
        doc = self.ctx.documents.get(uri)
        if doc is None or doc.conflict is None:
            return
        who = f" by {doc.conflict.changed_by}" if doc.conflict.changed_by else ""
        answer = await self.ctx.editor.ask(
            f"{uri} was changed on the server{who} since you opened it. "
            f"{doc.conflict.not_merged}Your edits are kept. What should happen?",
            list(CHOICES),
        )
        if doc.conflict is None:
            return  # resolved meanwhile (adt/resolveConflict)
        if answer is None:
            self.ctx.editor.notify(
                Severity.WARNING,
                f"Not saved: {uri} changed on the server. Your edits are kept; save again to "
                "choose reload, overwrite or merge.",
            )
            return
        result = await self.resolve(uri, CHOICES[answer])
        if result.status == SaveStatus.CONFLICT:  # yet another change meanwhile: ask again
            await self.ask(uri)
        else:
            self._tell(uri, result)

    def _tell(self, uri: str, result: SaveResult) -> None:
        if result.status == SaveStatus.ERROR and result.error is not None:
            self.ctx.editor.notify(Severity.ERROR, f"{uri}: {result.error.message}")
        elif result.status == SaveStatus.MERGE_CONFLICTS:
            self.ctx.editor.notify(
                Severity.WARNING,
                f"{uri}: merged, but some of your lines overlap the server's; they are marked "
                "in the editor. Resolve them and save.",
            )
        elif result.status != SaveStatus.NO_CONFLICT:
            self.ctx.editor.notify(Severity.INFO, f"{uri}: {result.status}.")

    async def resolve(self, uri: str, choice: str) -> SaveResult:
        """Reload theirs, overwrite with mine, or merge (markers where the edits overlap)."""
        if choice not in tuple(Choice):
            raise InvalidArgument(f"choice must be reload, overwrite or merge, not {choice!r}")
        doc = self.ctx.documents.require(uri)
        async with doc.save_lock:
            theirs = doc.conflict
            if theirs is None:
                return SaveResult(SaveStatus.NO_CONFLICT, uri)
            if choice == Choice.RELOAD:
                return await self._reload(doc, theirs)
            if choice == Choice.OVERWRITE:
                return await self._overwrite(doc, theirs)
            return await self._merge(doc, theirs)

    async def _reload(self, doc: OpenDocument, theirs: RemoteVersion) -> SaveResult:
        if not await self.ctx.documents.move_editor_to(doc, theirs.text, theirs.token, "reload"):
            return _not_followed(doc.uri, "reload")
        doc.conflict = None
        self._diagnostics.clear_conflict_markers(doc)
        return SaveResult(SaveStatus.RELOADED, doc.uri, token=theirs.token)

    async def _overwrite(self, doc: OpenDocument, theirs: RemoteVersion) -> SaveResult:
        patches = patches_between(theirs.text, doc.buffer.text)
        if patches:
            return await self._saving.write(doc, theirs.token, patches)
        doc.adopt_base(theirs.text, theirs.token)
        doc.conflict = None
        return SaveResult(SaveStatus.UNCHANGED, doc.uri, token=theirs.token)

    async def _merge(self, doc: OpenDocument, theirs: RemoteVersion) -> SaveResult:
        if doc.base_unknown:  # restored without its base text: mark, never guess
            result = merge_without_base(doc.buffer.lines, split_lines(theirs.text))
        else:
            lines = base_lines(doc)
            result = merge(lines, doc.buffer.hunks(), diff_hunks(lines, split_lines(theirs.text)))
        if not await self.ctx.documents.move_editor_to(
            doc, result.text, theirs.token, "merge", base=theirs.text
        ):
            return _not_followed(doc.uri, "merge")
        doc.conflict = None
        if result.conflicts:
            doc.conflict_findings = [
                Diagnostic(
                    (c.start - 1, 0),
                    (c.end - 1, len(result.lines[c.end - 1])),
                    Severity.ERROR,
                    _MARKER_TEXT,
                    code="merge-conflict",
                )
                for c in result.conflicts
            ]
            self._diagnostics.republish(doc)
            return SaveResult(
                SaveStatus.MERGE_CONFLICTS,
                doc.uri,
                token=theirs.token,
                conflicts=tuple((c.start, c.end) for c in result.conflicts),
            )
        patches = [h.as_patch() for h in doc.buffer.hunks()]
        if not patches:
            return SaveResult(SaveStatus.UNCHANGED, doc.uri, token=theirs.token)
        saved = await self._saving.write(doc, theirs.token, patches)
        if saved.status == SaveStatus.SAVED:
            return dataclasses.replace(saved, status=SaveStatus.MERGED)
        return saved


def _not_followed(uri: str, what: str) -> SaveResult:
    error = BackendError(
        f"the editor did not apply the {what} (the document changed meanwhile); nothing was "
        "lost: resolve again"
    )
    return SaveResult(SaveStatus.ERROR, uri, error=error)
