"""Telling the editor which server version an open document is based on (``adt/baseVersion``),
whenever that changes: after a save, a reload, a refresh, a merge or an agent's edit. Editors
show the token, who changed the source last and whether it has an inactive version (Neovim's
``b:abap_adt``, VS Code's status bar); an activation tells them again."""

from __future__ import annotations

from adt.source.token import token_changed_at
from lsp_server.documents import OpenDocument
from lsp_server.features import Feature


class BaseVersions(Feature):
    def rebased(self, doc: OpenDocument) -> None:
        """The document's base moved to another server version (called synchronously)."""
        if doc.base_token is not None:
            self.ctx.tasks.spawn(self._tell(doc, doc.base_token), f"following {doc.uri}")

    async def _tell(self, doc: OpenDocument, token: str) -> None:
        """Look up who changed the source (one metadata request), then tell the editor,
        unless the base has moved on meanwhile: the later move tells it instead."""
        last = await self.ctx.service_for(doc.ref).last_change(
            doc.ref.object_url, doc.ref.include_type
        )
        if doc.base_token == token and self.ctx.documents.get(doc.uri) is doc:
            doc.inactive = last.inactive
            self.ctx.editor.base_version(
                doc.uri,
                token,
                token_changed_at(token),
                last.changed_by,
                last.inactive,
                shown=(doc.version, not doc.dirty),
            )
