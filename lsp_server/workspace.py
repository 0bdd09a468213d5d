"""The editor's view of ABAP sources: open documents, saves, conflicts, locks, diagnostics.

No pygls here: the language server (and the MCP passthrough) drive an :class:`EditorWorkspace`,
which talks back to the editor through the small :class:`Editor` port. Every write goes
through the V2 source operations, so a save is a token-checked multi-hunk patch and never
overwrites somebody else's change silently.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cachetools import TTLCache

from adt.source import (
    CheckOutcome,
    Finding,
    SourceError,
    SourceRead,
    SourceService,
    WriteOutcome,
)
from adt.source.errors import (
    BackendError,
    InvalidArgument,
    LockRequired,
    ObjectLocked,
    SessionExpired,
    VersionConflict,
)
from adt.source.lines import Patch
from adt.source.token import same_content
from adt.systems import Connections
from adt.text import split_lines, to_canonical
from adt.urls import object_type_for
from lsp_server.buffer import Edit, TextBuffer, line_edits, split_text
from lsp_server.merge import diff_hunks, merge
from lsp_server.settings import ON_EDIT, Settings
from lsp_server.uris import DocumentRef, make_uri, parse_uri

log = logging.getLogger("lsp_server.workspace")

RELOAD, OVERWRITE, MERGE = "reload", "overwrite", "merge"
CHOICES = {
    "Reload theirs": RELOAD,
    "Overwrite with mine": OVERWRITE,
    "Merge": MERGE,
}
ERROR, WARNING, INFO, HINT = 1, 2, 3, 4


@dataclass(frozen=True)
class Diagnostic:
    """A message placed in a document: 0-based lines, ``str`` indices (the server converts
    them to the negotiated position encoding)."""

    start: tuple[int, int]
    end: tuple[int, int]
    severity: int
    message: str
    code: str = ""
    source: str = "abap-adt"


class Editor(Protocol):
    """What the workspace needs from the editor connection."""

    async def apply_edits(
        self, uri: str, edits: Sequence[Edit], label: str, version: int | None
    ) -> bool: ...

    async def ask(self, message: str, choices: Sequence[str]) -> str | None: ...

    def notify(self, severity: int, message: str) -> None: ...

    def publish(self, uri: str, diagnostics: Sequence[Diagnostic]) -> None: ...


@dataclass
class RemoteVersion:
    text: str
    token: str
    changed_by: str | None


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
    check_findings: list[Diagnostic] = field(default_factory=list)
    conflict_findings: list[Diagnostic] = field(default_factory=list)
    debounce: asyncio.TimerHandle | None = None

    @property
    def uri(self) -> str:
        return self.ref.uri

    @property
    def dirty(self) -> bool:
        return self.buffer.dirty


def _lock_owner(object_url: str) -> str:
    """All documents of one object share its lock (a class's includes are one object)."""
    return f"editor:{object_url}"


def patches_between(base_text: str, target_text: str) -> list[Patch]:
    """Line patches turning ``base_text`` into ``target_text`` (for overwrite and merge)."""
    return [h.as_patch() for h in diff_hunks(split_lines(base_text), split_lines(target_text))]


class EditorWorkspace:
    def __init__(self, connections: Connections, settings: Settings, editor: Editor) -> None:
        self.connections = connections
        self.settings = settings
        self.editor = editor
        self.documents: dict[str, OpenDocument] = {}
        # Reads waiting for their didOpen; a read that is never opened expires.
        self._loaded: TTLCache[str, SourceRead] = TTLCache(maxsize=64, ttl=120)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._poller: asyncio.Task[None] | None = None
        self._poll_wake = asyncio.Event()  # the poll interval changed: sleep again
        self._locked: dict[str, DocumentRef] = {}  # object URLs locked in onEdit mode
        self._locking: dict[str, asyncio.Task[Any]] = {}  # lock acquisitions in flight

    # --- plumbing -------------------------------------------------------------------------

    def _spawn(self, coro: Awaitable[Any], name: str) -> asyncio.Task[Any]:
        async def guarded() -> Any:
            try:
                return await coro
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # a background failure must reach the user, not vanish
                log.exception("%s failed", name)
                self.editor.notify(ERROR, f"{name} failed: {exc}")
                return None

        task = asyncio.get_running_loop().create_task(guarded(), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if inspect.iscoroutine(coro):  # cancelled before it started: close it quietly
            task.add_done_callback(lambda t: coro.close() if t.cancelled() else None)
        return task

    def service_for(self, ref: DocumentRef) -> SourceService:
        return self.connections.service(ref.system)

    def document(self, uri: str) -> OpenDocument:
        doc = self.documents.get(uri)
        if doc is None:
            raise InvalidArgument(f"{uri} is not open in the editor")
        return doc

    def documents_of(self, object_url: str) -> list[OpenDocument]:
        return [d for d in self.documents.values() if d.ref.object_url == object_url]

    async def wait_idle(self) -> None:
        """Wait for background work (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # --- settings -------------------------------------------------------------------------

    def update_settings(self, settings: Settings) -> None:
        """Adopt settings changed while the server runs (``didChangeConfiguration``).

        A new ``pollInterval`` applies at once: ``0`` stops the poller, a positive value
        starts it or makes it wait again with the new interval. Leaving ``onEdit`` releases
        the locks the editor holds (the base token still protects the next save); entering
        it locks a dirty document at its next change, as any first change would.
        """
        old, self.settings = self.settings, settings
        if settings.poll_interval != old.poll_interval:
            if self._poller is None:
                self.start_polling()
            else:
                self._poll_wake.set()
        if old.lock_mode == ON_EDIT and settings.lock_mode != ON_EDIT:
            for doc in self.documents.values():
                if doc.debounce is not None:
                    doc.debounce.cancel()
                    doc.debounce = None
            self._spawn(self._release_editor_locks(), "releasing the editor's locks")

    async def _release_editor_locks(self) -> None:
        """Release every ``onEdit`` lock, after the locks still being taken and the saves in
        progress (a save keeps the lock it started with)."""
        taking = [task for task in self._locking.values() if not task.done()]
        if taking:
            await asyncio.wait(taking)
        for object_url, ref in list(self._locked.items()):
            if self.settings.lock_mode == ON_EDIT:
                return  # switched back meanwhile: keep the rest
            async with contextlib.AsyncExitStack() as saves:
                for doc in self.documents_of(object_url):
                    await saves.enter_async_context(doc.save_lock)
                if object_url in self._locked:
                    await self._release(ref)

    # --- reading and opening --------------------------------------------------------------

    async def read_document(self, uri: str, *, fresh: bool = True) -> dict[str, Any]:
        """Text, token and metadata of a document, read from the server."""
        ref = parse_uri(uri)
        read = await self.service_for(ref).get_source_v2(
            ref.object_url, include_type=ref.include_type, fresh=fresh
        )
        self._loaded[uri] = read
        return {
            "uri": uri,
            "text": read.content,
            "token": read.token,
            "lineCount": read.line_count,
            "changedAt": read.changed_at,
            "changedBy": read.changed_by,
            "objectUrl": read.object_url,
            "sourceUrl": read.source_url,
            "objectType": read.object_type,
            "includeType": read.include_type,
            "system": ref.system,
        }

    def did_open(self, uri: str, text: str, version: int, encoding: str) -> None:
        ref = parse_uri(uri)
        loaded = self._loaded.pop(uri, None)
        doc = OpenDocument(ref=ref, buffer=TextBuffer(text, encoding), version=version)
        self.documents[uri] = doc
        if loaded is not None:
            self._adopt_base(doc, loaded.content, loaded.token)
        else:  # opened without adt/readDocument (a restored editor tab): fetch the base
            self._spawn(self._fetch_base(doc), f"reading {uri}")

    async def _fetch_base(self, doc: OpenDocument) -> None:
        read = await self.service_for(doc.ref).get_source_v2(
            doc.ref.object_url, include_type=doc.ref.include_type, fresh=True
        )
        if doc.base_token is None:
            self._adopt_base(doc, read.content, read.token)

    def _adopt_base(self, doc: OpenDocument, text: str, token: str) -> None:
        doc.buffer.set_base(text)
        doc.base_token = token
        doc.base_ready.set()

    def did_change(
        self,
        uri: str,
        version: int,
        changes: Sequence[tuple[tuple[int, int] | None, tuple[int, int] | None, str]],
    ) -> None:
        doc = self.document(uri)
        for start, end, text in changes:
            doc.buffer.apply_change(start, end, text)
        doc.version = version
        if doc.pending is not None and version > doc.pending[0]:
            self._adopt_base(doc, doc.pending[1], doc.pending[2])
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
        if self.settings.lock_mode == ON_EDIT and doc.pending is None:
            self._after_edit(doc)

    def did_close(self, uri: str) -> None:
        doc = self.documents.pop(uri, None)
        if doc is None:
            return
        if doc.debounce is not None:
            doc.debounce.cancel()
        self.editor.publish(uri, [])
        if self.settings.lock_mode == ON_EDIT:
            self._spawn(self._release_if_unused(doc.ref), f"releasing {doc.ref.object_url}")

    # --- onEdit locks and debounced checks ------------------------------------------------

    def _after_edit(self, doc: OpenDocument) -> None:
        object_url = doc.ref.object_url
        if object_url not in self._locked and object_url not in self._locking:
            self._locking[object_url] = self._spawn(
                self._take_lock(doc.ref), f"locking {object_url}"
            )
        if doc.debounce is not None:
            doc.debounce.cancel()
        loop = asyncio.get_running_loop()
        doc.debounce = loop.call_later(
            self.settings.check_delay,
            lambda: self._spawn(self._settle(doc.uri), f"checking {doc.uri}"),
        )

    async def _take_lock(self, ref: DocumentRef) -> None:
        try:
            await self.service_for(ref).lock(ref.object_url, owner=_lock_owner(ref.object_url))
            self._locked[ref.object_url] = ref
        except ObjectLocked as exc:
            self.editor.notify(
                WARNING,
                f"{exc.message} You can keep editing; saving waits until the lock is free.",
            )
        except SourceError as exc:
            self.editor.notify(ERROR, f"Could not lock {ref.object_url}: {exc.message}")
        finally:
            self._locking.pop(ref.object_url, None)

    async def _release_if_unused(self, ref: DocumentRef) -> None:
        """Release the object's onEdit lock once no open document of it is dirty (waiting for
        a lock that is still being taken, so it cannot slip through)."""
        locking = self._locking.get(ref.object_url)
        if locking is not None:
            await asyncio.wait([locking])
        if ref.object_url in self._locked and not any(
            d.dirty for d in self.documents_of(ref.object_url)
        ):
            await self._release(ref)

    async def _release(self, ref: DocumentRef) -> None:
        self._locked.pop(ref.object_url, None)
        await self.service_for(ref).release_owner(_lock_owner(ref.object_url))

    async def _settle(self, uri: str) -> None:
        """After typing pauses: release the lock if clean again, else check the unsaved text."""
        doc = self.documents.get(uri)
        if doc is None:
            return
        if not any(d.dirty for d in self.documents_of(doc.ref.object_url)):
            await self._release_if_unused(doc.ref)
            return
        await self._check_unsaved(doc)

    # --- saving ---------------------------------------------------------------------------

    async def save(self, uri: str) -> dict[str, Any]:
        """Save a document as one token-checked multi-hunk patch.

        Returns ``{"status": "saved" | "unchanged" | "conflict" | "error", ...}``. A conflict
        keeps every local edit and asks the user how to resolve it (reload, overwrite,
        merge); the answer can also come through :meth:`resolve_conflict`.
        """
        doc = self.document(uri)
        async with doc.save_lock:
            await doc.base_ready.wait()
            locking = self._locking.get(doc.ref.object_url)
            if locking is not None:  # an onEdit lock is being taken: save under it
                await asyncio.wait([locking])
            hunks = doc.buffer.hunks()
            if not hunks:
                return {"status": "unchanged", "uri": uri, "token": doc.base_token}
            result = await self._write(doc, doc.base_token, [h.as_patch() for h in hunks])
        if result["status"] == "conflict" and self.settings.ask_on_conflict:
            self._spawn(self._ask_conflict(uri), f"resolving the conflict on {uri}")
        return result

    async def _write(
        self, doc: OpenDocument, token: str | None, patches: list[Patch]
    ) -> dict[str, Any]:
        """Patch the server's source; on success the saved text becomes the base."""
        snapshot = doc.buffer.text
        service = self.service_for(doc.ref)
        owner = _lock_owner(doc.ref.object_url)

        async def write() -> WriteOutcome:
            return await service.set_source_v2(
                doc.ref.object_url,
                include_type=doc.ref.include_type,
                token=token,
                patches=patches,
                owner=owner,
            )

        try:
            try:
                outcome = await write()
            except LockRequired:
                # Our onEdit lock died with its session: take it again; the token is
                # verified again under the new lock.
                self.editor.notify(
                    WARNING,
                    f"The ABAP session holding the lock on {doc.ref.object_url} ended; "
                    "locking again and re-checking the version before saving.",
                )
                await service.release_owner(owner)
                self._locked.pop(doc.ref.object_url, None)
                await self._take_lock(doc.ref)
                outcome = await write()
        except VersionConflict as conflict:
            theirs = await service.get_source_v2(
                doc.ref.object_url, include_type=doc.ref.include_type
            )  # the conflict refreshed the cache: no request
            doc.conflict = RemoteVersion(
                theirs.content, theirs.token, conflict.details.get("changedBy")
            )
            return {"status": "conflict", "uri": doc.uri, "conflict": conflict.to_dict()}
        except SourceError as exc:  # the requester shows it (didSave: see the server)
            return {"status": "error", "uri": doc.uri, "error": exc.to_dict()}
        await self._adopt_saved(doc, snapshot, outcome)
        if self.settings.lock_mode == ON_EDIT:
            await self._release_if_unused(doc.ref)
        self._spawn(self._check_saved(doc.ref), f"checking {doc.ref.object_url}")
        return {
            "status": "saved",
            "uri": doc.uri,
            "token": outcome.token,
            "lineCount": outcome.line_count,
            "hunks": len(patches),
            "changedAt": outcome.changed_at,
        }

    async def _adopt_saved(self, doc: OpenDocument, snapshot: str, outcome: WriteOutcome) -> None:
        doc.conflict = None
        doc.conflict_findings = []
        normalised = doc.buffer.text == snapshot and outcome.text != snapshot
        # If the server normalised what we sent (trailing blanks), show the editor.
        if normalised and await self.move_editor_to(
            doc, outcome.text, outcome.token, "abap-adt: saved form"
        ):
            return
        # The saved version is the base now, whatever the editor shows meanwhile.
        self._adopt_base(doc, outcome.text, outcome.token)

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
            self._adopt_base(doc, base_text, token)
            return True
        doc.pending = (doc.version, base_text, token)
        doc.pending_reached.clear()
        applied = await self.editor.apply_edits(doc.uri, edits, label, doc.version)
        if not applied:
            doc.pending = None  # the editor did not follow: its text and old base stay
            return False
        if doc.pending is not None:  # wait for the editor's didChange that carries our edit
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(doc.pending_reached.wait(), timeout=5)
        if doc.pending is not None:  # applied, but no change reported: trust the editor
            self._adopt_base(doc, base_text, token)
            doc.pending = None
        return True

    # --- conflicts ------------------------------------------------------------------------

    async def _ask_conflict(self, uri: str) -> None:
        doc = self.documents.get(uri)
        if doc is None or doc.conflict is None:
            return
        who = f" by {doc.conflict.changed_by}" if doc.conflict.changed_by else ""
        answer = await self.editor.ask(
            f"{uri} was changed on the server{who} since you opened it. Your edits are kept. "
            "What should happen?",
            list(CHOICES),
        )
        if doc.conflict is None:
            return  # resolved meanwhile (adt/resolveConflict)
        if answer is None:
            self.editor.notify(
                WARNING,
                f"Not saved: {uri} changed on the server. Your edits are kept; save again to "
                "choose reload, overwrite or merge.",
            )
            return
        result = await self.resolve_conflict(uri, CHOICES[answer])
        status = result["status"]
        if status == "conflict":  # yet another change meanwhile: ask again
            await self._ask_conflict(uri)
        elif status == "error":
            self.editor.notify(ERROR, f"{uri}: {result['error']['error']}")
        elif status == "mergeConflicts":
            self.editor.notify(
                WARNING,
                f"{uri}: merged, but some of your lines overlap the server's; they are marked "
                "in the editor. Resolve them and save.",
            )
        elif status != "noConflict":
            self.editor.notify(INFO, f"{uri}: {status}.")

    async def resolve_conflict(self, uri: str, choice: str) -> dict[str, Any]:
        """Reload theirs, overwrite with mine, or merge (markers where the edits overlap)."""
        if choice not in (RELOAD, OVERWRITE, MERGE):
            raise InvalidArgument(f"choice must be reload, overwrite or merge, not {choice!r}")
        doc = self.document(uri)
        async with doc.save_lock:
            theirs = doc.conflict
            if theirs is None:
                return {"status": "noConflict", "uri": uri}
            if choice == RELOAD:
                if not await self.move_editor_to(doc, theirs.text, theirs.token, "reload"):
                    return self._not_followed(uri, "reload")
                doc.conflict = None
                doc.conflict_findings = []
                self._republish(doc)
                return {"status": "reloaded", "uri": uri, "token": theirs.token}
            if choice == OVERWRITE:
                patches = patches_between(theirs.text, doc.buffer.text)
                if patches:
                    return await self._write(doc, theirs.token, patches)
                self._adopt_base(doc, theirs.text, theirs.token)
                doc.conflict = None
                return {"status": "unchanged", "uri": uri, "token": theirs.token}
            base_lines = split_lines(doc.buffer.base_text)
            ours = doc.buffer.hunks()
            result = merge(base_lines, ours, diff_hunks(base_lines, split_lines(theirs.text)))
            applied = await self.move_editor_to(
                doc, result.text, theirs.token, "merge", base=theirs.text
            )
            if not applied:
                return self._not_followed(uri, "merge")
            doc.conflict = None
            if result.conflicts:
                doc.conflict_findings = [
                    Diagnostic(
                        (c.start - 1, 0),
                        (c.end - 1, len(result.lines[c.end - 1])),
                        ERROR,
                        "Merge conflict: your lines and the server's lines overlap here. Keep "
                        "what should stay, delete the markers, then save.",
                        code="merge-conflict",
                    )
                    for c in result.conflicts
                ]
                self._republish(doc)
                return {
                    "status": "mergeConflicts",
                    "uri": uri,
                    "token": theirs.token,
                    "conflicts": [[c.start, c.end] for c in result.conflicts],
                }
            patches = [h.as_patch() for h in doc.buffer.hunks()]
            if not patches:
                return {"status": "unchanged", "uri": uri, "token": theirs.token}
            saved = await self._write(doc, theirs.token, patches)
            return {**saved, "status": "merged" if saved["status"] == "saved" else saved["status"]}

    @staticmethod
    def _not_followed(uri: str, what: str) -> dict[str, Any]:
        error = BackendError(
            f"the editor did not apply the {what} (the document changed meanwhile); nothing "
            "was lost: resolve again"
        )
        return {"status": "error", "uri": uri, "error": error.to_dict()}

    # --- remote changes -------------------------------------------------------------------

    def start_polling(self) -> None:
        if self._poller is None and self.settings.poll_interval > 0:
            self._poller = asyncio.get_running_loop().create_task(self._poll_loop())

    async def _poll_loop(self) -> None:
        """Check every ``poll_interval`` seconds; a new interval applies at once, and the
        loop ends when it becomes 0 (:meth:`update_settings` starts it again)."""
        try:
            while (interval := self.settings.poll_interval) > 0:
                self._poll_wake.clear()
                try:
                    await asyncio.wait_for(self._poll_wake.wait(), interval)
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
        for doc in list(self.documents.values()):
            if doc.base_token is None or doc.pending is not None or doc.save_lock.locked():
                continue
            await self._check_remote(doc)

    async def _check_remote(self, doc: OpenDocument) -> None:
        service = self.service_for(doc.ref)
        locked = doc.ref.object_url in self._locked
        try:
            read = await service.get_source_v2(
                doc.ref.object_url, include_type=doc.ref.include_type, fresh=True, stateful=locked
            )
        except SessionExpired:
            self.editor.notify(
                WARNING,
                f"The ABAP session ended and released your lock on {doc.ref.object_url}; "
                "locking again.",
            )
            await self._release(doc.ref)
            await self._take_lock(doc.ref)
            read = await service.get_source_v2(
                doc.ref.object_url, include_type=doc.ref.include_type, fresh=True
            )
        async with doc.save_lock:
            if doc.base_token is None or same_content(read.token, doc.base_token):
                return
            changed_by = read.changed_by or await service.last_changed_by(
                doc.ref.object_url, doc.ref.include_type
            )
            who = f" by {changed_by}" if changed_by else ""
            if not doc.dirty:
                if await self.move_editor_to(
                    doc, read.content, read.token, "changed on the server"
                ):
                    self.editor.notify(INFO, f"{doc.uri} was changed on the server{who}; reloaded.")
            elif doc.warned_token != read.token:
                doc.warned_token = read.token
                self.editor.notify(
                    WARNING,
                    f"{doc.uri} was changed on the server{who}. Your unsaved edits are kept; "
                    "when you save you can reload, overwrite or merge.",
                )

    # --- diagnostics, activation ----------------------------------------------------------

    async def _check_saved(self, ref: DocumentRef) -> CheckOutcome:
        outcome = await self.service_for(ref).check(ref.object_url)
        self._publish_findings(ref.object_url, outcome.findings)
        return outcome

    async def _check_unsaved(self, doc: OpenDocument) -> CheckOutcome:
        outcome = await self.service_for(doc.ref).check(
            doc.ref.object_url, include_type=doc.ref.include_type, text=doc.buffer.text
        )
        self._publish_findings(doc.ref.object_url, outcome.findings, only=doc)
        return outcome

    async def check(self, uri: str) -> dict[str, Any]:
        """Run the ADT syntax check now (command ``adt.check``) and publish its findings: on
        the unsaved text of an open document with changes, else on the stored object."""
        doc = self.documents.get(uri)
        if doc is not None and doc.dirty:
            outcome = await self._check_unsaved(doc)
        else:
            outcome = await self._check_saved(doc.ref if doc is not None else parse_uri(uri))
        return {"uri": uri, **outcome.to_dict()}

    def _publish_findings(
        self, object_url: str, findings: Sequence[Finding], only: OpenDocument | None = None
    ) -> None:
        targets = [only] if only is not None else self.documents_of(object_url)
        for doc in targets:
            include = doc.ref.source.include
            doc.check_findings = [
                self._diagnostic(doc, f)
                for f in findings
                if f.object_url == object_url and f.include_type == include
            ]
            self._republish(doc)

    def _republish(self, doc: OpenDocument) -> None:
        self.editor.publish(doc.uri, [*doc.check_findings, *doc.conflict_findings])

    @staticmethod
    def _diagnostic(doc: OpenDocument, finding: Finding) -> Diagnostic:
        lines = doc.buffer.lines
        line = max(0, min((finding.line or 1) - 1, len(lines) - 1))
        column = max(0, min(finding.column or 0, len(lines[line])))
        if finding.end_line is not None and finding.end_column is not None:
            end_line = max(line, min(finding.end_line - 1, len(lines) - 1))
            end = (end_line, max(0, min(finding.end_column, len(lines[end_line]))))
        else:
            text = lines[line]
            stop = column
            while stop < len(text) and not text[stop].isspace() and text[stop] != ".":
                stop += 1
            end = (line, stop if stop > column else len(text))
        severity = {"E": ERROR, "A": ERROR, "X": ERROR, "W": WARNING}.get(finding.severity, INFO)
        return Diagnostic((line, column), end, severity, finding.text, code=finding.code)

    async def activate(
        self, uri: str, report: Callable[[str], None] | None = None
    ) -> dict[str, Any]:
        """Activate the object behind a document; its messages become diagnostics."""
        doc = self.documents.get(uri)
        ref = doc.ref if doc is not None else parse_uri(uri)
        dirty = [d.uri for d in self.documents_of(ref.object_url) if d.dirty]
        if dirty:
            return {
                "activated": False,
                "uri": uri,
                "reason": f"unsaved changes in {', '.join(dirty)}: save first",
            }
        if ref.object_url in self._locked:
            await self._release(ref)
        if report:
            report(f"Activating {ref.object_url}")
        outcome = await self.service_for(ref).activate(ref.object_url)
        self._publish_findings(ref.object_url, outcome.findings)
        if report:
            report("done" if outcome.success else "failed")
        return {"uri": uri, **outcome.to_dict()}

    # --- objects --------------------------------------------------------------------------

    async def open_object(
        self,
        name: str,
        *,
        object_type: str | None,
        system: str | None,
        include_type: str | None,
    ) -> dict[str, Any]:
        """Find an object by name and return the URI of its source (or the candidates)."""
        service = self.connections.service(system)
        hits = await service.search(name, max_results=20, object_type=object_type)
        exact = [h for h in hits if h["name"].upper() == name.upper() and object_type_for(h["uri"])]
        if not exact and "*" not in name:
            hits = await service.search(f"{name}*", max_results=20, object_type=object_type)
        if len(exact) != 1:
            return {
                "found": False,
                "candidates": hits,
                "message": (
                    f"{len(exact)} source objects are named {name!r}"
                    if exact
                    else f"no source object is named {name!r}"
                ),
            }
        hit = exact[0]
        return {
            "found": True,
            "name": hit["name"],
            "type": hit["type"],
            "objectUrl": hit["uri"],
            "uri": make_uri(service.system, hit["uri"], include_type),
        }

    async def object_structure(self, object_url: str, system: str | None) -> dict[str, Any]:
        service = self.connections.service(system)
        structure = await service.object_structure(object_url)
        for include in structure["includes"]:
            include["uri"] = make_uri(
                service.system, structure["objectUrl"], include["includeType"]
            )
        structure["uri"] = make_uri(service.system, structure["objectUrl"])
        return structure

    async def search(
        self, query: str, *, system: str | None, max_results: int, object_type: str | None
    ) -> list[dict[str, Any]]:
        service = self.connections.service(system)
        hits = await service.search(query, max_results=max_results, object_type=object_type)
        for hit in hits:
            if object_type_for(hit["uri"]):
                hit["documentUri"] = make_uri(service.system, hit["uri"])
        return hits

    # --- the agent's view of open documents (MCP passthrough) -----------------------------

    def view(self, system: str, object_url: str, include: str) -> OpenDocument | None:
        """The open document of a source unit, if the editor has it open."""
        for doc in self.documents.values():
            ref = doc.ref
            if (ref.system.lower(), ref.object_url, ref.source.include) == (
                system.lower(),
                object_url,
                include,
            ):
                return doc
        return None

    def lock_owner(self, object_url: str) -> str:
        """Agent and editor share one lock owner per object."""
        return _lock_owner(object_url)

    async def write_through(
        self,
        view: Any,
        token: str | None,
        build: Callable[[str], str],
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
        service = self.service_for(doc.ref)
        async with doc.save_lock:
            await doc.base_ready.wait()
            if token is not None and doc.base_token is not None:
                await self._align_with(doc, token)
            base_text = doc.buffer.base_text
            base_lines = split_lines(base_text)
            agent = diff_hunks(base_lines, split_lines(to_canonical(build(base_text))))
            editor = doc.buffer.hunks()
            if not merge(base_lines, editor, agent).clean:
                ranges = [[h.start, h.end] for h in editor]
                raise VersionConflict(
                    f"{doc.uri} is open in the editor with unsaved changes that overlap your "
                    "edit; nothing was written",
                    document=doc.uri,
                    editorRanges=ranges,
                    resolution="ask the user to save or undo their changes in the editor, then "
                    "read the source again",
                )
            if not agent:
                raise InvalidArgument("the edit changes nothing", document=doc.uri)
            outcome = await service.set_source_v2(
                doc.ref.object_url,
                include_type=doc.ref.include_type,
                token=doc.base_token if token is not None else None,
                skip_conflict_check=token is None,
                patches=[h.as_patch() for h in agent],
                lock_handle=lock_handle,
                transport=transport,
                owner=_lock_owner(doc.ref.object_url),
            )
            await self._show_agent_edit(doc, base_lines, outcome)
        self._spawn(self._check_saved(doc.ref), f"checking {doc.ref.object_url}")
        return outcome

    async def _show_agent_edit(
        self, doc: OpenDocument, base_lines: list[str], outcome: WriteOutcome
    ) -> None:
        """Merge a written agent edit into the editor, keeping its unsaved changes. Edits the
        user typed meanwhile are taken into account (the merge is recomputed when the editor
        rejects a stale edit); if they now overlap, the editor keeps its text and old base, so
        its next save asks how to combine the versions."""
        theirs = diff_hunks(base_lines, split_lines(outcome.text))
        for _ in range(5):
            merged = merge(base_lines, doc.buffer.hunks(), theirs)
            if not merged.clean:
                self.editor.notify(
                    WARNING,
                    f"An agent changed {doc.uri} on the server while you were editing the same "
                    "lines. Your edits are kept; saving will offer reload, overwrite or merge.",
                )
                return
            if await self.move_editor_to(
                doc, merged.text, outcome.token, "abap-adt: agent edit", base=outcome.text
            ):
                return
            await asyncio.sleep(0.05)  # let the editor's pending changes arrive
        self.editor.notify(
            WARNING, f"{doc.uri} changed on the server; reopen it to see the current version."
        )

    async def _align_with(self, doc: OpenDocument, token: str) -> None:
        """Make sure the agent's token names the editor's base; refresh a clean editor that is
        behind the server, refuse otherwise."""
        assert doc.base_token is not None
        if same_content(token, doc.base_token):
            return
        fresh = await self.service_for(doc.ref).get_source_v2(
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
                resolution="call getObjectSourceV2 to read the current content and token",
            )
        if doc.dirty:
            raise VersionConflict(
                f"{doc.uri} is open in the editor with unsaved changes made on an older "
                "version; nothing was written",
                document=doc.uri,
                expectedToken=token,
                currentToken=doc.base_token,
                resolution="ask the user to save (and resolve) or reload the document first",
            )
        await self.move_editor_to(doc, fresh.content, fresh.token, "changed on the server")

    # --- shutdown -------------------------------------------------------------------------

    async def close(self) -> None:
        """Release every lock and connection; called on shutdown and exit, always."""
        poller = self._poller
        if poller is not None:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller
            self._poller = None
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for doc in self.documents.values():
            if doc.debounce is not None:
                doc.debounce.cancel()
        await self.connections.close()
        self._locked.clear()
