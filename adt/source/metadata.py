"""Object metadata for the source operations: a short-lived cache, and who changed what."""

from __future__ import annotations

from cachetools import TTLCache

from adt.client import AdtClient
from adt.models import ObjectMetadata, SourceText
from adt.source.targets import Target


class MetadataCache:
    """Metadata per object URL, fresh for the cache TTL; ``fresh=True`` always asks."""

    def __init__(self, client: AdtClient, *, size: int, ttl_ms: int) -> None:
        self._client = client
        self._entries: TTLCache[str, ObjectMetadata] = TTLCache(maxsize=size, ttl=ttl_ms / 1000)

    async def get(self, object_url: str, *, fresh: bool = False) -> ObjectMetadata:
        if not fresh and object_url in self._entries:
            return self._entries[object_url]
        meta = await self._client.object_metadata(object_url)
        self._entries[object_url] = meta
        return meta

    def forget(self, object_url: str) -> None:
        self._entries.pop(object_url, None)

    def peek(self, object_url: str) -> ObjectMetadata | None:
        """The cached metadata, without a request."""
        return self._entries.get(object_url)

    async def changed_at(self, target: Target, source: SourceText) -> int:
        """The source's change stamp (ms): ``Last-Modified``, else (some systems send a
        malformed one) the metadata's stamp of the object or class include."""
        if source.last_modified is not None:
            return source.last_modified.ms
        meta = await self.get(target.ref.object_url, fresh=True)
        include = meta.include(target.ref.include) if meta.is_class else None
        stamp = include.changed_at if include else meta.changed_at
        return stamp.ms if stamp else 0


def has_inactive(meta: ObjectMetadata, include: str) -> bool | None:
    """Whether the object (or class include) has an inactive version, from its
    ``adtcore:version``; ``None`` when the system names neither."""
    part = meta.include(include) if meta.is_class else None
    version = part.version if part is not None and part.version else meta.version
    return {"inactive": True, "active": False}.get(version.lower())


def changed_by(
    meta: ObjectMetadata | None, include: str, changed_at_ms: int | None = None
) -> str | None:
    """Who changed the source last, from metadata; with ``changed_at_ms``, only if the
    metadata describes that very change (to the second: Last-Modified has no milliseconds),
    so older cached metadata never names the wrong person."""
    if meta is None:
        return None
    part = meta.include(include) if meta.is_class else None
    stamp = part.changed_at if part else meta.changed_at
    if changed_at_ms is not None and (stamp is None or stamp.ms // 1000 != changed_at_ms // 1000):
        return None
    return (part.changed_by if part else meta.changed_by) or None
