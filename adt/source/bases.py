"""The text a token named, for rebasing a write made against it: kept by the cache for the
tokens this server handed out; otherwise one of the versions ADT lists (the versions feed,
saved at activation) may be it, recognised by the token's change stamp and content hash."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from adt.client import AdtClient
from adt.source.cache import SourceCache
from adt.source.shared import SharedTexts, text_key
from adt.source.targets import Target
from adt.source.token import content_hash, token_changed_at, token_hash
from adt.text import TextLines

log = logging.getLogger("adt.source")

MAX_VERSION_READS = 2
"""Versions read at most to find a token's text (each is one request, under the lock)."""


class BaseTexts:
    """Finds the text of a token: the cache first, then the replicas' shared store (when one
    is configured), then ADT's versions of the source."""

    def __init__(
        self, client: AdtClient, cache: SourceCache, shared: SharedTexts | None = None
    ) -> None:
        self._client = client
        self._cache = cache
        self._shared = shared

    async def keep(self, target: Target, token: str, text: str) -> None:
        """Share a token just handed out with the other replicas (no-op without a store)."""
        if self._shared is not None:
            key = target.key
            await self._shared.put(text_key(key.system, key.object_url, key.include, token), text)

    async def lines(self, target: Target, token: str) -> Sequence[str] | None:
        """The lines ``token`` named, or ``None`` when no source knows them."""
        known = self._cache.base_lines(target.key, token)
        if known is not None:
            return known
        if self._shared is not None:
            key = target.key
            text = await self._shared.get(text_key(key.system, key.object_url, key.include, token))
            if text is not None:
                return TextLines(text)
        try:
            return await self._from_versions(target, token)
        except Exception as exc:  # a kind without versions, a feed we cannot read: unknown
            log.info("no version of %s matches token %s: %s", target.ref.source_url, token, exc)
            return None

    async def _from_versions(self, target: Target, token: str) -> TextLines | None:
        stamp, wanted = token_changed_at(token), token_hash(token)
        if not stamp or wanted in (None, "empty"):
            return None
        revisions = await self._client.history.revisions(target.ref.source_url)
        # Last-Modified has whole seconds: a version saved within that second may be it.
        near = [r for r in revisions if r.date is not None and abs(r.date.ms - stamp) < 1000]
        for revision in near[:MAX_VERSION_READS]:
            text = (await self._client.history.read_revision(revision)).text
            if content_hash(text) == wanted:
                return TextLines(text)
        return None


__all__ = ["BaseTexts"]
