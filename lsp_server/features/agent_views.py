"""The agent's view of open documents (MCP passthrough): an agent's write to a document open
in the editor respects its unsaved edits and shows up in its buffer."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from adt.source.errors import InvalidArgument, VersionConflict
from adt.source.token import same_content
from adt.text import split_lines, to_canonical
from lsp_server.context import WorkspaceContext
from lsp_server.documents import OpenDocument, base_lines
from lsp_server.editor import Severity
from lsp_server.features import Feature
from lsp_server.features.diagnostics import Diagnostics
from lsp_server.features.locks import lock_owner
from lsp_server.merge import diff_hunks, merge

if TYPE_CHECKING:
    from adt.agent.registry import Build
    from adt.source import WriteOutcome


class AgentViews(Feature):
    """Implements :class:`adt.agent.DocumentViews` for the language server's documents."""

    def __init__(self, ctx: WorkspaceContext, diagnostics: Diagnostics) -> None:
        super().__init__(ctx)
        self._diagnostics = diagnostics

    def view(self, system: str, object_url: str, include: str) -> OpenDocument | None:
        """The open document of a source unit, if the editor has it open."""
        wanted = (system.lower(), object_url, include)
        for doc in self.ctx.documents:
            if (doc.ref.system.lower(), doc.ref.object_url, doc.ref.source.include) == wanted:
                return doc
        return None

    def lock_owner(self, object_url: str) -> str:
        """Agent and editor share one lock owner per object."""
        return lock_owner(object_url)

    async def write_through(
        self,
        view: Any,
        token: str | None,
        build: Build,
        *,
        lock_handle: str | None,
        transport: str | None,
    ) -> WriteOutcome:
        """An agent's write to a document open in the editor.

        The edit is computed on the editor's base version (the token must name it). If the
        editor's unsaved changes overlap or touch it, nothing is written and the agent gets a
        conflict naming the document. Otherwise it is written as one checked patch and merged
        into the editor's buffer, whose unsaved changes stay unsaved.
        """
        doc: OpenDocument = view
        async with doc.save_lock:
            await doc.base_ready.wait()
            if token is not None and doc.base_token is not None:
                await self._align_with(doc, token)
            lines = base_lines(doc)
            agent = diff_hunks(lines, split_lines(to_canonical(build(doc.buffer.base_text))))
            editor = doc.buffer.hunks()
            if not merge(lines, editor, agent).clean:
                self._tell_refused(doc, "it changes lines you are editing")
                raise VersionConflict(
                    f"{doc.uri} is open in the editor with unsaved changes that overlap your "
                    "edit; nothing was written",
                    document=doc.uri,
                    editorRanges=[[h.start, h.end] for h in editor],
                    resolution="ask the user to save or undo their changes in the editor, then "
                    "read the source again",
                )
            if not agent:
                raise InvalidArgument("the edit changes nothing", document=doc.uri)
            outcome = await self.ctx.service_for(doc.ref).set_source_v2(
                doc.ref.object_url,
                include_type=doc.ref.include_type,
                token=doc.base_token if token is not None else None,
                skip_conflict_check=token is None,
                patches=[h.as_patch() for h in agent],
                lock_handle=lock_handle,
                transport=transport,
                owner=lock_owner(doc.ref.object_url),
            )
            await self._show_agent_edit(doc, lines, outcome)
        self._diagnostics.check_later(doc.ref)
        return outcome

    async def _show_agent_edit(
        self, doc: OpenDocument, lines: list[str], outcome: WriteOutcome
    ) -> None:
        """Merge a written agent edit into the editor, keeping its unsaved changes. Edits the
        user typed meanwhile are taken into account (the merge is recomputed when the editor
        rejects a stale edit); if they now overlap, the editor keeps its text and old base, so
        its next save asks how to combine the versions."""
        theirs = diff_hunks(lines, split_lines(outcome.text))
        for _ in range(5):
            merged = merge(lines, doc.buffer.hunks(), theirs)
            if not merged.clean:
                self.ctx.editor.notify(
                    Severity.WARNING,
                    f"An agent changed {doc.uri} on the server while you were editing the same "
                    "lines. Your edits are kept; saving will offer reload, overwrite or merge.",
                )
                return
            if await self.ctx.documents.move_editor_to(
                doc, merged.text, outcome.token, "abap-adt: agent edit", base=outcome.text
            ):
                return
            await asyncio.sleep(0.05)  # let the editor's pending changes arrive
        self.ctx.editor.notify(
            Severity.WARNING,
            f"{doc.uri} changed on the server; reopen it to see the current version.",
        )

    def _tell_refused(self, doc: OpenDocument, why: str) -> None:
        """The editor's user learns that an agent's change was not written because of their
        unsaved edits (the agent is told too, through its error), and what unblocks it."""
        self.ctx.editor.agent_edit_refused(
            doc.uri,
            f"An agent's change to {doc.uri} was not written: {why}. Your edits are kept; "
            "save them (or undo them) so that the agent can apply its change.",
        )

    async def _align_with(self, doc: OpenDocument, token: str) -> None:
        """Make sure the agent's token names the editor's base; refresh a clean editor that is
        behind the server, refuse otherwise."""
        assert doc.base_token is not None
        if same_content(token, doc.base_token):
            return
        fresh = await self.ctx.service_for(doc.ref).get_source_v2(
            doc.ref.object_url, include_type=doc.ref.include_type, fresh=True
        )
        if not same_content(token, fresh.token):
            raise VersionConflict(
                "version conflict: the source was changed since your token was issued; "
                "nothing was written",
                document=doc.uri,
                expectedToken=token,
                currentToken=fresh.token,
                changedBy=fresh.changed_by,
                resolution="read the source again for its current content and token",
            )
        if doc.dirty:
            self._tell_refused(doc, "your unsaved edits started from an older version")
            raise VersionConflict(
                f"{doc.uri} is open in the editor with unsaved changes made on an older "
                "version; nothing was written",
                document=doc.uri,
                expectedToken=token,
                currentToken=doc.base_token,
                resolution="ask the user to save (and resolve) or reload the document first",
            )
        await self.ctx.documents.move_editor_to(
            doc, fresh.content, fresh.token, "changed on the server"
        )
