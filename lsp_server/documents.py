"""Open documents: the editor's text on our own line buffer, the server version it is based
on, and moving the editor to another text without losing what it has."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cachetools import LRUCache, TTLCache

from adt.source.errors import InvalidArgument
from adt.text import split_lines
from lsp_server.buffer import TextBuffer, line_edits, split_text
from lsp_server.editor import Diagnostic, Editor
from lsp_server.uris import DocumentRef

if TYPE_CHECKING:
    from adt.source import SourceRead

log = logging.getLogger("lsp_server.documents")

Change = tuple[tuple[int, int] | None, tuple[int, int] | None, str]


@dataclass
class RemoteVersion:
    """The server's version that a save conflicted with."""

    text: str
    token: str
    changed_by: str | None
    # why an automatic merge (mergeOnSave: auto) did not take it, in the user's words
    not_merged: str = ""


@dataclass
class OpenDocument:
    ref: DocumentRef
    buffer: TextBuffer
    version: int
    base_token: str | None = None
    base_ready: asyncio.Event = field(default_factory=asyncio.Event)
    save_lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conflict: RemoteVersion | None = None
    # (document version the edit was computed for, base and token to adopt once the editor
    # has applied it: any later version includes the edit)
    pending: tuple[int, str, str] | None = None
    pending_reached: asyncio.Event = field(default_factory=asyncio.Event)
    warned_token: str | None = None
    # Set by ``adt/restoreDocument`` when the server's current version is not the base (the
    # buffer was read before a restart and the source changed since): a save with nothing to
    # send must not say "unchanged". ``base_unknown``: neither the editor nor this server
    # knows the base's text, so the base lines are only a guess and a merge must not trust
    # them. Both end when the base moves to a version read from the server.
    behind: bool = False
    base_unknown: bool = False
    # why the last adt/restoreDocument failed: until one succeeds, saving is refused (the
    # base may be the current server version, against which a save could revert a change)
    restore_failed: str | None = None
    # whether the source has an inactive version (saved, not activated); None: not known
    inactive: bool | None = None
    check_findings: list[Diagnostic] = field(default_factory=list)
    conflict_findings: list[Diagnostic] = field(default_factory=list)
    debounce: asyncio.TimerHandle | None = None
    # told when the base moves to another server version (a save, reload, refresh, merge or
    # agent edit), so the editor can follow the token
    on_rebase: Callable[[OpenDocument], None] | None = field(default=None, repr=False)

    @property
    def uri(self) -> str:
        return self.ref.uri

    @property
    def dirty(self) -> bool:
        return self.buffer.dirty

    def adopt_base(self, text: str | Sequence[str], token: str) -> None:
        """The server's ``text`` (or its lines) with ``token`` is what this document is based
        on now."""
        moved = self.base_token is not None and token != self.base_token
        self.buffer.set_base(text)
        self.base_token = token
        self.behind = self.base_unknown = False
        self.base_ready.set()
        if moved and self.on_rebase is not None:
            self.on_rebase(self)

    def cancel_debounce(self) -> None:
        if self.debounce is not None:
            self.debounce.cancel()
            self.debounce = None


