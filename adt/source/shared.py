"""Token texts shared between replicas of a bridge (team mode): a write made against a token
another process handed out can then be rebased there too. Redis is the store (the optional
``redis`` package); a store that is down or slow never fails a read or a write — the text is
then unknown and a write over a change is refused as before."""

from __future__ import annotations

import logging
from typing import Any, Protocol

log = logging.getLogger("adt.source")

PREFIX = "abap-adt:token-text:"


class SharedTexts(Protocol):
    """Where the texts of handed-out tokens are kept for other processes."""

    async def get(self, key: str) -> str | None: ...

    async def put(self, key: str, text: str) -> None: ...

    async def close(self) -> None: ...


class RedisTexts:
    """Token texts in Redis, each for the cache's TTL (``SET ... PX``). Every call has a
    one-second budget; failures are logged and answered as "not known"."""

    def __init__(self, url: str, *, ttl_ms: int) -> None:
        try:
            import redis.asyncio as redis
        except ImportError as exc:  # pragma: no cover - depends on the installation
            raise RuntimeError(
                "a shared store needs the redis package: pip install 'abap-adt[team]'"
            ) from exc
        self._ttl_ms = max(1, ttl_ms)
        self._redis: Any = redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)

    async def get(self, key: str) -> str | None:
        try:
            value = await self._redis.get(PREFIX + key)
        except Exception as exc:
            log.warning("shared store: cannot read a token text: %s", exc)
            return None
        return value.decode("utf-8") if isinstance(value, bytes) else None

    async def put(self, key: str, text: str) -> None:
        try:
            await self._redis.set(PREFIX + key, text.encode("utf-8"), px=self._ttl_ms)
        except Exception as exc:
            log.warning("shared store: cannot keep a token text: %s", exc)

    async def close(self) -> None:
        await self._redis.aclose()


def text_key(system: str, object_url: str, include: str, token: str) -> str:
    """The key of a token's text (any version it was read as)."""
    return f"{system}|{object_url}|{include}|{token}"


__all__ = ["PREFIX", "RedisTexts", "SharedTexts", "text_key"]
