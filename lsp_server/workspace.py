"""The editor's view of ABAP sources: the open documents and the features that act on them.

No pygls here: the language server (and the MCP passthrough) drive an :class:`EditorWorkspace`,
which talks back to the editor through the small :class:`~lsp_server.editor.Editor` port.
Each concern is a feature module in :mod:`lsp_server.features`; this class wires them and
forwards the editor's document events to every feature's hooks. Every write goes through the
V2 source operations, so a save is a token-checked multi-hunk patch and never overwrites
somebody else's change silently.
"""

from __future__ import annotations

from collections.abc import Sequence

from adt.systems import Connections, EditorSettings
from lsp_server.context import WorkspaceContext
from lsp_server.documents import Change, Documents, OpenDocument
from lsp_server.editor import Editor
from lsp_server.features import Feature
from lsp_server.features.activation import Activation
from lsp_server.features.agent_views import AgentViews
from lsp_server.features.base_versions import BaseVersions
from lsp_server.features.calls import CallHierarchy
from lsp_server.features.conflicts import Conflicts
from lsp_server.features.creation import ObjectCreation
from lsp_server.features.diagnostics import Diagnostics
from lsp_server.features.extraction import Extracting
from lsp_server.features.formatting import Formatting
from lsp_server.features.hierarchy import TypeHierarchy
from lsp_server.features.highlighting import SemanticHighlighting
from lsp_server.features.hints import ParameterHints
from lsp_server.features.intelligence import CodeIntelligence
from lsp_server.features.locks import EditLocks
from lsp_server.features.memory import FreeMemory
from lsp_server.features.metadata import MetadataCommands
from lsp_server.features.objects import Objects
from lsp_server.features.preview import DataPreview
from lsp_server.features.quality import Quality
from lsp_server.features.remote import RemoteChanges
from lsp_server.features.renaming import Renaming
from lsp_server.features.restoring import Restoring
from lsp_server.features.saving import Saving
from lsp_server.features.structure import DocumentStructure
from lsp_server.features.transports import TransportChoices
from lsp_server.features.versions import Versions
from lsp_server.results import SaveResult, SaveStatus
from lsp_server.uris import parse_uri


class EditorWorkspace:
    def __init__(self, connections: Connections, settings: EditorSettings, editor: Editor) -> None:
        self.documents = Documents(editor)
        self.ctx = WorkspaceContext(connections, settings, editor, self.documents)
        self.diagnostics = Diagnostics(self.ctx)
        self.transports = TransportChoices(self.ctx)
        self.locks = EditLocks(self.ctx, self.diagnostics, self.transports)
        self.saving = Saving(self.ctx, self.locks, self.diagnostics, self.transports)
        self.conflicts = Conflicts(self.ctx, self.saving, self.diagnostics)
        self.remote = RemoteChanges(self.ctx, self.locks)
        self.restoring = Restoring(self.ctx)
        self.activation = Activation(self.ctx, self.locks, self.diagnostics)
        self.objects = Objects(self.ctx)
        self.agent_views = AgentViews(self.ctx, self.diagnostics)
        self.base_versions = BaseVersions(self.ctx)
        self.documents.on_rebase = self._rebased
        self.intelligence = CodeIntelligence(self.ctx)
        self.formatting = Formatting(self.ctx)
        self.quality = Quality(self.ctx, self.diagnostics)
        self.versions = Versions(self.ctx)
        self.creation = ObjectCreation(self.ctx, self.transports)
        self.metadata = MetadataCommands(self.ctx, self.transports)
        self.preview = DataPreview(self.ctx)
        self.renaming = Renaming(self.ctx, self.locks, self.transports)
        self.extracting = Extracting(self.ctx, self.renaming, self.transports)
        self.hierarchy = TypeHierarchy(self.ctx)
        self.calls = CallHierarchy(self.ctx)
        self.hints = ParameterHints(self.ctx)
        self.highlighting = SemanticHighlighting(self.ctx)
        self.structure = DocumentStructure(self.ctx)
        self.memory = FreeMemory(self.ctx)
        self.features: tuple[Feature, ...] = (
            self.objects,
            self.diagnostics,
            self.locks,
            self.saving,
            self.conflicts,
            self.remote,
            self.restoring,
            self.activation,
            self.agent_views,
            self.base_versions,
            self.transports,
            self.intelligence,
            self.formatting,
            self.quality,
            self.versions,
            self.creation,
            self.metadata,
            self.preview,
            self.renaming,
            self.extracting,
            self.hierarchy,
            self.calls,
            self.hints,
            self.highlighting,
            self.structure,
            self.memory,
        )
        self._on_change: tuple[Feature, ...] = ()
        self._hear_changes()

    def _hear_changes(self) -> None:
        """Told of every keystroke: only the features that act on it under the settings."""
        self._on_change = tuple(f for f in self.features if f.hears_changes())

    @property
    def connections(self) -> Connections:
        return self.ctx.connections

    @property
    def settings(self) -> EditorSettings:
        return self.ctx.settings

    # --- document events ------------------------------------------------------------------

    def did_open(self, uri: str, text: str, version: int, encoding: str) -> OpenDocument:
        doc = self.documents.open(parse_uri(uri), text, version, encoding)
        for feature in self.features:
            feature.document_opened(doc)
        return doc

    def did_change(self, uri: str, version: int, changes: Sequence[Change]) -> None:
        """Apply an editor's change of an open document (one that is not open is ignored:
        a ``file://`` document, or one closed meanwhile)."""
        doc = self.documents.change(uri, version, changes)
        if doc is not None:
            for feature in self._on_change:
                feature.document_changed(doc)

    def did_close(self, uri: str) -> None:
        doc = self.documents.close(uri)
        if doc is not None:
            for feature in self.features:
                feature.document_closed(doc)

    def update_settings(self, settings: EditorSettings) -> None:
        """Adopt settings changed while the server runs (``didChangeConfiguration``)."""
        old, self.ctx.settings = self.ctx.settings, settings
        for feature in self.features:
            feature.settings_changed(old)
        self._hear_changes()

    def _rebased(self, doc: OpenDocument) -> None:
        """A document's base moved to another version, or was activated."""
        self.base_versions.rebased(doc)
        self.diagnostics.outdate_reports(doc)

    # --- requests that combine features ---------------------------------------------------

    async def save(self, uri: str) -> SaveResult:
        """Save a document; after a conflict the user is asked how to resolve it
        (``askOnConflict``), or resolves it through :meth:`Conflicts.resolve`."""
        result = await self.saving.save(uri)
        if result.status == SaveStatus.CONFLICT and self.settings.ask_on_conflict:
            self.conflicts.ask_later(uri)
        return result

    # --- lifecycle ------------------------------------------------------------------------

    async def start(self) -> None:
        """Once the editor is ready: start what runs in the background (polling)."""
        for feature in self.features:
            await feature.start()

    async def wait_idle(self) -> None:
        await self.ctx.tasks.wait_idle()

    async def close(self) -> None:
        """Release every lock and connection; called on shutdown and exit, always."""
        for feature in self.features:
            await feature.close()
        await self.ctx.tasks.cancel_all()
        self.documents.close_all()
        await self.connections.close()
