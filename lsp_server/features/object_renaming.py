"""Renaming a global class or interface from the editor: the documents around the move.

The plan is a rename's (every place of the name, in the buffers) plus the old object's
open documents that have unsaved edits and no place of the name: their text goes into the
new object too. The write is :class:`adt.workbench.object_renaming.ObjectRenaming`'s (all or
nothing). Afterwards the users' documents adopt the written versions; the old object's
documents are gone from the server: their base becomes the text the editor shows (so a
save sends nothing) and they are no longer compared with the server. The handler then
shows the new object's documents (``window/showDocument``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from adt.source.errors import TransportRequired
from lsp_server.context import WorkspaceContext
from lsp_server.documents import Documents
from lsp_server.features.locks import EditLocks
from lsp_server.features.transports import TransportChoices
from lsp_server.uris import make_uri

if TYPE_CHECKING:
    from adt.workbench.object_renaming import ObjectMove
    from adt.workbench.renaming import RenameOutcome, SourceEdit

__all__ = ["commit_move", "move_request", "moved_documents", "unsaved_parts"]


async def move_request(
    ctx: WorkspaceContext, transports: TransportChoices, system: str, move: ObjectMove
) -> str | None:
    """The request the new object (and its users) go into, asked as for a new object and
    before the editor sees the plan: none in a local package, the old object's request
    when it is on one, else the user's choice (``None``: no request needed)."""
    known = transports.remembered(system, move.old_url)
    if known:
        return known
    need = await ctx.connections.workbench(system).transports.need(move.old_url)
    if not need.required:
        return None
    chosen = need.locked_in or await transports.choose(
        system,
        move.new_url,
        package=need.package,
        candidates=[c.to_dict() for c in need.candidates],
    )
    if not chosen:
        raise TransportRequired(
            f"{move.new_name} needs a transport request and none was chosen; nothing was "
            "renamed. Rename again and choose a request, or set defaultTransport.",
            object=move.new_name,
        )
    transports.remember(system, move.old_url, chosen)
    return chosen


def unsaved_parts(ctx: WorkspaceContext, move: ObjectMove, planned: set[str]) -> list[SourceEdit]:
    """The old object's open documents with unsaved edits that the plan does not change:
    their buffers, so the new object gets what the editor shows."""
    from adt.workbench.renaming import SourceEdit

    edits = []
    for doc in ctx.documents.of_object(move.old_url):
        if doc.ref.source_url in planned or doc.base_token is None or not doc.dirty:
            continue
        edits.append(
            SourceEdit(
                doc.ref.source_url, move.old_url, move.old_name, doc.base_token, doc.buffer.text, 0
            )
        )
    return edits


def moved_documents(documents: Documents, system: str, move: ObjectMove) -> list[tuple[str, str]]:
    """(old URI, new URI) of each open document of the renamed object."""
    return [
        (doc.uri, make_uri(system, move.new_source_url(doc.ref.source_url)))
        for doc in documents.of_object(move.old_url)
    ]


async def commit_move(
    ctx: WorkspaceContext,
    locks: EditLocks,
    move: ObjectMove,
    planned: tuple[str, Sequence[SourceEdit]],
    transport: str | None,
) -> RenameOutcome:
    """Write the move of ``planned`` (its system and sources; all or nothing), then settle
    the open documents (see the module)."""
    system, sources = planned
    workbench = ctx.connections.workbench(system)
    outcome = await workbench.object_renaming.write_all(move, sources, transport, activate=False)
    texts = {s.source_url: s.text for s in sources}
    for written in outcome.written:
        doc = ctx.documents.get(make_uri(system, written.source_url))
        if doc is not None and written.source_url in texts:
            doc.adopt_base(texts[written.source_url], written.token)
            await locks.release_if_unused(doc.ref)
    gone = ctx.documents.of_object(move.old_url)
    for doc in gone:
        doc.adopt_base(doc.buffer.text, doc.base_token or "")
        doc.base_token = None  # gone: not compared with the server any more
    if gone:  # its lock ended with the deleted object: only the bookkeeping is left
        await locks.release(gone[0].ref)
    from adt.workbench.object_renaming import activated_objects
    from adt.workbench.renaming import RenameOutcome

    activation, failure = await workbench.renaming.activate(activated_objects(move, sources))
    return RenameOutcome(outcome.written, activation, failure)
