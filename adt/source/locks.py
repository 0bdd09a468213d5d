"""Locks taken through the source operations, each with an owner, and how they are released.

An owner is whoever must release the lock again: an agent's connection, an editor's object,
``default``. Every lock is tracked here until it is released, so closing a connection (or
the service) releases what it took.
"""

from __future__ import annotations

import logging
from collections import defaultdict

from adt.client import AdtClient
from adt.errors import LockConflictError
from adt.source.errors import InvalidArgument, ObjectLocked, as_source_error
from adt.source.results import LockInfo

log = logging.getLogger("adt.source")

DEFAULT_OWNER = "default"


class LockTable:
    """The locks this service holds, by owner and object URL."""

    def __init__(self, client: AdtClient) -> None:
        self._client = client
        self._owned: defaultdict[str, dict[str, LockInfo]] = defaultdict(dict)

    async def lock(self, object_url: str, *, owner: str = DEFAULT_OWNER) -> LockInfo:
        """Lock an object for ``owner``; a lock the owner holds already is returned again."""
        held = self.find(object_url)
        if held is not None:
            if held[0] == owner:
                return held[1]
            raise ObjectLocked(
                f"{object_url} is already locked by {held[0]!r} through this server",
                lockedBy=held[0],
            )
        try:
            result = await self._client.lock(object_url)
        except Exception as exc:
            raise as_source_error(exc) from exc
        info = LockInfo(
            object_url=object_url,
            lock_handle=result.handle,
            transport=result.corrnr,
            is_local=result.is_local,
            transport_owner=result.corruser,
            transport_text=result.corrtext,
            modification_support=result.modification_support,
        )
        self._owned[owner][object_url] = info
        return info

    async def unlock(
        self, object_url: str, lock_handle: str | None = None, *, owner: str = DEFAULT_OWNER
    ) -> bool:
        """Release a lock. Returns whether this service knew the lock."""
        held = self._owned.get(owner, {}).get(object_url)
        handle = lock_handle or (held.lock_handle if held else None)
        if handle is None:
            raise InvalidArgument(
                f"no lock on {object_url} is known for {owner!r}; pass lockHandle"
            )
        issued_here = held is not None or self.find(object_url, handle) is not None
        await self.release(object_url, handle)
        if not issued_here:
            await self._confirm_released(object_url, handle)
        return held is not None

    async def _confirm_released(self, object_url: str, handle: str) -> None:
        """SAP answers every unlock with 200, also one that released nothing (a handle of
        another user's or another replica's session). For a handle this service did not
        issue, find out: lock the object ourselves and let go at once; a lock still held by
        someone else is a refusal, not "released"."""
        try:
            probe = await self._client.lock(object_url)
        except LockConflictError as exc:
            raise ObjectLocked(
                f"{object_url} is still locked by {exc.holder or 'another user'}: the "
                "lockHandle was not issued in this session, and only the session that took a "
                "lock can release it; nothing was released",
                lockedBy=exc.holder,
                lockHandle=handle,
            ) from exc
        except Exception as exc:
            raise as_source_error(exc) from exc
        await self.release(object_url, probe.handle)

    async def release_owner(self, owner: str) -> None:
        """Release every lock ``owner`` holds (on close, disconnect, shutdown)."""
        for url, info in list(self._owned.get(owner, {}).items()):
            await self.release(url, info.lock_handle)
        self._owned.pop(owner, None)

    async def release_all(self) -> None:
        for owner in list(self._owned):
            await self.release_owner(owner)

    def of(self, owner: str) -> dict[str, LockInfo]:
        return dict(self._owned.get(owner, {}))

    def urls(self) -> set[str]:
        """The objects locked through this service, whoever owns the lock."""
        return {url for locks in self._owned.values() for url in locks}

    def find(self, object_url: str, handle: str | None = None) -> tuple[str, LockInfo] | None:
        """(owner, lock) of a tracked lock on the object (with that handle, if given)."""
        for owner, locks in self._owned.items():
            info = locks.get(object_url)
            if info is not None and (handle is None or info.lock_handle == handle):
                return owner, info
        return None

    def forget(self, object_url: str, handle: str) -> None:
        """Stop tracking a lock that is gone with its session."""
        for locks in self._owned.values():
            if (info := locks.get(object_url)) is not None and info.lock_handle == handle:
                del locks[object_url]

    async def release(self, object_url: str, handle: str) -> None:
        self.forget(object_url, handle)
        try:
            await self._client.unlock(object_url, handle)
        except Exception as exc:  # the lock may already be gone with its session
            log.warning("unlock of %s failed: %s", object_url, exc)
