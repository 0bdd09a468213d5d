"""The V2 source operations over one ADT client: a thin front over one module per concern.

:mod:`~adt.source.reads` (range reads, grep), :mod:`~adt.source.writes` (checked patches),
:mod:`~adt.source.locks` (owned locks) and :mod:`~adt.source.objects` (structure, check,
activation, search) share one cache, one metadata cache and one lock table. The language
server and the MCP bridge both call this one implementation.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from adt.client import AdtClient
from adt.source.bases import BaseTexts
from adt.source.cache import SourceCache
from adt.source.config import SourceConfig
from adt.source.locks import DEFAULT_OWNER, LockTable
from adt.source.metadata import MetadataCache
from adt.source.objects import ObjectOperations
from adt.source.reads import SourceReads
from adt.source.results import LockInfo
from adt.source.shared import RedisTexts
from adt.source.targets import Target, resolve
from adt.source.token import content_hash, token_hash
from adt.source.writes import SourceWrites

__all__ = ["DEFAULT_OWNER", "SourceService", "Target"]


class SourceService:
    """Source operations for one system, through one :class:`AdtClient`."""

    def __init__(
        self,
        client: AdtClient,
        *,
        system: str = "",
        config: SourceConfig | None = None,
        cache: SourceCache | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.client = client
        self.system = system or client.profile.system_id
        self.config = config or SourceConfig()
        self.cache = cache or SourceCache(
            ttl_ms=self.config.cache_ttl_ms, max_size=self.config.cache_size
        )
        self.metadata = MetadataCache(
            client, size=self.config.cache_size, ttl_ms=self.config.cache_ttl_ms
        )
        self.locks = LockTable(client)
        self.shared = (
            RedisTexts(self.config.shared_store, ttl_ms=self.config.cache_ttl_ms)
            if self.config.shared_store
            else None
        )
        bases = BaseTexts(client, self.cache, self.shared)
        self.reads = SourceReads(
            client,
            system=self.system,
            config=self.config,
            cache=self.cache,
            metadata=self.metadata,
            bases=bases,
        )
        self.writes = SourceWrites(
            client,
            system=self.system,
            config=self.config,
            cache=self.cache,
            metadata=self.metadata,
            locks=self.locks,
            sleep=sleep,
            bases=bases,
        )
        self.objects = ObjectOperations(
            client, system=self.system, cache=self.cache, metadata=self.metadata, locks=self.locks
        )
        self._cleanup_task: asyncio.Task[None] | None = None
        # The operations, by concern:
        self.get_source_v2 = self.reads.get_source_v2
        self.grep = self.reads.grep
        self.get_source = self.reads.get_source
        self.set_source_v2 = self.writes.set_source_v2
        self.replace_in_source = self.writes.replace_in_source
        self.set_source = self.writes.set_source
        self.release_owner = self.locks.release_owner
        self.last_changed_by = self.objects.last_changed_by
        self.last_change = self.objects.last_change
        self.object_identity = self.objects.object_identity
        self.object_structure = self.objects.object_structure
        self.check = self.objects.check
        self.activate = self.objects.activate
        self.search = self.objects.search

    def resolve(
        self,
        object_url: str | None = None,
        object_source_url: str | None = None,
        include_type: str | None = None,
        version: str | None = None,
    ) -> Target:
        """Which source unit a call means (see :func:`adt.source.targets.resolve`)."""
        return resolve(self.system, object_url, object_source_url, include_type, version)

    async def lock(self, object_url: str, *, owner: str = DEFAULT_OWNER) -> LockInfo:
        """Lock an object for ``owner``; the lock is tracked and released on close."""
        url = self.resolve(object_url).ref.object_url
        return await self.locks.lock(url, owner=owner)

    async def unlock(
        self, object_url: str, lock_handle: str | None = None, *, owner: str = DEFAULT_OWNER
    ) -> bool:
        """Release a lock. Returns whether this service knew the lock."""
        url = self.resolve(object_url).ref.object_url
        return await self.locks.unlock(url, lock_handle, owner=owner)

    def keep_base(self, object_url: str, include_type: str | None, token: str, text: str) -> bool:
        """An editor's base: the text it says ``token`` names, kept for rebasing its next
        save when the token's content hash matches it (else ignored). Returns whether kept."""
        if token_hash(token) != content_hash(text):
            return False
        self.cache.keep_base(self.resolve(object_url, include_type=include_type).key, token, text)
        return True

    def forget_object(self, object_url: str) -> None:
        """Drop what is cached of an object (it was created, deleted or changed elsewhere)."""
        self.cache.invalidate_object(self.system, object_url)
        self.metadata.forget(object_url)

    def locks_of(self, owner: str) -> dict[str, LockInfo]:
        return self.locks.of(owner)

    # --- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Start the periodic cache cleanup (every ``cleanup_interval_ms``); needs a running
        event loop. :class:`~adt.systems.Connections` starts it for the services it makes."""
        if self._cleanup_task is None:
            self._cleanup_task = asyncio.get_running_loop().create_task(self._cleanup_loop())

    async def _cleanup_loop(self) -> None:
        while True:
            await asyncio.sleep(self.config.cleanup_interval_ms / 1000)
            self.cache.cleanup()

    async def close(self) -> None:
        """Release every lock taken through this service; stop the cleanup."""
        if self._cleanup_task is not None:
            self._cleanup_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._cleanup_task
            self._cleanup_task = None
        await self.locks.release_all()
        if self.shared is not None:
            await self.shared.close()
