"""Saving: the document's changes as one token-checked multi-hunk patch; the saved text
becomes the new base, a conflict keeps every local edit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt.source.errors import (
    BackendError,
    LockRequired,
    SourceError,
    TransportInvalid,
    TransportRequired,
    VersionConflict,
)
from adt.source.lines import Patch
from adt.source.token import same_content
from adt.systems import MergeOnSave
from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument, RemoteVersion
from lsp_server.editor import Severity
from lsp_server.features import Feature
from lsp_server.features.automerge import not_merged, show_merged
from lsp_server.features.diagnostics import Diagnostics
from lsp_server.features.locks import EditLocks, lock_owner
from lsp_server.features.transports import TransportChoices, not_chosen, object_name
from lsp_server.results import SaveResult, SaveStatus

if TYPE_CHECKING:
    from adt.source import WriteOutcome


class Saving(Feature):
    def __init__(
        self,
        ctx: WorkspaceContext,
        locks: EditLocks,
        diagnostics: Diagnostics,
        transports: TransportChoices,
    ) -> None:
        super().__init__(ctx)
        self._locks = locks
        self._diagnostics = diagnostics
        self._transports = transports

    async def save(self, uri: str) -> SaveResult:
        """Save a document as one token-checked multi-hunk patch. A conflict keeps every
        local edit and records the server's version for :mod:`~.conflicts`."""
        doc = self.ctx.documents.require(uri)
        async with doc.save_lock:
            if doc.restore_failed is not None:
                error = BackendError(
                    f"not saved: the version {uri} was read at could not be handed over to "
                    f"this server ({doc.restore_failed}), so a save could revert somebody "
                    "else's change; your edits are kept. Restore the document again "
                    "(adt/restoreDocument; in Neovim :AdtRestart)."
                )
                return SaveResult(SaveStatus.ERROR, uri, error=error)
            await doc.base_ready.wait()
            await self._locks.wait_for(doc.ref.object_url)  # save under an onEdit lock
            hunks = doc.buffer.hunks()
            if not hunks:
                return await self._nothing_to_send(doc)
            patches = [h.as_patch() for h in hunks]
            return await self.write(doc, doc.base_token, patches, rebase=self._rebasing(doc))

    def _rebasing(self, doc: OpenDocument) -> bool:
        """Whether this save may be moved over a colleague's change (``mergeOnSave: auto``).
        The server is told the base's text, so the rule works however long the document was
        open; a base restored without its text is never trusted."""
        if self.ctx.settings.merge_on_save != MergeOnSave.AUTO or doc.base_unknown:
            return False
        if doc.base_token is None:
            return False
        ref = doc.ref
        service = self.ctx.service_for(ref)
        service.keep_base(ref.object_url, ref.include_type, doc.base_token, doc.buffer.base_text)
        return True

    async def _nothing_to_send(self, doc: OpenDocument) -> SaveResult:
        """The buffer equals its base. "Unchanged" only if the server still has that version
        (one fresh read); a buffer behind the server (changed meanwhile, or restored after a
        restart) follows it, as a clean document does when polling sees a change."""
        current = await self.ctx.service_for(doc.ref).get_source_v2(
            doc.ref.object_url, include_type=doc.ref.include_type, fresh=True
        )
        if doc.base_token is not None and same_content(current.token, doc.base_token):
            if doc.behind or doc.base_unknown:
                doc.adopt_base(current.content, current.token)
            return SaveResult(SaveStatus.UNCHANGED, doc.uri, token=doc.base_token)
        if not await self.ctx.documents.move_editor_to(
            doc, current.content, current.token, "abap-adt: changed on the server"
        ):
            error = BackendError(
                f"{doc.uri} was changed on the server, and the editor did not show the new "
                "version (the buffer changed meanwhile); nothing was lost: save again"
            )
            return SaveResult(SaveStatus.ERROR, doc.uri, error=error)
        return SaveResult(
            SaveStatus.RELOADED,
            doc.uri,
            token=current.token,
            changed_at=current.changed_at,
            changed_by=current.changed_by,
        )

    async def write(
        self, doc: OpenDocument, token: str | None, patches: list[Patch], *, rebase: bool = False
    ) -> SaveResult:
        """Patch the server's source (under ``doc.save_lock``); on success the saved text
        becomes the base. With ``rebase``, a colleague's change since ``token`` that does not
        touch the patches is kept and the editor shown the merged text."""
        snapshot = doc.buffer.text
        try:
            outcome = await self._write_in_request(doc, token, patches, rebase)
        except VersionConflict as conflict:
            theirs = await self.ctx.service_for(doc.ref).get_source_v2(
                doc.ref.object_url, include_type=doc.ref.include_type
            )  # the conflict refreshed the cache: no request
            doc.conflict = RemoteVersion(
                theirs.content,
                theirs.token,
                conflict.details.get("changedBy"),
                not_merged(conflict.details.get("overlap")),
            )
            return SaveResult(SaveStatus.CONFLICT, doc.uri, conflict=conflict)
        except SourceError as exc:  # the requester shows it (didSave: see the server)
            return SaveResult(SaveStatus.ERROR, doc.uri, error=exc)
        if outcome.rebased_over is not None:
            return await self._merged(doc, snapshot, outcome, len(patches))
        await self._adopt_saved(doc, snapshot, outcome)
        if self._locks.on_edit:
            await self._locks.release_if_unused(doc.ref)
        self._diagnostics.check_later(doc.ref)
        return SaveResult(
            SaveStatus.SAVED,
            doc.uri,
            token=outcome.token,
            line_count=outcome.line_count,
            hunks=len(patches),
            changed_at=outcome.changed_at,
            changed_by=self.ctx.service_for(doc.ref).client.profile.user.upper(),
        )

    async def _merged(
        self, doc: OpenDocument, snapshot: str, outcome: WriteOutcome, hunks: int
    ) -> SaveResult:
        """Saved over a colleague's change: the editor is shown the merged text and told
        whose lines were kept (see :mod:`~.automerge`)."""
        shown = await show_merged(self.ctx, doc, snapshot, outcome)
        if self._locks.on_edit:  # after the move: the document is clean on its new base
            await self._locks.release_if_unused(doc.ref)
        self._diagnostics.check_later(doc.ref)
        if shown is not None:
            return SaveResult(SaveStatus.CONFLICT, doc.uri, conflict=shown)
        return SaveResult(
            SaveStatus.MERGED,
            doc.uri,
            token=outcome.token,
            line_count=outcome.line_count,
            hunks=hunks,
            changed_at=outcome.changed_at,
            changed_by=self.ctx.service_for(doc.ref).client.profile.user.upper(),
            rebased_over=outcome.rebased_over,
        )

    async def _write_in_request(
        self, doc: OpenDocument, token: str | None, patches: list[Patch], rebase: bool
    ) -> WriteOutcome:
        """Write with the object's transport request: the one chosen earlier in the session
        (or the default); when the system asks for one, the user chooses, and the write
        runs once more with it."""
        ref = doc.ref
        tried = self._transports.remembered(ref.system, ref.object_url)
        try:
            return await self._write_renewing_lock(doc, token, patches, tried, rebase)
        except (TransportRequired, TransportInvalid) as refusal:
            chosen = await self._transports.choose_after(ref.system, ref.object_url, refusal, tried)
            if chosen is None:
                raise not_chosen(object_name(ref.object_url), refusal) from refusal
            return await self._write_renewing_lock(doc, token, patches, chosen, rebase)

    async def _write_renewing_lock(
        self,
        doc: OpenDocument,
        token: str | None,
        patches: list[Patch],
        transport: str | None,
        rebase: bool,
    ) -> WriteOutcome:
        service = self.ctx.service_for(doc.ref)
        owner = lock_owner(doc.ref.object_url)

        async def write() -> WriteOutcome:
            # An agent that locked the object through this editor's server works for the
            # person at this editor: the save goes under that lock (the token still guards).
            held = service.locks.find(doc.ref.object_url)
            handle = held[1].lock_handle if held is not None and held[0] != owner else None
            return await service.set_source_v2(
                doc.ref.object_url,
                include_type=doc.ref.include_type,
                token=token,
                patches=patches,
                lock_handle=handle,
                transport=transport,
                owner=owner,
                rebase=rebase,
            )

        try:
            return await write()
        except LockRequired:
            # Our onEdit lock died with its session: take it again; the token is verified
            # again under the new lock.
            self.ctx.editor.notify(
                Severity.WARNING,
                f"The ABAP session holding the lock on {doc.ref.object_url} ended; locking "
                "again and re-checking the version before saving.",
            )
            await self._locks.renew(doc.ref)
            return await write()

    async def _adopt_saved(self, doc: OpenDocument, snapshot: str, outcome: WriteOutcome) -> None:
        doc.conflict = None
        doc.conflict_findings = []
        normalised = doc.buffer.text == snapshot and outcome.text != snapshot
        # If the server normalised what we sent (trailing blanks), show the editor.
        if normalised and await self.ctx.documents.move_editor_to(
            doc, outcome.text, outcome.token, "abap-adt: saved form"
        ):
            return
        # The saved version is the base now, whatever the editor shows meanwhile.
        doc.adopt_base(outcome.text, outcome.token)
