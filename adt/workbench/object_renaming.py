"""Renaming a global class or interface: a new object under the new name, the old one gone.

ADT's rename refactoring plans it as any rename: every place of the name, the object's own
``CLASS … DEFINITION``/``INTERFACE …`` statements included. That the object itself moves
cannot be written as text replacements, so it is done here, with the rename's guarantees:
every affected object (users and the old object) locked and checked against the version
the plan was derived from before anything is written (a colleague's change stops all,
naming the objects); then the new object is created in the old one's package with its
description (name check and transport question as for any new object), every part of the
old object written into it (renamed), the users written, and the old object deleted. A
failure on the way puts the users back and deletes the new object. Locks are released
under every fault; the new object and the users are activated together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from adt.source.errors import NameRefused, SourceError, as_source_error
from adt.urls import object_url as url_of
from adt.workbench.objects import NewObject
from adt.workbench.renaming import RENAME_OWNER, RenameOutcome, SourceEdit, WrittenSource

if TYPE_CHECKING:
    from adt.areas.refactoring import RenameProposal
    from adt.models import ObjectMetadata
    from adt.source import SourceService
    from adt.workbench.objects import ObjectLifecycle
    from adt.workbench.renaming import Renaming

#: The kinds whose rename moves the object, with the name the faces create them by.
KINDS = {"CLAS/OC": "class", "INTF/OI": "interface"}

__all__ = ["KINDS", "ObjectMove", "ObjectRenaming", "activated_objects", "moved_object"]


@dataclass(frozen=True)
class ObjectMove:
    """The renamed object: its URL and name now and after the rename."""

    type: str
    old_url: str
    old_name: str
    new_url: str
    new_name: str

    def new_source_url(self, source_url: str) -> str:
        """Where a source of the old object lives in the new one."""
        return self.new_url + source_url[len(self.old_url) :]


def moved_object(proposal: RenameProposal) -> ObjectMove | None:
    """The class or interface a plan renames itself (its own name is the renamed one),
    else None: a member or local rename."""
    old = proposal.old_name.upper()
    for source in proposal.affected:
        own = source.object_url.rstrip("/").rsplit("/", 1)[-1].upper() == old
        if source.type in KINDS and source.name.upper() == old and own:
            new_url = url_of(source.type, proposal.new_name)
            return ObjectMove(
                source.type, source.object_url, old, new_url, proposal.new_name.upper()
            )
    return None


def activated_objects(move: ObjectMove, edits: Sequence[SourceEdit]) -> list[str]:
    """What a move activates together: the new object and the users."""
    users = sorted({e.object_url for e in edits if e.object_url != move.old_url})
    return [move.new_url, *users]


class ObjectRenaming:
    """Write a planned class or interface rename: new object, users, old object deleted."""

    def __init__(self, source: SourceService, renaming: Renaming, objects: ObjectLifecycle) -> None:
        self._source = source
        self._renaming = renaming
        self._objects = objects

    async def check_name(self, move: ObjectMove) -> None:
        """The system's name check for the new object (taken, invalid, outside the
        customer range) as :class:`NameRefused`, before anything is shown or written."""
        client = self._source.client
        try:
            metadata = await client.object_metadata(move.old_url)
            verdict = await client.objects.validate_name(
                move.type,
                move.new_name,
                package=metadata.package,
                description=metadata.description,
            )
        except Exception as exc:
            raise as_source_error(exc) from exc
        if not verdict.ok:
            raise NameRefused(
                f"nothing was renamed: {verdict.message or move.new_name + ' cannot be used'}",
                name=move.new_name,
            )

    async def write_all(
        self,
        move: ObjectMove,
        edits: Sequence[SourceEdit],
        transport: str | None = None,
        *,
        activate: bool = True,
    ) -> RenameOutcome:
        """All or nothing (see the module); answers the users' and the new object's
        written sources and the activation of them together (``activate=False``: the caller
        activates :meth:`activated_objects` itself, e.g. after releasing its own locks)."""
        own = {e.source_url: e for e in edits if e.object_url == move.old_url}
        users = [e for e in edits if e.object_url != move.old_url]
        objects = sorted(
            {**{e.object_url: e.name for e in edits}, move.old_url: move.old_name}.items()
        )
        renaming = self._renaming
        async with renaming.locked(objects) as handles:
            await renaming.verify(edits)
            renaming.require_transport(
                [o for o in objects if o[0] != move.old_url], transport, "rename"
            )
            metadata, texts = await self._old_texts(move, own)
            created = await self._create(move, metadata, transport)
            try:
                moved = await self._fill(move, texts, created)
                written = await renaming.write(
                    users,
                    transport,
                    handles,
                    then=lambda: self._delete_old(move, handles[move.old_url], transport),
                )
            except BaseException:
                await self._drop_new(move, transport)
                raise
        if not activate:
            return RenameOutcome((*moved, *written), None)
        activation, failure = await renaming.activate(activated_objects(move, edits))
        return RenameOutcome((*moved, *written), activation, failure)

    async def _old_texts(
        self, move: ObjectMove, own: dict[str, SourceEdit]
    ) -> tuple[ObjectMetadata, dict[str, tuple[str, int]]]:
        """The old object's metadata and the text of each of its sources, renamed where the
        plan changes it (read under the lock, so no one changes them meanwhile)."""
        try:
            metadata = await self._source.client.object_metadata(move.old_url)
        except Exception as exc:
            raise as_source_error(exc) from exc
        urls = [i.source_url for i in metadata.includes] or [metadata.source_url or ""]
        texts: dict[str, tuple[str, int]] = {}
        for url in filter(None, urls):
            edit = own.get(url)
            if edit is None:
                read = await self._source.get_source_v2(object_source_url=url, fresh=True)
                texts[url] = (read.content, 0)
            else:
                texts[url] = (edit.text, edit.places)
        return metadata, texts

    async def _create(
        self, move: ObjectMove, metadata: ObjectMetadata, transport: str | None
    ) -> str:
        """Create the new object beside the old one; answers its request ("" for none)."""
        tests = any(i.include_type == "testclasses" for i in metadata.includes)
        new = NewObject(
            KINDS[move.type],
            move.new_name,
            metadata.description or move.new_name,
            package=metadata.package,
            transport=transport,
            test_classes=tests,
        )
        try:
            created = await self._objects.create(new)
        except NameRefused as exc:
            raise NameRefused(f"nothing was renamed: {exc.message}", name=move.new_name) from exc
        return created.transport

    async def _fill(
        self, move: ObjectMove, texts: dict[str, tuple[str, int]], request: str
    ) -> list[WrittenSource]:
        """Write every part of the old object into the new one, under a lock of our own."""
        client = self._source.client
        info = await self._source.locks.lock(move.new_url, owner=RENAME_OWNER)
        try:
            for old_url, (text, _) in texts.items():
                await client.write_source(
                    move.new_source_url(old_url),
                    text,
                    lock_handle=info.lock_handle,
                    corr_nr=request or None,
                )
        except Exception as exc:
            raise as_source_error(exc) from exc
        finally:
            await self._source.locks.unlock(move.new_url, owner=RENAME_OWNER)
        self._source.forget_object(move.new_url)
        written = []
        for old_url, (_, places) in texts.items():
            url = move.new_source_url(old_url)
            read = await self._source.get_source_v2(object_source_url=url, fresh=True)
            written.append(WrittenSource(url, move.new_url, move.new_name, read.token, places))
        return written

    async def _delete_old(self, move: ObjectMove, handle: str, transport: str | None) -> None:
        """Delete the old object with the lock the rename holds (the lock ends with it)."""
        try:
            await self._source.client.objects.delete(
                move.old_url, transport=transport, lock_handle=handle
            )
        except Exception as exc:
            raise as_source_error(exc) from exc
        self._source.locks.forget(move.old_url, handle)
        self._source.forget_object(move.old_url)

    async def _drop_new(self, move: ObjectMove, transport: str | None) -> None:
        """Undo the creation after a failure; its own failure is not the one reported."""
        try:
            await self._objects.delete(move.new_url, transport=transport)
        except SourceError:
            return
