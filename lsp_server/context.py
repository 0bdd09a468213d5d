"""What every feature of the workspace shares: the systems, the settings, the editor, the open
documents and the background tasks."""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from adt.systems import Connections, EditorSettings
from lsp_server.editor import Editor, Severity
from lsp_server.uris import DocumentRef

if TYPE_CHECKING:
    from adt.source import SourceService

if TYPE_CHECKING:
    from lsp_server.documents import Documents

log = logging.getLogger("lsp_server.workspace")


class Tasks:
    """Background work whose failure must reach the user, not vanish."""

    def __init__(self, editor: Editor) -> None:
        self._editor = editor
        self._running: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Awaitable[Any], name: str) -> asyncio.Task[Any]:
        async def guarded() -> Any:
            try:
                return await coro
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.exception("%s failed", name)
                self._editor.notify(Severity.ERROR, f"{name} failed: {exc}")
                return None

        task = asyncio.get_running_loop().create_task(guarded(), name=name)
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        if inspect.iscoroutine(coro):  # cancelled before it started: close it quietly
            task.add_done_callback(lambda t: coro.close() if t.cancelled() else None)
        return task

    async def wait_idle(self) -> None:
        """Wait for background work (tests, shutdown)."""
        while self._running:
            await asyncio.gather(*list(self._running), return_exceptions=True)

    async def cancel_all(self) -> None:
        for task in list(self._running):
            task.cancel()
        await asyncio.gather(*self._running, return_exceptions=True)


class WorkspaceContext:
    """The shared parts; ``settings`` changes at runtime (``didChangeConfiguration``)."""

    def __init__(
        self,
        connections: Connections,
        settings: EditorSettings,
        editor: Editor,
        documents: Documents,
    ) -> None:
        self.connections = connections
        self.settings = settings
        self.editor = editor
        self.documents = documents
        self.tasks = Tasks(editor)

    def service_for(self, ref: DocumentRef) -> SourceService:
        return self.connections.service(ref.system)
