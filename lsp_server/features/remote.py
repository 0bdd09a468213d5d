"""Remote changes: every ``pollInterval`` seconds, compare each open document with the
server; a clean document follows, a dirty one is warned once per new version."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from adt.source.errors import SessionExpired
from adt.source.token import same_content
from adt.systems import EditorSettings
from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument
from lsp_server.editor import Severity
from lsp_server.features import Feature
from lsp_server.features.locks import EditLocks

log = logging.getLogger("lsp_server.remote")


class RemoteChanges(Feature):
    def __init__(self, ctx: WorkspaceContext, locks: EditLocks) -> None:
        super().__init__(ctx)
        self._locks = locks
        self._poller: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()  # the poll interval changed: sleep again

    async def start(self) -> None:
        self.start_polling()

    def start_polling(self) -> None:
        if self._poller is None and self.ctx.settings.poll_interval > 0:
            self._poller = asyncio.get_running_loop().create_task(self._poll_loop())

    def settings_changed(self, old: EditorSettings) -> None:
        """A new ``pollInterval`` applies at once: ``0`` stops the poller, a positive value
        starts it or makes it wait again with the new interval."""
        if self.ctx.settings.poll_interval != old.poll_interval:
            if self._poller is None:
                self.start_polling()
            else:
                self._wake.set()

    async def close(self) -> None:
        poller = self._poller
        if poller is not None:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller
            self._poller = None

    async def _poll_loop(self) -> None:
        """Check every ``poll_interval`` seconds; a new interval applies at once, and the
        loop ends when it becomes 0 (:meth:`settings_changed` starts it again)."""
        try:
            while (interval := self.ctx.settings.poll_interval) > 0:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), interval)
                except TimeoutError:
                    pass
                else:
                    continue  # the interval changed: wait again with the new one
                try:
                    await self.poll_once()
                except Exception:  # keep polling; the next round may succeed
                    log.exception("checking for remote changes failed")
        finally:
            self._poller = None

    async def poll_once(self) -> None:
        """Compare every open document with the server's current version."""
        for doc in self.ctx.documents:
            if doc.base_token is None or doc.pending is not None or doc.save_lock.locked():
                continue
            await self._check(doc)

    async def _check(self, doc: OpenDocument) -> None:
        service = self.ctx.service_for(doc.ref)
        locked = self._locks.holds(doc.ref.object_url)
        based_on = doc.base_token
        try:
            read = await service.get_source_v2(
                doc.ref.object_url, include_type=doc.ref.include_type, fresh=True, stateful=locked
            )
        except SessionExpired:
            self.ctx.editor.notify(
                Severity.WARNING,
                f"The ABAP session ended and released your lock on {doc.ref.object_url}; "
                "locking again.",
            )
            await self._locks.renew(doc.ref)
            read = await service.get_source_v2(
                doc.ref.object_url, include_type=doc.ref.include_type, fresh=True
            )
        async with doc.save_lock:
            if doc.base_token != based_on:
                return  # moved while we read (a save, an agent's edit): this read may be older
            if doc.base_token is None or same_content(read.token, doc.base_token):
                return
            changed_by = read.changed_by or await service.last_changed_by(
                doc.ref.object_url, doc.ref.include_type
            )
            await self._follow(doc, read.content, read.token, changed_by)

    async def _follow(
        self, doc: OpenDocument, text: str, token: str, changed_by: str | None
    ) -> None:
        who = f" by {changed_by}" if changed_by else ""
        if not doc.dirty:
            if await self.ctx.documents.move_editor_to(doc, text, token, "changed on the server"):
                self.ctx.editor.notify(
                    Severity.INFO, f"{doc.uri} was changed on the server{who}; reloaded."
                )
        elif doc.warned_token != token:
            doc.warned_token = token
            self.ctx.editor.notify(
                Severity.WARNING,
                f"{doc.uri} was changed on the server{who}. Your unsaved edits are kept; when "
                "you save you can reload, overwrite or merge.",
            )
