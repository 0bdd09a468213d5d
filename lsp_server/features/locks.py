"""Editor locks in ``onEdit`` mode: locked at the first change, released when the object's
documents are clean again or closed; the debounced check of unsaved text while typing."""

from __future__ import annotations

import asyncio
import contextlib

from adt.source import SourceError
from adt.source.errors import ObjectLocked
from adt.systems import EditorSettings, LockMode
from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument
from lsp_server.editor import Severity
from lsp_server.features import Feature
from lsp_server.features.diagnostics import Diagnostics
from lsp_server.features.transports import TransportChoices
from lsp_server.uris import DocumentRef


def lock_owner(object_url: str) -> str:
    """All documents of one object share its lock (a class's includes are one object)."""
    return f"editor:{object_url}"


class EditLocks(Feature):
    def __init__(
        self,
        ctx: WorkspaceContext,
        diagnostics: Diagnostics,
        transports: TransportChoices | None = None,
    ) -> None:
        super().__init__(ctx)
        self._diagnostics = diagnostics
        self._transports = transports
        self._locked: dict[str, DocumentRef] = {}  # object URLs locked in onEdit mode
        self._locking: dict[str, asyncio.Task[None]] = {}  # lock acquisitions in flight

    @property
    def on_edit(self) -> bool:
        return self.ctx.settings.lock_mode == LockMode.ON_EDIT

    def holds(self, object_url: str) -> bool:
        return object_url in self._locked

    # --- hooks ----------------------------------------------------------------------------

    def hears_changes(self) -> bool:
        return self.on_edit

    def document_changed(self, doc: OpenDocument) -> None:
        if not self.on_edit or doc.pending is not None:
            return
        object_url = doc.ref.object_url
        if object_url not in self._locked and object_url not in self._locking:
            self._locking[object_url] = self.ctx.tasks.spawn(
                self.take(doc.ref), f"locking {object_url}"
            )
        doc.cancel_debounce()
        doc.debounce = asyncio.get_running_loop().call_later(
            self.ctx.settings.check_delay,
            lambda: self.ctx.tasks.spawn(self._settle(doc.uri), f"checking {doc.uri}"),
        )

    def document_closed(self, doc: OpenDocument) -> None:
        if self.on_edit:
            self.ctx.tasks.spawn(self.release_if_unused(doc.ref), f"releasing {doc.ref.object_url}")

    def settings_changed(self, old: EditorSettings) -> None:
        """Leaving ``onEdit`` releases the locks the editor holds (the base token still
        protects the next save); entering it locks a dirty document at its next change."""
        if old.lock_mode == LockMode.ON_EDIT and not self.on_edit:
            for doc in self.ctx.documents:
                doc.cancel_debounce()
            self.ctx.tasks.spawn(self._release_all(), "releasing the editor's locks")

    async def close(self) -> None:
        self._locked.clear()

    # --- taking and releasing -------------------------------------------------------------

    async def wait_for(self, object_url: str) -> None:
        """Wait until a lock being taken for the object is taken (or refused)."""
        locking = self._locking.get(object_url)
        if locking is not None:
            await asyncio.wait([locking])

    async def take(self, ref: DocumentRef) -> None:
        try:
            info = await self.ctx.service_for(ref).lock(
                ref.object_url, owner=lock_owner(ref.object_url)
            )
            self._locked[ref.object_url] = ref
            if self._transports is not None and not info.is_local and not info.transport:
                # As Eclipse does: the first change of an object that is on no request asks
                # which one, so the save need not.
                self.ctx.tasks.spawn(
                    self._transports.choose(ref.system, ref.object_url),
                    f"choosing a transport request for {ref.object_url}",
                )
        except ObjectLocked as exc:
            self.ctx.editor.notify(
                Severity.WARNING,
                f"{exc.message} You can keep editing; saving waits until the lock is free.",
            )
        except SourceError as exc:
            self.ctx.editor.notify(
                Severity.ERROR, f"Could not lock {ref.object_url}: {exc.message}"
            )
        finally:
            self._locking.pop(ref.object_url, None)

    async def release(self, ref: DocumentRef) -> None:
        self._locked.pop(ref.object_url, None)
        await self.ctx.service_for(ref).release_owner(lock_owner(ref.object_url))

    async def renew(self, ref: DocumentRef) -> None:
        """The lock died with its session: forget it and lock again. The new lock counts as
        being taken from the start, so a save meanwhile waits for it (:meth:`wait_for`)
        instead of locking a second time and finding the object locked by itself."""
        locking = self._locking[ref.object_url] = self.ctx.tasks.spawn(
            self._retake(ref), f"locking {ref.object_url} again"
        )
        await asyncio.wait([locking])

    async def _retake(self, ref: DocumentRef) -> None:
        await self.release(ref)
        await self.take(ref)

    async def release_if_unused(self, ref: DocumentRef) -> None:
        """Release the object's onEdit lock once no open document of it is dirty (waiting for
        a lock that is still being taken, so it cannot slip through)."""
        await self.wait_for(ref.object_url)
        if ref.object_url in self._locked and not any(
            d.dirty for d in self.ctx.documents.of_object(ref.object_url)
        ):
            await self.release(ref)

    async def _release_all(self) -> None:
        """Release every ``onEdit`` lock, after the locks still being taken and the saves in
        progress (a save keeps the lock it started with)."""
        taking = [task for task in self._locking.values() if not task.done()]
        if taking:
            await asyncio.wait(taking)
        for object_url, ref in list(self._locked.items()):
            if self.on_edit:
                return  # switched back meanwhile: keep the rest
            async with contextlib.AsyncExitStack() as saves:
                for doc in self.ctx.documents.of_object(object_url):
                    await saves.enter_async_context(doc.save_lock)
                if object_url in self._locked:
                    await self.release(ref)

    async def _settle(self, uri: str) -> None:
        """After typing pauses: check the unsaved text; clean again (undone), release the lock
        and check the stored object instead, whose findings replace those of the unsaved text."""
        doc = self.ctx.documents.get(uri)
        if doc is None:
            return
        if not any(d.dirty for d in self.ctx.documents.of_object(doc.ref.object_url)):
            await self.release_if_unused(doc.ref)
            await self._diagnostics.check_saved(doc.ref)
            return
        await self._diagnostics.check_unsaved(doc)
