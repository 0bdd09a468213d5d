"""Object-level operations beside the source: structure, who changed it, syntax check,
activation and search by name."""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from typing import Any

from adt.client import AdtClient
from adt.models import Message, ObjectMetadata
from adt.source.cache import SourceCache
from adt.source.errors import ObjectLocked, as_source_error
from adt.source.locks import LockTable
from adt.source.metadata import MetadataCache, changed_by, has_inactive
from adt.source.results import (
    ActivationOutcome,
    CheckOutcome,
    Finding,
    IncludeInfo,
    LastChange,
    ObjectStructure,
    SearchHit,
)
from adt.source.targets import resolve
from adt.urls import SourceRef, source_ref


class ObjectOperations:
    """What one system tells about its objects."""

    def __init__(
        self,
        client: AdtClient,
        *,
        system: str,
        cache: SourceCache,
        metadata: MetadataCache,
        locks: LockTable,
    ) -> None:
        self._client = client
        self._system = system
        self._cache = cache
        self._metadata = metadata
        self._locks = locks

    async def last_change(self, object_url: str, include_type: str | None = None) -> LastChange:
        """Who changed the object (or class include) last, and whether it has an inactive
        version: one fresh metadata request. Never fails: what is not known stays ``None``."""
        target = resolve(self._system, object_url, None, include_type)
        try:
            meta = await self._metadata.get(target.ref.object_url, fresh=True)
        except Exception:
            return LastChange()
        include = target.ref.include
        return LastChange(changed_by(meta, include), has_inactive(meta, include))

    async def draft(
        self, object_url: str, include_type: str | None, changed_at_ms: int
    ) -> dict[str, Any] | None:
        """``{version, changedBy, changedAt}`` when the source has an inactive version (saved,
        not activated), else ``None``. Cached metadata serves while it is as new as the read
        (``changed_at_ms``); otherwise one metadata request. Never fails."""
        target = resolve(self._system, object_url, None, include_type)
        url, include = target.ref.object_url, target.ref.include
        try:
            meta = self._metadata.peek(url)
            if meta is None or _stamp(meta, include) // 1000 < changed_at_ms // 1000:
                meta = await self._metadata.get(url, fresh=True)
        except Exception:
            return None
        if not has_inactive(meta, include):
            return None
        return {
            "version": "inactive",
            "changedBy": changed_by(meta, include),
            "changedAt": _stamp(meta, include) or None,
        }

    async def last_changed_by(self, object_url: str, include_type: str | None = None) -> str | None:
        """Who changed the object (or class include) last: one fresh metadata request."""
        return (await self.last_change(object_url, include_type)).changed_by

    async def object_identity(self, object_url: str) -> tuple[str, str]:
        """(name, package) of an object; from the metadata cache when fresh."""
        meta = await self._meta(object_url, fresh=False)
        return meta.name, meta.package

    async def object_structure(self, object_url: str) -> ObjectStructure:
        """Name, type, package, stamps and the includes (each with its source URL)."""
        url = resolve(self._system, object_url).ref.object_url
        meta = await self._meta(url, fresh=True)
        return ObjectStructure(
            object_url=url,
            name=meta.name,
            type=meta.type,
            description=meta.description,
            package=meta.package,
            changed_at=meta.changed_at.ms if meta.changed_at else None,
            changed_by=meta.changed_by,
            version=meta.version,
            source_url=meta.source_url,
            includes=tuple(
                IncludeInfo(
                    include_type=inc.include_type,
                    source_url=inc.source_url,
                    changed_at=inc.changed_at.ms if inc.changed_at else None,
                    changed_by=inc.changed_by,
                    version=inc.version,
                )
                for inc in meta.includes
            ),
        )

    async def _meta(self, object_url: str, *, fresh: bool) -> ObjectMetadata:
        url = resolve(self._system, object_url).ref.object_url
        try:
            return await self._metadata.get(url, fresh=fresh)
        except Exception as exc:
            raise as_source_error(exc) from exc

    async def check(
        self,
        object_url: str,
        *,
        include_type: str | None = None,
        text: str | None = None,
    ) -> CheckOutcome:
        """The ADT syntax check of the stored source, or of unsaved ``text`` for one include."""
        target = resolve(self._system, object_url, None, include_type)
        try:
            result = await self._client.check_syntax(
                target.ref.object_url,
                source_url=target.ref.source_url if text is not None else None,
                text=text,
            )
        except Exception as exc:
            raise as_source_error(exc) from exc
        return CheckOutcome(target.ref.object_url, findings(result.messages, target.ref))

    async def activate(self, object_url: str, together: Sequence[str] = ()) -> ActivationOutcome:
        """Activate an object (with ``together``: the inactive objects it builds on, which
        the system activates in dependency order in the same run). Locks held through this
        server are reported, not stolen: SAP refuses activation while any session holds the
        lock."""
        target = resolve(self._system, object_url)
        others = [resolve(self._system, url).ref.object_url for url in together]
        held = self._locks.find(target.ref.object_url)
        if held is not None:
            raise ObjectLocked(
                f"{target.ref.object_url} is still locked by {held[0]!r} through this server; "
                "unlock (or save and close) before activating",
                lockedBy=held[0],
            )
        try:
            result = await self._client.activate([target.ref.object_url, *others])
        except Exception as exc:
            raise as_source_error(exc) from exc
        for url in (target.ref.object_url, *others):
            self._cache.invalidate_object(self._system, url)
        return ActivationOutcome(
            object_url=target.ref.object_url,
            success=result.success,
            executed=result.executed,
            findings=findings(result.messages, target.ref),
            inactive_objects=tuple(ref.uri for ref in result.inactive_objects),
        )

    async def search(
        self, query: str, *, max_results: int = 50, object_type: str | None = None
    ) -> list[SearchHit]:
        try:
            refs = await self._client.quick_search(
                query, max_results=max_results, object_type=object_type
            )
        except Exception as exc:
            raise as_source_error(exc) from exc
        return [
            SearchHit(ref.uri, ref.type, ref.name, ref.package, ref.description) for ref in refs
        ]


def findings(messages: Iterable[Message], fallback: SourceRef) -> tuple[Finding, ...]:
    """ADT messages as findings; one without a parsable location belongs to ``fallback``."""
    return tuple(_finding(message, fallback) for message in messages)


def _finding(message: Message, fallback: SourceRef) -> Finding:
    ref = fallback
    if message.uri:
        with contextlib.suppress(ValueError):
            ref = source_ref(message.uri)
    return Finding(
        severity=message.severity,
        text=message.text,
        object_url=ref.object_url,
        include_type=ref.include,
        line=message.line,
        column=message.column,
        end_line=message.end_line,
        end_column=message.end_column,
        code=message.code,
    )


def _stamp(meta: ObjectMetadata, include: str) -> int:
    """The change stamp (ms) of the object or class include; 0 when the system names none."""
    part = meta.include(include) if meta.is_class else None
    stamp = part.changed_at if part is not None else meta.changed_at
    return stamp.ms if stamp is not None else 0