class Documents:
    """The open ``adt://`` documents by URI."""

    def __init__(self, editor: Editor) -> None:
        self._editor = editor
        self._open: dict[str, OpenDocument] = {}
        # Reads waiting for their didOpen; a read that is never opened expires.
        self._loaded: TTLCache[str, tuple[SourceRead, bool | None]] = TTLCache(maxsize=64, ttl=120)
        # The bases of documents closed lately, by token: a document reopened with unsaved
        # edits (adt/restoreDocument) finds the text it was based on here.
        self._closed_bases: LRUCache[str, str] = LRUCache(maxsize=16)
        self.on_rebase: Callable[[OpenDocument], None] | None = None
        # set (and dropped) when a document opens or changes while someone waits for it:
        # see :meth:`next_change`; nothing is made per keystroke when nobody waits
        self._changed: asyncio.Event | None = None

    def __iter__(self) -> Iterator[OpenDocument]:
        return iter(list(self._open.values()))

    def __contains__(self, uri: object) -> bool:
        return uri in self._open

    def get(self, uri: str) -> OpenDocument | None:
        return self._open.get(uri)

    def require(self, uri: str) -> OpenDocument:
        doc = self._open.get(uri)
        if doc is None:
            raise InvalidArgument(f"{uri} is not open in the editor")
        return doc

    def of_object(self, object_url: str) -> list[OpenDocument]:
        return [d for d in self._open.values() if d.ref.object_url == object_url]

    def remember_read(self, uri: str, read: SourceRead, inactive: bool | None = None) -> None:
        """A read the editor is about to open: it becomes the document's base."""
        self._loaded[uri] = (read, inactive)

    def open(self, ref: DocumentRef, text: str, version: int, encoding: str) -> OpenDocument:
        """Open a document; ``base_ready`` is set at once when its read is known."""
        loaded, inactive = self._loaded.pop(ref.uri, (None, None))
        # The editor opens what it read: then the buffer shares the cached text (one string,
        # see adt.text.TextLines) instead of keeping a copy of it.
        lines: Sequence[str] | None = None
        if loaded is not None and loaded.lines and text == loaded.content:
            lines = loaded.lines
        doc = OpenDocument(ref=ref, buffer=TextBuffer(lines or text, encoding), version=version)
        doc.on_rebase = self._rebased
        doc.inactive = inactive
        self._open[ref.uri] = doc
        if loaded is not None:
            doc.adopt_base(lines or loaded.content, loaded.token)
        self._wake()
        return doc

    def _wake(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    async def next_change(self, within: float) -> bool:
        """Wait until a document opens or changes, at most ``within`` seconds; whether one
        did. For a server edit the editor reports applied before its ``didChange`` arrives
        (Neovim sends changes debounced)."""
        if self._changed is None:
            self._changed = asyncio.Event()
        changed = self._changed
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), within)
        return changed.is_set()

    def tell_base(self, doc: OpenDocument) -> None:
        """Tell the editor about the document's base again although it did not move (an
        activation: the same version, now active)."""
        self._rebased(doc)

    def _rebased(self, doc: OpenDocument) -> None:
        if self.on_rebase is not None and self._open.get(doc.uri) is doc:
            self.on_rebase(doc)

    def change(self, uri: str, version: int, changes: Sequence[Change]) -> OpenDocument | None:
        """Apply an editor's change; ``None`` when the document is not open here."""
        doc = self._open.get(uri)
        if doc is None:
            return None
        for start, end, text in changes:
            doc.buffer.apply_change(start, end, text)
        doc.version = version
        if doc.pending is not None and version > doc.pending[0]:
            doc.adopt_base(doc.pending[1], doc.pending[2])
            doc.pending = None
            doc.pending_reached.set()
        if doc.buffer.clamped:
            log.warning(
                "%s: %d change positions past the end of a line or of the document were "
                "clamped (the editor and the server may disagree about the text)",
                uri,
                doc.buffer.clamped,
            )
            doc.buffer.clamped = 0
        self._wake()
        return doc

    def close(self, uri: str) -> OpenDocument | None:
        doc = self._open.pop(uri, None)
        if doc is not None:
            doc.cancel_debounce()
            if doc.base_token is not None and not doc.base_unknown:
                self._closed_bases[doc.base_token] = doc.buffer.base_text
        return doc

    def known_base(self, token: str) -> str | None:
        """The text of version ``token`` if this server still has it: the base of an open or
        lately closed document, or a read waiting for its didOpen."""
        for doc in self._open.values():
            if doc.base_token == token and not doc.base_unknown:
                return doc.buffer.base_text
        for read, _ in self._loaded.values():
            if read.token == token:
                return read.content
        return self._closed_bases.get(token)

    def close_all(self) -> None:
        for doc in self._open.values():
            doc.cancel_debounce()

    async def move_editor_to(
        self,
        doc: OpenDocument,
        text: str,
        token: str,
        label: str,
        *,
        base: str | None = None,
    ) -> bool:
        """Ask the editor to show ``text``, touching only the lines that differ; once it
        does, ``base`` (default: ``text``) with ``token`` becomes the document's base.

        The edit names the document version it was computed for, so an editor that has moved
        on (a keystroke in flight) rejects it instead of misplacing it. The first change the
        editor reports after that version includes the edit (possibly with the user's next
        keystrokes), and from then on the new base applies. Returns whether the editor applied
        the edit; if not, the document keeps its text and its old base.
        """
        base_text = text if base is None else base
        edits = line_edits(doc.buffer.lines, split_text(text))
        if not edits:
            doc.adopt_base(base_text, token)
            return True
        doc.pending = (doc.version, base_text, token)
        doc.pending_reached.clear()
        applied = await self._editor.apply_edits(doc.uri, edits, label, doc.version)
        if not applied:
            doc.pending = None  # the editor did not follow: its text and old base stay
            return False
        if doc.pending is not None:  # wait for the editor's didChange that carries our edit
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(doc.pending_reached.wait(), timeout=5)
        if doc.pending is not None:  # applied, but no change reported: trust the editor
            doc.adopt_base(base_text, token)
            doc.pending = None
        return True


def base_lines(doc: OpenDocument) -> list[str]:
    return split_lines(doc.buffer.base_text)
