"""The workspace's features, one concern each, with document hooks (the esbonio
``LanguageFeature`` shape): the workspace calls every feature's hooks, in order, for each
document event, and a new capability arrives as a new feature module."""

from __future__ import annotations

from adt.systems import EditorSettings
from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument


class Feature:
    """One concern of the editor workspace; override the hooks it cares about."""

    def __init__(self, ctx: WorkspaceContext) -> None:
        self.ctx = ctx

    def document_opened(self, doc: OpenDocument) -> None:
        """After ``didOpen``."""

    def document_changed(self, doc: OpenDocument) -> None:
        """After ``didChange`` was applied to the buffer."""

    def hears_changes(self) -> bool:
        """Whether :meth:`document_changed` has anything to do under the current settings
        (asked at start and after every settings change): a keystroke reaches only the
        features that answer yes, as each call costs it time."""
        return type(self).document_changed is not Feature.document_changed

    def document_closed(self, doc: OpenDocument) -> None:
        """After ``didClose`` (the document is no longer in the store)."""

    def settings_changed(self, old: EditorSettings) -> None:
        """After the settings changed at runtime (``ctx.settings`` holds the new ones)."""

    async def start(self) -> None:
        """Once the editor is ready (``initialized``)."""

    async def close(self) -> None:
        """At shutdown, before the connections close."""
