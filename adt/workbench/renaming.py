"""Rename across objects, all or nothing.

ADT's refactoring (:class:`adt.areas.refactoring.Refactorings`) says *what* changes:
evaluate names the symbol, preview lists every place for the new name. Writing is ours, so
that a rename keeps the guarantees of a save: :meth:`Renaming.write_all` locks every
affected object, checks every source against the version its new text was derived from,
and only when all of them still are writes them (a colleague's change in any object stops
the whole rename before anything is written, naming the objects). A write that fails
half-way puts the sources already written back. Locks are released under every fault.
Then all affected objects are activated together.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adt.source.errors import (
    InvalidArgument,
    ObjectLocked,
    SourceError,
    TransportRequired,
    VersionConflict,
    as_source_error,
)
from adt.source.lines import Patch
from adt.source.token import same_content
from adt.text import split_lines

if TYPE_CHECKING:
    from adt.areas.refactoring import RenameProposal, TextReplacement
    from adt.source import ActivationOutcome, SourceService

#: Who holds the locks of a rename in the source service's lock table.
RENAME_OWNER = "rename"

__all__ = [
    "RENAME_OWNER",
    "RenameOutcome",
    "Renaming",
    "SourceEdit",
    "WrittenSource",
    "apply_replacements",
    "changed_span",
]


@dataclass(frozen=True)
class SourceEdit:
    """The new ``text`` of one source, derived from the version ``token`` names."""

    source_url: str
    object_url: str
    name: str
    token: str
    text: str
    places: int


@dataclass(frozen=True)
class WrittenSource:
    """A source the rename wrote: its new token and how many places changed."""

    source_url: str
    object_url: str
    name: str
    token: str
    places: int


@dataclass(frozen=True)
class RenameOutcome:
    """What was written; the activation's outcome, or why it did not run."""

    written: tuple[WrittenSource, ...]
    activation: ActivationOutcome | None
    activation_failure: str | None = None


def apply_replacements(
    text: str, replacements: Sequence[TextReplacement], *, name: str = "the source"
) -> str:
    """``text`` with every replacement made; each must still find its old text in place
    (case-insensitive, as ABAP names are), else the source changed since the preview."""
    starts = _line_starts(text)
    for r in sorted(replacements, key=lambda r: (r.line, r.start), reverse=True):
        begin, end = (
            _offset(text, starts, r.line, r.start),
            _offset(text, starts, r.last_line, r.end),
        )
        if begin is None or end is None or text[begin:end].upper() != r.old.upper():
            raise VersionConflict(
                f"{name} changed since the refactoring was planned (line {r.line} no longer "
                f"reads {r.old.strip() or 'as it did'}); nothing was changed",
                line=r.line,
            )
        text = text[:begin] + r.new + text[end:]
    return text


def _done(verb: str) -> str:
    """ "rename" → "renamed", "extract" → "extracted": what a refusal says did not happen."""
    return verb + ("d" if verb.endswith("e") else "ed")


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for index, char in enumerate(text):
        if char == "\n":
            starts.append(index + 1)
    return starts


def _offset(text: str, starts: list[int], line: int, column: int) -> int | None:
    """Where (1-based ``line``, 0-based ``column``) is in ``text``; None outside it."""
    if not 0 < line <= len(starts):
        return None
    end = starts[line] - 1 if line < len(starts) else len(text)
    return starts[line - 1] + column if column <= end - starts[line - 1] else None


