"""What every area needs from the client: one way to send a request on either session."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import httpx

if TYPE_CHECKING:
    from adt.client import AdtClient


class Area:
    """An ADT area over one client. ``stateful`` requests go through the session that holds
    the client's locks (a delete, a write in a lock window); everything else is stateless."""

    def __init__(self, client: AdtClient) -> None:
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
    ) -> httpx.Response:
        return await self._client.send(
            method, path, stateful=stateful, params=params, headers=headers, content=content
        )
