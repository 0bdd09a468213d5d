"""Reads: a line range with the token of the whole source, server-side grep, V1 whole reads.

A cold read costs one ADT request (changedAt comes from ``Last-Modified``); a read within the
cache's freshness costs none.
"""

from __future__ import annotations

import asyncio

from adt.client import AdtClient
from adt.errors import NotFoundError
from adt.source.bases import BaseTexts
from adt.source.cache import CacheEntry, SourceCache
from adt.source.config import SourceConfig
from adt.source.errors import IncludeNotFound, InvalidArgument, as_source_error
from adt.source.lines import slice_lines
from adt.source.metadata import MetadataCache, changed_by
from adt.source.results import GrepOutcome, SourceRead
from adt.source.symbols import locate
from adt.source.targets import Target, resolve
from adt.source.token import make_token
from adt.urls import object_type_for

GREP_WORKERS = 4  # searches of one system that may run at once (each in its own thread)


class SourceReads:
    """Cached reads of one system's sources."""

    def __init__(
        self,
        client: AdtClient,
        *,
        system: str,
        config: SourceConfig,
        cache: SourceCache,
        metadata: MetadataCache,
        bases: BaseTexts | None = None,
    ) -> None:
        self._client = client
        self._bases = bases
        self._system = system
        self._config = config
        self._cache = cache
        self._metadata = metadata
        self._grep_slots = asyncio.Semaphore(GREP_WORKERS)

    async def fetch(self, target: Target, *, stateful: bool = False) -> CacheEntry:
        """One GET of the source; changedAt from Last-Modified. Fills the cache."""
        try:
            source = await self._client.read_source(
                target.ref.source_url, version=target.version, stateful=stateful
            )
        except NotFoundError as exc:
            raise await self._not_found(target, exc) from exc
        except Exception as exc:
            raise as_source_error(exc) from exc
        changed_at = await self._metadata.changed_at(target, source)
        entry = self._cache.put(
            target.key,
            text=source.text,
            token=make_token(changed_at, source.text),
            changed_at_ms=changed_at,
            etag=source.etag,
        )
        if self._bases is not None:
            await self._bases.keep(target, entry.token, source.text)
        return entry

    async def _not_found(self, target: Target, exc: NotFoundError) -> Exception:
        if target.ref.is_class and target.ref.include != "main":
            try:
                meta = await self._metadata.get(target.ref.object_url, fresh=True)
            except NotFoundError:
                return as_source_error(exc)
            return IncludeNotFound(
                f"class {meta.name} has no {target.ref.include} include; available: "
                f"{', '.join(meta.include_types)}",
                includeType=target.ref.include,
                available=list(meta.include_types),
            )
        return as_source_error(exc)

    async def entry(
        self, target: Target, *, fresh: bool = False, stateful: bool = False
    ) -> tuple[CacheEntry, bool]:
        """The source of ``target`` and whether it came from the cache."""
        if not fresh and not stateful:
            cached = self._cache.get(target.key)
            if cached is not None:
                return cached, True
        return await self.fetch(target, stateful=stateful), False

    async def get_source_v2(
        self,
        object_url: str | None = None,
        *,
        object_source_url: str | None = None,
        include_type: str | None = None,
        start_line: int | None = None,
        end_line: int | None = None,
        version: str | None = None,
        symbol: str | None = None,
        fresh: bool = False,
        stateful: bool = False,
        max_chars: int | None = None,
    ) -> SourceRead:
        """Read lines ``start..end`` (1-based, inclusive), or the named part ``symbol`` (a
        method, a section, a form...), with the token of the whole source.

        ``fresh`` skips the cache. ``stateful`` reads fresh through the session that holds our
        locks (keeping its context alive, and noticing when it has died).
        ``max_chars`` cuts the range at a line boundary; the result then says
        ``truncated`` and where to continue (``next_start_line``).
        """
        if symbol is not None and (start_line is not None or end_line is not None):
            raise InvalidArgument("pass either symbol or startLine/endLine, not both")
        target = resolve(self._system, object_url, object_source_url, include_type, version)
        entry, cached = await self.entry(target, fresh=fresh, stateful=stateful)
        part = locate(entry.text, symbol) if symbol is not None else None
        if part is not None:
            start_line, end_line = part.start_line, part.end_line
        piece = slice_lines(entry.lines, start_line, end_line)
        notes = list(target.notes) + ([piece.note] if piece.note else [])
        content, last, truncated, next_start = piece.content, piece.end_line, False, None
        if max_chars is not None and len(content) > max_chars:
            kept = cut_lines(content, max_chars)
            last = piece.start_line + len(kept) - 1
            content = "\n".join(kept)
            truncated, next_start = True, last + 1
            notes.append(
                f"response cut at {max_chars} characters after line {last}; call again with "
                f"startLine={next_start} for the rest"
            )
        meta = self._metadata.peek(target.ref.object_url)
        whole = not truncated and piece.start_line == 1 and last == entry.line_count
        return SourceRead(
            content=content,
            token=entry.token,
            line_count=entry.line_count,
            start_line=piece.start_line,
            end_line=last,
            requested_start_line=start_line,
            requested_end_line=end_line,
            changed_at=entry.changed_at_ms,
            changed_by=changed_by(meta, target.ref.include, entry.changed_at_ms),
            object_type=object_type_for(target.ref.object_url),
            include_type=target.include_type,
            expires_at=entry.expires_at_ms,
            object_url=target.ref.object_url,
            source_url=target.ref.source_url,
            version=version,
            cached=cached,
            truncated=truncated,
            next_start_line=next_start,
            notes=tuple(notes),
            symbol=part.to_dict() if part is not None else None,
            lines=entry.lines if whole else (),
        )

    async def grep(
        self,
        object_url: str | None = None,
        *,
        pattern: str,
        object_source_url: str | None = None,
        include_type: str | None = None,
        case_insensitive: bool = False,
        context_lines: int = 0,
        max_matches: int | None = None,
        start_line: int | None = None,
        end_line: int | None = None,
        version: str | None = None,
    ) -> GrepOutcome:
        """Search a source on the server side; only matching lines (and context) travel."""
        from adt.source import grep as grep_module  # the regex engine: with the first grep

        target = resolve(self._system, object_url, object_source_url, include_type, version)
        limit = self._config.max_matches if max_matches is None else max_matches
        grep_module.compile_pattern(  # validated before any request is made
            pattern,
            case_insensitive=case_insensitive,
            max_length=self._config.max_pattern_length,
        )
        entry, _ = await self.entry(target)
        lines = entry.lines
        async with self._grep_slots:  # the regex engine runs off the event loop
            result = await asyncio.to_thread(
                grep_module.grep_lines,
                lines,
                pattern,
                case_insensitive=case_insensitive,
                context_lines=context_lines,
                max_matches=limit,
                start_line=start_line or 1,
                end_line=end_line,
                timeout_s=self._config.grep_timeout_s,
                max_pattern_length=self._config.max_pattern_length,
                max_context_lines=self._config.max_context_lines,
            )
        notes = list(target.notes)
        if result.truncated:
            notes.append(
                f"more than {limit} matches; call again with startLine={result.next_start_line} "
                "to continue, or narrow the pattern"
            )
        return GrepOutcome(
            matches=result.matches,
            line_count=len(lines),
            truncated=result.truncated,
            pattern=pattern,
            token=entry.token,
            include_type=target.include_type,
            object_url=target.ref.object_url,
            next_start_line=result.next_start_line,
            notes=tuple(notes),
        )

    async def get_source(self, object_source_url: str, *, version: str | None = None) -> str:
        """V1: the whole source, always fetched from the server."""
        target = resolve(self._system, None, object_source_url, None, version)
        entry, _ = await self.entry(target, fresh=True)
        return entry.text


def cut_lines(content: str, max_chars: int) -> list[str]:
    """The leading lines of ``content`` that fit ``max_chars`` (at least one)."""
    kept: list[str] = []
    used = 0
    for line in content.split("\n"):
        cost = len(line) + (1 if kept else 0)
        if kept and used + cost > max_chars:
            break
        kept.append(line)
        used += cost
    return kept