class Renaming:
    """Plan a rename through ADT, then write it under our own locks and token checks."""

    def __init__(self, source: SourceService) -> None:
        self._source = source

    async def propose(
        self, source_url: str, line: int, start: int, end: int, new_name: str, transport: str = ""
    ) -> RenameProposal:
        """Evaluate the symbol at the position (of the saved source) and preview
        ``new_name``: every place, nothing written."""
        if not new_name.strip():
            raise InvalidArgument("the new name is empty")
        refactorings = self._source.client.refactorings
        try:
            evaluated = await refactorings.rename_evaluate(source_url, line, start, end)
            return await refactorings.rename_preview(evaluated, new_name.strip(), transport)
        except SourceError:
            raise
        except Exception as exc:
            raise as_source_error(exc) from exc

    async def saved_edits(
        self, proposal: RenameProposal, skip: Sequence[str] = ()
    ) -> list[SourceEdit]:
        """The new texts of the affected sources as saved now (fresh reads), except those
        in ``skip`` (the caller derives them, e.g. from unsaved buffers)."""
        edits = []
        for affected in proposal.affected:
            if affected.source_url in skip:
                continue
            read = await self._source.get_source_v2(
                object_source_url=affected.source_url, fresh=True
            )
            text = apply_replacements(read.content, affected.replacements, name=affected.name)
            edits.append(
                SourceEdit(
                    affected.source_url,
                    affected.object_url,
                    affected.name,
                    read.token,
                    text,
                    len(affected.replacements),
                )
            )
        return edits

    async def write_all(
        self,
        edits: Sequence[SourceEdit],
        transport: str | None = None,
        *,
        activate: bool = True,
        verb: str = "rename",
    ) -> RenameOutcome:
        """Lock every object, check every token, write every source — or nothing. A lock
        held through this server already (an editor's, an agent's) is used, not taken.
        ``verb`` names the refactoring in refusals ("nothing was extracted")."""
        objects = sorted({e.object_url: e.name for e in edits}.items())
        async with self.locked(objects, verb) as handles:
            await self.verify(edits, verb)
            self.require_transport(objects, transport, verb)
            written = await self.write(edits, transport, handles)
        if not activate:
            return RenameOutcome(tuple(written), None)
        activation, failure = await self.activate([url for url, _ in objects])
        return RenameOutcome(tuple(written), activation, failure)

    @contextlib.asynccontextmanager
    async def locked(
        self, objects: list[tuple[str, str]], verb: str = "rename"
    ) -> AsyncIterator[dict[str, str]]:
        """Every object locked (a lock held through this server already is used, not
        taken): their lock handles by object URL. The locks taken here are released under
        every fault; one that is gone with its object (deleted) is not released again."""
        handles: dict[str, str] = {}
        taken: list[str] = []
        try:
            for object_url, name in objects:
                handles[object_url], own = await self._lock(object_url, name, objects, verb)
                if own:
                    taken.append(object_url)
            yield handles
        finally:
            for object_url in taken:
                if self._source.locks.find(object_url) is not None:
                    await self._source.locks.unlock(object_url, owner=RENAME_OWNER)

    async def activate(
        self, object_urls: Sequence[str]
    ) -> tuple[ActivationOutcome | None, str | None]:
        """Activate the objects together; a refusal is reported, not raised (the rename is
        written either way)."""
        if not object_urls:
            return None, None
        first, *rest = object_urls
        try:
            return await self._source.activate(first, together=rest), None
        except SourceError as exc:
            return None, exc.message

    async def _lock(
        self, object_url: str, name: str, objects: list[tuple[str, str]], verb: str
    ) -> tuple[str, bool]:
        held = self._source.locks.find(object_url)
        if held is not None:
            return held[1].lock_handle, False
        try:
            info = await self._source.locks.lock(object_url, owner=RENAME_OWNER)
        except SourceError as exc:
            names = ", ".join(n for _, n in objects)
            raise ObjectLocked(
                f"nothing was {_done(verb)}: {name} cannot be locked ({exc.message}); the "
                f"{verb} changes {names}",
                objects=[n for _, n in objects],
                blocked=name,
            ) from exc
        return info.lock_handle, True

    async def verify(self, edits: Sequence[SourceEdit], verb: str = "rename") -> None:
        """Refuse (naming the objects) when any source is no longer the version its new
        text was derived from."""
        changed = []
        for edit in edits:
            current = await self._source.get_source_v2(
                object_source_url=edit.source_url, fresh=True
            )
            if not same_content(current.token, edit.token):
                include = current.include_type
                who = current.changed_by or await self._source.last_changed_by(
                    edit.object_url, include
                )
                changed.append((edit.name, who or "someone"))
        if changed:
            listed = ", ".join(f"{name} (by {who})" for name, who in changed)
            raise VersionConflict(
                f"nothing was {_done(verb)}: changed on the server since it was read: "
                f"{listed}; reload them and {verb} again",
                objects=[name for name, _ in changed],
            )

    def require_transport(
        self, objects: list[tuple[str, str]], transport: str | None, verb: str
    ) -> None:
        if transport:
            return
        for object_url, name in objects:
            held = self._source.locks.find(object_url)
            info = held[1] if held is not None else None
            if info is not None and not info.is_local and not info.transport:
                raise TransportRequired(
                    f"nothing was {_done(verb)}: {name} is in a transportable package and is "
                    "on no request; pass a transport request",
                    object=name,
                )

    async def write(
        self,
        edits: Sequence[SourceEdit],
        transport: str | None,
        handles: dict[str, str],
        then: Callable[[], Awaitable[None]] | None = None,
    ) -> list[WrittenSource]:
        """Write every source under its object's lock, then run ``then``; when a write or
        ``then`` fails, the sources already written are put back."""
        written: list[tuple[SourceEdit, WrittenSource, str]] = []
        try:
            for edit in edits:
                before = await self._source.get_source_v2(object_source_url=edit.source_url)
                outcome = await self._replace(
                    edit, edit.token, before.content, edit.text, (transport, handles)
                )
                written.append(
                    (
                        edit,
                        WrittenSource(
                            edit.source_url, edit.object_url, edit.name, outcome, edit.places
                        ),
                        before.content,
                    )
                )
            if then is not None:
                await then()
        except Exception:
            for edit, done, old_text in reversed(written):  # put back what was written
                await self._replace(edit, done.token, edit.text, old_text, (transport, handles))
            raise
        return [done for _, done, _ in written]

    async def _replace(
        self,
        edit: SourceEdit,
        token: str,
        current: str,
        text: str,
        lease: tuple[str | None, dict[str, str]],
    ) -> str:
        """Write ``text`` over ``current`` as one patch from the first to the last changed
        line, checked against ``token``."""
        patch = changed_span(current, text)
        if patch is None:
            return token
        outcome = await self._source.set_source_v2(
            object_source_url=edit.source_url,
            token=token,
            patches=[patch],
            transport=lease[0],
            lock_handle=lease[1][edit.object_url],
        )
        return outcome.token


def changed_span(current: str, text: str) -> Patch | None:
    """The one patch that turns ``current`` into ``text`` (equal lines at both ends kept)."""
    before, after = split_lines(current), split_lines(text)
    head = 0
    while head < min(len(before), len(after)) and before[head] == after[head]:
        head += 1
    tail = 0
    limit = min(len(before), len(after)) - head
    while tail < limit and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    if head == len(before) == len(after):
        return None
    return Patch(head + 1, len(before) - tail, tuple(after[head : len(after) - tail]))
