"""What every area needs from the client: one way to send a request on either session, and
the few client operations an area builds on. Areas see the client through the
:class:`AreaClient` protocol, so ``adt.areas`` does not import ``adt.client`` (which
composes the areas): the import graph has no circle."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import httpx

from adt.models import LockResult, ObjectMetadata, SourceText
from adt.profile import ConnectionProfile


class AreaClient(Protocol):
    """The part of :class:`adt.client.AdtClient` the areas use."""

    profile: ConnectionProfile

    async def send(
        self,
        method: str,
        path: str,
        *,
        stateful: bool = False,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        content: bytes | None = None,
        idempotent: bool = False,
    ) -> httpx.Response: ...

    async def object_metadata(
        self, object_url: str, *, version: str | None = None
    ) -> ObjectMetadata: ...

    async def read_source(
        self, source_url: str, *, version: str | None = None, stateful: bool = False
    ) -> SourceText: ...

    async def lock(self, object_url: str, *, access_mode: str = "MODIFY") -> LockResult: ...

    async def unlock(self, object_url: str, lock_handle: str) -> None: ...

    def forget_lock(self, object_url: str) -> None:
        """The server consumed the lock (a delete): stop tracking it."""
        ...


class Area:
    """An ADT area over one client. ``stateful`` requests go through the session that holds
    the client's locks (a delete, a write in a lock window); everything else is stateless."""

    def __init__(self, client: AreaClient) -> None:
        self._client = client

    async def _send(
        self,
        method: str,
        path: str,
        *,
        stateful: bool = False,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        content: bytes | None = None,
        idempotent: bool = False,
    ) -> httpx.Response:
        return await self._client.send(
            method,
            path,
            stateful=stateful,
            params=params,
            headers=headers,
            content=content,
            idempotent=idempotent,
        )
