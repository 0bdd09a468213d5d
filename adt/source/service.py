"""The V2 source operations: range reads, grep and token-checked patches over one ADT client.

The language server and the MCP bridge both call this one implementation.

Reads: a cold read costs one ADT request (changedAt comes from ``Last-Modified``); a read
within the cache's freshness costs none. Writes never trust the cache: they lock (or use the
caller's lock), re-read the source in the lock window, compare its token with the caller's,
apply, PUT, read back for the new token and unlock in ``finally``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from cachetools import TTLCache

from adt.client import AdtClient
from adt.errors import AdtTransportError, LineTooLongError, NotFoundError, SessionDeadError
from adt.models import Message, ObjectMetadata, SourceText
from adt.source import grep as grep_module
from adt.source.cache import CacheEntry, CacheKey, SourceCache
from adt.source.config import SourceConfig
from adt.source.errors import (
    CacheExpired,
    IncludeNotFound,
    InvalidArgument,
    LockRequired,
    NetworkError,
    ObjectLocked,
    SessionExpired,
    TokenInvalid,
    TokenMismatch,
    VersionConflict,
    as_source_error,
)
from adt.source.lines import (
    Patch,
    apply_patches,
    check_replacement,
    ordered_without_overlap,
    read_range,
    replace_unique,
)
from adt.source.results import (
    ActivationOutcome,
    CheckOutcome,
    Finding,
    GrepOutcome,
    LockInfo,
    SourceRead,
    WriteOutcome,
)
from adt.source.token import is_valid_token, make_token, same_content, token_changed_at
from adt.text import check_line_lengths, split_lines, to_canonical
from adt.urls import CLASS_INCLUDE_TYPES, SourceRef, object_type_for, source_ref

log = logging.getLogger("adt.source")
T = TypeVar("T")

DEFAULT_OWNER = "default"


@dataclass(frozen=True)
class Target:
    """A resolved source unit plus what the caller asked for."""

    ref: SourceRef
    key: CacheKey
    version: str | None
    notes: tuple[str, ...] = ()

    @property
    def include_type(self) -> str | None:
        return self.ref.include if self.ref.is_class else None


@dataclass(frozen=True)
class _Current:
    text: str
    token: str
    changed_at: int
    etag: str


@dataclass(frozen=True)
class _Attempt:
    """A PUT we sent: if its answer is lost, a retry finds ``text`` already stored."""

    base: _Current
    text: str
    applied: tuple[dict[str, Any], ...]


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
        self._sleep = sleep
        self._write_locks: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._owned: dict[str, dict[str, LockInfo]] = defaultdict(dict)
        self._metadata: TTLCache[str, ObjectMetadata] = TTLCache(
            maxsize=self.config.cache_size, ttl=self.config.cache_ttl_ms / 1000
        )
        self._cleanup_task: asyncio.Task[None] | None = None

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
        for owner in list(self._owned):
            await self.release_owner(owner)

    # --- targets --------------------------------------------------------------------------

    def resolve(
        self,
        object_url: str | None = None,
        object_source_url: str | None = None,
        include_type: str | None = None,
        version: str | None = None,
    ) -> Target:
        """Work out which source unit a call means. Raises INVALID_ARGUMENT or
        INCLUDE_NOT_FOUND (for a name that is no class include at all)."""
        url = object_source_url or object_url
        if not url:
            raise InvalidArgument("pass objectUrl (or objectSourceUrl)")
        if version is not None and version not in ("active", "inactive", "workingArea"):
            raise InvalidArgument(
                f"version must be active, inactive or workingArea, not {version!r}"
            )
        include = include_type.strip().lower() if include_type else None
        try:
            ref = source_ref(url, include)
        except ValueError as exc:
            raise as_source_error(exc) from exc
        if object_url and object_source_url:
            other = source_ref(object_url)
            if other.object_url != ref.object_url:
                raise InvalidArgument(
                    f"objectUrl {object_url} and objectSourceUrl {object_source_url} name "
                    "different objects"
                )
        notes: list[str] = []
        if include and not ref.is_class:
            notes.append(
                f"includeType {include!r} ignored: {object_type_for(ref.object_url) or 'this'} "
                "objects have a single source"
            )
        elif include and include not in CLASS_INCLUDE_TYPES:
            raise IncludeNotFound(
                f"{include!r} is not a class include; use one of {', '.join(CLASS_INCLUDE_TYPES)}",
                includeType=include,
                available=list(CLASS_INCLUDE_TYPES),
            )
        key = CacheKey(self.system, ref.object_url, ref.include, version or "")
        return Target(ref, key, version, tuple(notes))

    # --- reads ----------------------------------------------------------------------------

    async def _fetch(self, target: Target, *, stateful: bool = False) -> CacheEntry:
        """One GET of the source; changedAt from Last-Modified. Fills the cache."""
        try:
            source = await self.client.read_source(
                target.ref.source_url, version=target.version, stateful=stateful
            )
        except NotFoundError as exc:
            raise await self._not_found(target, exc) from exc
        except Exception as exc:
            raise as_source_error(exc) from exc
        changed_at = await self._changed_at(target, source)
        token = make_token(changed_at, source.text)
        return self.cache.put(
            target.key,
            text=source.text,
            token=token,
            changed_at_ms=changed_at,
            etag=source.etag,
            line_count=len(split_lines(source.text)),
        )

    async def _changed_at(self, target: Target, source: SourceText) -> int:
        if source.last_modified is not None:
            return source.last_modified.ms
        # No usable Last-Modified (some systems send a malformed one): ask the metadata.
        meta = await self._object_metadata(target.ref.object_url, fresh=True)
        include = meta.include(target.ref.include) if meta.is_class else None
        stamp = include.changed_at if include else meta.changed_at
        return stamp.ms if stamp else 0

    async def _not_found(self, target: Target, exc: NotFoundError) -> Exception:
        if target.ref.is_class and target.ref.include != "main":
            try:
                meta = await self._object_metadata(target.ref.object_url, fresh=True)
            except NotFoundError:
                return as_source_error(exc)
            return IncludeNotFound(
                f"class {meta.name} has no {target.ref.include} include; available: "
                f"{', '.join(meta.include_types)}",
                includeType=target.ref.include,
                available=list(meta.include_types),
            )
        return as_source_error(exc)

    async def _entry(
        self, target: Target, *, fresh: bool = False, stateful: bool = False
    ) -> tuple[CacheEntry, bool]:
        if not fresh and not stateful:
            cached = self.cache.get(target.key)
            if cached is not None:
                return cached, True
        return await self._fetch(target, stateful=stateful), False

    async def _object_metadata(self, object_url: str, *, fresh: bool = False) -> ObjectMetadata:
        if not fresh and object_url in self._metadata:
            return self._metadata[object_url]
        meta = await self.client.object_metadata(object_url)
        self._metadata[object_url] = meta
        return meta

    async def get_source_v2(
        self,
        object_url: str | None = None,
        *,
        object_source_url: str | None = None,
        include_type: str | None = None,
        start_line: int | None = None,
        end_line: int | None = None,
        version: str | None = None,
        fresh: bool = False,
        stateful: bool = False,
        max_chars: int | None = None,
    ) -> SourceRead:
        """Read lines ``start..end`` (1-based, inclusive) with the token of the whole source.

        ``fresh`` skips the cache. ``stateful`` reads fresh through the session that holds our
        locks (keeping its context alive, and noticing when it has died).
        ``max_chars`` cuts the range at a line boundary; the result then says
        ``truncated`` and where to continue (``next_start_line``).
        """
        target = self.resolve(object_url, object_source_url, include_type, version)
        entry, cached = await self._entry(target, fresh=fresh, stateful=stateful)
        piece = read_range(entry.text, start_line, end_line)
        notes = list(target.notes) + ([piece.note] if piece.note else [])
        content, last, truncated, next_start = piece.content, piece.end_line, False, None
        if max_chars is not None and len(content) > max_chars:
            kept = _cut_lines(content, max_chars)
            last = piece.start_line + len(kept) - 1
            content = "\n".join(kept)
            truncated, next_start = True, last + 1
            notes.append(
                f"response cut at {max_chars} characters after line {last}; call again with "
                f"startLine={next_start} for the rest"
            )
        meta = self._metadata.get(target.ref.object_url)
        return SourceRead(
            content=content,
            token=entry.token,
            line_count=entry.line_count,
            start_line=piece.start_line,
            end_line=last,
            requested_start_line=start_line,
            requested_end_line=end_line,
            changed_at=entry.changed_at_ms,
            changed_by=_changed_by(meta, target.ref.include, entry.changed_at_ms),
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
        target = self.resolve(object_url, object_source_url, include_type, version)
        limit = self.config.max_matches if max_matches is None else max_matches
        compiled = grep_module.compile_pattern(
            pattern,
            case_insensitive=case_insensitive,
            max_length=self.config.max_pattern_length,
        )
        del compiled  # validated before any request is made
        entry, _ = await self._entry(target)
        lines = split_lines(entry.text)
        result = grep_module.grep_lines(
            lines,
            pattern,
            case_insensitive=case_insensitive,
            context_lines=context_lines,
            max_matches=limit,
            start_line=start_line or 1,
            end_line=end_line,
            timeout_s=self.config.grep_timeout_s,
            max_pattern_length=self.config.max_pattern_length,
            max_context_lines=self.config.max_context_lines,
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

    async def get_source(
        self,
        object_source_url: str,
        *,
        version: str | None = None,
    ) -> str:
        """V1: the whole source, always fetched from the server."""
        target = self.resolve(None, object_source_url, None, version)
        entry, _ = await self._entry(target, fresh=True)
        return entry.text

    # --- writes ---------------------------------------------------------------------------

    async def set_source_v2(
        self,
        object_url: str | None = None,
        *,
        token: str | None,
        object_source_url: str | None = None,
        include_type: str | None = None,
        start_line: int | None = None,
        end_line: int | None = None,
        content: str | None = None,
        patches: Sequence[Patch] | None = None,
        lock_handle: str | None = None,
        transport: str | None = None,
        skip_conflict_check: bool = False,
        owner: str = DEFAULT_OWNER,
    ) -> WriteOutcome:
        """Replace lines ``start..end`` with ``content`` (or apply several ``patches``
        atomically), provided the source is still the one ``token`` names."""
        target = self.resolve(object_url, object_source_url, include_type)
        all_patches = _collect_patches(start_line, end_line, content, patches)
        expected = self._token_to_check(token, target, required=True, skip=skip_conflict_check)

        def build(current: _Current) -> tuple[str, tuple[dict[str, Any], ...]]:
            result = apply_patches(current.text, all_patches)
            applied = tuple(
                {"oldRange": list(p.old_range), "newRange": list(p.new_range)}
                for p in result.applied
            )
            return result.text, applied

        return await self._write(
            target,
            expected,
            build,
            lock_handle=lock_handle,
            transport=transport,
            owner=owner,
        )

    async def replace_in_source(
        self,
        object_url: str | None = None,
        *,
        old_string: str,
        new_string: str,
        object_source_url: str | None = None,
        include_type: str | None = None,
        token: str | None = None,
        lock_handle: str | None = None,
        transport: str | None = None,
        owner: str = DEFAULT_OWNER,
    ) -> WriteOutcome:
        """Replace the single occurrence of ``old_string``; zero or several occurrences are
        an error that says how many there are and on which lines."""
        check_replacement(old_string, new_string)  # refuse before any request
        target = self.resolve(object_url, object_source_url, include_type)
        expected = self._token_to_check(token, target, required=False)

        def build(current: _Current) -> tuple[str, tuple[dict[str, Any], ...]]:
            text, applied = replace_unique(current.text, old_string, new_string)
            return text, (
                {"oldRange": list(applied.old_range), "newRange": list(applied.new_range)},
            )

        return await self._write(
            target,
            expected,
            build,
            lock_handle=lock_handle,
            transport=transport,
            owner=owner,
        )

    async def set_source(
        self,
        object_source_url: str,
        *,
        source: str,
        lock_handle: str | None = None,
        transport: str | None = None,
        owner: str = DEFAULT_OWNER,
    ) -> WriteOutcome:
        """V1: replace the whole source without any version check (the caller's risk)."""
        target = self.resolve(None, object_source_url)
        new_text = to_canonical(source)

        def build(current: _Current) -> tuple[str, tuple[dict[str, Any], ...]]:
            count = len(split_lines(current.text))
            return new_text, (
                {"oldRange": [1, count], "newRange": [1, len(split_lines(new_text))]},
            )

        return await self._write(
            target, None, build, lock_handle=lock_handle, transport=transport, owner=owner
        )

    def _token_to_check(
        self, token: str | None, target: Target, *, required: bool, skip: bool = False
    ) -> str | None:
        """The token a write must verify, or None when the check is off (``skip``, or
        ``conflict_check`` disabled) or an optional token was not given. A token that is
        passed is well-formed in every case."""
        if (token is None and not required) or skip or not self.config.conflict_check:
            if token is not None and not is_valid_token(token):
                raise TokenInvalid(f"malformed token {token!r}", token=token)
            return None
        self._check_token_format(token, target)
        return token

    def _check_token_format(self, token: str | None, target: Target) -> None:
        if token is None or token == "":
            raise TokenInvalid(
                "a token is required: call getObjectSourceV2 first and pass its token",
                token=token,
            )
        if not is_valid_token(token):
            raise TokenInvalid(
                f"malformed token {token!r}; expected <changedAt>_<16 hex digits> or 0_empty",
                token=token,
            )
        if self.config.strict_cache:
            cached = self.cache.get(target.key)
            if cached is None or cached.token != token:
                raise CacheExpired(
                    "strict cache mode: this token is no longer cached; read the source again",
                    token=token,
                )

    async def _write(
        self,
        target: Target,
        token: str | None,
        build: Callable[[_Current], tuple[str, tuple[dict[str, Any], ...]]],
        *,
        lock_handle: str | None,
        transport: str | None,
        owner: str,
    ) -> WriteOutcome:
        caller_lock = lock_handle or None
        if caller_lock is None:  # the owner's own lock, taken earlier with lock()
            held = self._find_lock(target.ref.object_url, None)
            if held is not None and held[0] == owner:
                caller_lock = held[1].lock_handle
        attempt = 0
        sent: list[_Attempt] = []
        while True:
            try:
                return await self._write_once(target, token, build, caller_lock, transport, sent)
            except SessionDeadError as exc:
                if caller_lock is not None:
                    self._forget_lock(target.ref.object_url, caller_lock)
                    raise LockRequired(
                        "the lock handle is not valid any more (its ABAP session ended or it "
                        "belongs to another session); nothing was written. Call lock again, or "
                        "omit lockHandle to lock just for this write.",
                        lockHandle=caller_lock,
                        reason=str(exc),
                    ) from exc
                if attempt >= 1:
                    raise SessionExpired(
                        "the ABAP session ended twice during this write; nothing was written",
                        reason=str(exc),
                    ) from exc
            except AdtTransportError as exc:
                if attempt >= len(self.config.retry_delays):
                    raise NetworkError(
                        f"the write failed after {attempt + 1} attempts: {exc}"
                    ) from exc
                await self._sleep(self.config.retry_delays[attempt])
            except Exception as exc:
                raise as_source_error(exc) from exc
            attempt += 1
            log.info("retrying the write to %s (attempt %d)", target.ref.source_url, attempt + 1)

    async def _write_once(
        self,
        target: Target,
        token: str | None,
        build: Callable[[_Current], tuple[str, tuple[dict[str, Any], ...]]],
        caller_lock: str | None,
        transport: str | None,
        sent: list[_Attempt],
    ) -> WriteOutcome:
        object_url = target.ref.object_url
        conflict: _Current | None = None
        async with self._write_locks[object_url]:
            tracked = self._find_lock(object_url, caller_lock)
            own_lock = None
            if caller_lock is None:
                if tracked is not None:
                    raise ObjectLocked(
                        f"{object_url} is locked by {tracked[0]!r} through this server; pass "
                        "its lockHandle or wait until it is released",
                        lockedBy=tracked[0],
                    )
                own_lock = await self.client.lock(object_url)
            handle = caller_lock or (own_lock.handle if own_lock else "")
            corr_nr = (
                transport
                or (own_lock.corrnr if own_lock else "")
                or (tracked[1].transport if tracked else "")
            )
            try:
                current = await self._read_locked(target)
                if sent and current.text == sent[-1].text:
                    # Our previous PUT landed although its answer was lost: done.
                    base, after, applied = sent[-1].base, current, sent[-1].applied
                elif token is not None and not same_content(token, current.token):
                    conflict = current
                else:
                    base = current
                    new_text, applied = build(current)
                    if new_text == current.text:
                        after = current
                    else:
                        sent.append(_Attempt(current, new_text, applied))
                        await self.client.write_source(
                            target.ref.source_url,
                            new_text,
                            lock_handle=handle,
                            corr_nr=corr_nr or None,
                        )
                        after = await self._read_locked(target)
            finally:
                if own_lock is not None:
                    await self._release(object_url, own_lock.handle)
        if conflict is not None:
            assert token is not None
            raise await self._conflict(target, token, conflict)
        self._store(target, after)
        single = applied[0] if len(applied) == 1 else None
        return WriteOutcome(
            updated=after.text != base.text,
            line_count=len(split_lines(after.text)),
            old_range=tuple(single["oldRange"]) if single else None,
            new_range=tuple(single["newRange"]) if single else None,
            patches=applied,
            token=after.token,
            previous_token=base.token,
            changed_at=after.changed_at,
            timestamp=int(time.time() * 1000),
            object_url=object_url,
            source_url=target.ref.source_url,
            include_type=target.include_type,
            text=after.text,
            notes=target.notes,
        )

    async def _read_locked(self, target: Target) -> _Current:
        source = await self.client.read_source(target.ref.source_url, stateful=True)
        changed_at = await self._changed_at(target, source)
        return _Current(source.text, make_token(changed_at, source.text), changed_at, source.etag)

    def _store(self, target: Target, current: _Current) -> None:
        self.cache.put(
            target.key._replace(version=""),
            text=current.text,
            token=current.token,
            changed_at_ms=current.changed_at,
            etag=current.etag,
            line_count=len(split_lines(current.text)),
        )
        for version in ("inactive", "workingArea", "active"):
            if version != target.key.version:
                self.cache.invalidate(target.key._replace(version=version))

    async def _conflict(self, target: Target, token: str, current: _Current) -> Exception:
        self._store(target, current)
        issued = self.cache.issued_for(token)
        details: dict[str, Any] = {"expectedToken": token, "currentToken": current.token}
        if issued is not None and (issued.object_url, issued.include) != (
            target.ref.object_url,
            target.ref.include,
        ):
            return TokenMismatch(
                f"this token belongs to {issued.object_url} ({issued.include}), not to "
                f"{target.ref.object_url} ({target.ref.include}); read this source first",
                issuedFor={"objectUrl": issued.object_url, "includeType": issued.include},
                **details,
            )
        stamp = token_changed_at(token)
        if stamp is not None and stamp > current.changed_at:
            return TokenMismatch(
                "this token is newer than the source it is used for, so it was issued for "
                "another object or include; read this source first",
                **details,
            )
        changed_by = None
        with contextlib.suppress(Exception):
            meta = await self._object_metadata(target.ref.object_url, fresh=True)
            changed_by = _changed_by(meta, target.ref.include)
        who = f" by {changed_by}" if changed_by else ""
        return VersionConflict(
            f"version conflict: the source was changed{who} since your token was issued; "
            "nothing was written",
            changedBy=changed_by,
            changedAt=current.changed_at,
            resolution="call getObjectSourceV2 to read the current content and token, then "
            "apply your change to it again",
            **details,
        )

    # --- locks ----------------------------------------------------------------------------

    async def lock(self, object_url: str, *, owner: str = DEFAULT_OWNER) -> LockInfo:
        """Lock an object for ``owner``; the lock is tracked and released on close."""
        target = self.resolve(object_url)
        url = target.ref.object_url
        held = self._find_lock(url, None)
        if held is not None:
            if held[0] == owner:
                return held[1]
            raise ObjectLocked(
                f"{url} is already locked by {held[0]!r} through this server",
                lockedBy=held[0],
            )
        try:
            result = await self.client.lock(url)
        except Exception as exc:
            raise as_source_error(exc) from exc
        info = LockInfo(
            object_url=url,
            lock_handle=result.handle,
            transport=result.corrnr,
            is_local=result.is_local,
            transport_owner=result.corruser,
            transport_text=result.corrtext,
            modification_support=result.modification_support,
        )
        self._owned[owner][url] = info
        return info

    async def unlock(
        self, object_url: str, lock_handle: str | None = None, *, owner: str = DEFAULT_OWNER
    ) -> bool:
        """Release a lock. Returns whether this service knew the lock."""
        url = self.resolve(object_url).ref.object_url
        held = self._owned.get(owner, {}).get(url)
        handle = lock_handle or (held.lock_handle if held else None)
        if handle is None:
            raise InvalidArgument(f"no lock on {url} is known for {owner!r}; pass lockHandle")
        await self._release(url, handle)
        return held is not None

    async def release_owner(self, owner: str) -> None:
        """Release every lock ``owner`` holds (on close, disconnect, shutdown)."""
        for url, info in list(self._owned.get(owner, {}).items()):
            await self._release(url, info.lock_handle)
        self._owned.pop(owner, None)

    def locks_of(self, owner: str) -> dict[str, LockInfo]:
        return dict(self._owned.get(owner, {}))

    def _find_lock(self, object_url: str, handle: str | None) -> tuple[str, LockInfo] | None:
        for owner, locks in self._owned.items():
            info = locks.get(object_url)
            if info is not None and (handle is None or info.lock_handle == handle):
                return owner, info
        return None

    def _forget_lock(self, object_url: str, handle: str) -> None:
        for locks in self._owned.values():
            if (info := locks.get(object_url)) is not None and info.lock_handle == handle:
                del locks[object_url]

    async def _release(self, object_url: str, handle: str) -> None:
        self._forget_lock(object_url, handle)
        try:
            await self.client.unlock(object_url, handle)
        except Exception as exc:  # the lock may already be gone with its session
            log.warning("unlock of %s failed: %s", object_url, exc)

    # --- structure, checks, activation, search --------------------------------------------

    async def last_changed_by(self, object_url: str, include_type: str | None = None) -> str | None:
        """Who changed the object (or class include) last: one fresh metadata request."""
        target = self.resolve(object_url, None, include_type)
        try:
            meta = await self._object_metadata(target.ref.object_url, fresh=True)
        except Exception:
            return None
        return _changed_by(meta, target.ref.include)

    async def object_identity(self, object_url: str) -> tuple[str, str]:
        """(name, package) of an object; from the metadata cache when fresh."""
        url = self.resolve(object_url).ref.object_url
        try:
            meta = await self._object_metadata(url)
        except Exception as exc:
            raise as_source_error(exc) from exc
        return meta.name, meta.package

    async def object_structure(self, object_url: str) -> dict[str, Any]:
        """Name, type, package, stamps and the includes (each with its source URL)."""
        url = self.resolve(object_url).ref.object_url
        try:
            meta = await self._object_metadata(url, fresh=True)
        except Exception as exc:
            raise as_source_error(exc) from exc
        return {
            "objectUrl": url,
            "name": meta.name,
            "type": meta.type,
            "description": meta.description,
            "package": meta.package,
            "changedAt": meta.changed_at.ms if meta.changed_at else None,
            "changedBy": meta.changed_by,
            "version": meta.version,
            "sourceUrl": meta.source_url,
            "includes": [
                {
                    "includeType": inc.include_type,
                    "sourceUrl": inc.source_url,
                    "changedAt": inc.changed_at.ms if inc.changed_at else None,
                    "changedBy": inc.changed_by,
                    "version": inc.version,
                }
                for inc in meta.includes
            ],
        }

    async def check(
        self,
        object_url: str,
        *,
        include_type: str | None = None,
        text: str | None = None,
    ) -> CheckOutcome:
        """The ADT syntax check of the stored source, or of unsaved ``text`` for one include."""
        target = self.resolve(object_url, None, include_type)
        try:
            result = await self.client.check_syntax(
                target.ref.object_url,
                source_url=target.ref.source_url if text is not None else None,
                text=text,
            )
        except Exception as exc:
            raise as_source_error(exc) from exc
        findings = _findings(result.messages, target.ref)
        return CheckOutcome(target.ref.object_url, findings)

    async def activate(self, object_url: str) -> ActivationOutcome:
        """Activate an object. Locks held through this server are reported, not stolen:
        SAP refuses activation while any session holds the lock."""
        target = self.resolve(object_url)
        held = self._find_lock(target.ref.object_url, None)
        if held is not None:
            raise ObjectLocked(
                f"{target.ref.object_url} is still locked by {held[0]!r} through this server; "
                "unlock (or save and close) before activating",
                lockedBy=held[0],
            )
        try:
            result = await self.client.activate(target.ref.object_url)
        except Exception as exc:
            raise as_source_error(exc) from exc
        findings = _findings(result.messages, target.ref)
        self.cache.invalidate_object(self.system, target.ref.object_url)
        return ActivationOutcome(
            object_url=target.ref.object_url,
            success=result.success,
            executed=result.executed,
            findings=findings,
            inactive_objects=tuple(ref.uri for ref in result.inactive_objects),
        )

    async def search(
        self, query: str, *, max_results: int = 50, object_type: str | None = None
    ) -> list[dict[str, str]]:
        try:
            refs = await self.client.quick_search(
                query, max_results=max_results, object_type=object_type
            )
        except Exception as exc:
            raise as_source_error(exc) from exc
        return [
            {
                "uri": ref.uri,
                "type": ref.type,
                "name": ref.name,
                "package": ref.package,
                "description": ref.description,
            }
            for ref in refs
        ]


# --- helpers ------------------------------------------------------------------------------


def _changed_by(
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


def _collect_patches(
    start_line: int | None,
    end_line: int | None,
    content: str | None,
    patches: Sequence[Patch] | None,
) -> list[Patch]:
    single = start_line is not None or end_line is not None or content is not None
    if patches and single:
        raise InvalidArgument("pass either startLine/endLine/content or patches, not both")
    if patches:
        ordered_without_overlap(patches)  # refuse before any request
        collected = list(patches)
    elif start_line is None or end_line is None or content is None:
        raise InvalidArgument("startLine, endLine and content are all required (or patches)")
    else:
        collected = [Patch.from_content(start_line, end_line, content)]
    for patch in collected:
        _check_patch_lines(patch)
    return collected


def _check_patch_lines(patch: Patch) -> None:
    """Refuse an over-long new line before any request, naming the line it would become."""
    try:
        check_line_lengths("\n".join(patch.lines), first_line=patch.start_line)
    except LineTooLongError as exc:
        raise as_source_error(exc) from exc


def _cut_lines(content: str, max_chars: int) -> list[str]:
    kept: list[str] = []
    used = 0
    for line in content.split("\n"):
        cost = len(line) + (1 if kept else 0)
        if kept and used + cost > max_chars:
            break
        kept.append(line)
        used += cost
    return kept


def _findings(messages: Iterable[Message], fallback: SourceRef) -> tuple[Finding, ...]:
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
