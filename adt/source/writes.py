"""Writes: token-checked line patches, unique replacements and V1 whole-source writes.

Writes never trust the cache: they lock (or use the caller's lock), re-read the source in the
lock window, compare its token with the caller's, apply, PUT and unlock in ``finally``. The new
token comes from the PUT's change stamp and the text sent (read back only when the server may
have changed it), so a write moves the source once each way. A PUT whose answer was lost is
recognised on the retry (the stored text is already ours), so a patch is never applied twice."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from adt.client import AdtClient
from adt.errors import AdtTransportError, SessionDeadError
from adt.models import WriteResult
from adt.source.bases import BaseTexts
from adt.source.cache import SourceCache
from adt.source.changes import Change, Replacement, Rewrite, refuse_control_characters
from adt.source.config import SourceConfig
from adt.source.errors import (
    CacheExpired,
    LockRequired,
    NetworkError,
    ObjectLocked,
    SessionExpired,
    TokenInvalid,
    TokenMismatch,
    VersionConflict,
    as_source_error,
)
from adt.source.lines import Patch, apply_patches, check_replacement, replace_unique
from adt.source.locks import DEFAULT_OWNER, LockTable
from adt.source.metadata import MetadataCache, changed_by
from adt.source.rebase import Moved, Rebaser, Refusal
from adt.source.results import WriteOutcome
from adt.source.targets import Target, resolve
from adt.source.token import is_valid_token, make_token, same_content, token_changed_at
from adt.source.transports import is_transport_refusal, transport_required
from adt.text import server_canonical, split_lines, to_canonical

log = logging.getLogger("adt.source")

Applied = tuple[dict[str, Any], ...]


@dataclass(frozen=True)
class Current:
    """The source as read under the lock."""

    text: str
    token: str
    changed_at: int
    etag: str
    line_break: str | None = None
    """The break the stored text has between lines; the write keeps it."""


Build = Callable[[Current], tuple[str, Applied]]


@dataclass(frozen=True)
class _Attempt:
    """A PUT we sent: if its answer is lost, a retry finds ``text`` already stored."""

    base: Current
    text: str
    applied: Applied
    over: dict[str, Any] | None


@dataclass(frozen=True)
class _Lease:
    """The lock a write runs under: the caller's, or one taken just for this write."""

    handle: str
    corr_nr: str
    own: bool


@dataclass(frozen=True)
class _Done:
    base: Current
    after: Current
    applied: Applied
    over: dict[str, Any] | None = None


@dataclass(frozen=True)
class _Conflict:
    """The source changed since the token; ``refusal`` says why the change was not moved
    over it (``None``: no rebase was asked for)."""

    current: Current
    refusal: Refusal | None = None


class SourceWrites:
    """Checked writes to one system's sources."""

    def __init__(
        self,
        client: AdtClient,
        *,
        system: str,
        config: SourceConfig,
        cache: SourceCache,
        metadata: MetadataCache,
        locks: LockTable,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        bases: BaseTexts | None = None,
    ) -> None:
        self._client = client
        self._system = system
        self._config = config
        self._cache = cache
        self._metadata = metadata
        self._locks = locks
        self._sleep = sleep
        self._serialised: defaultdict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._bases = bases or BaseTexts(client, cache)
        self._rebaser = Rebaser(self._bases, metadata)

    # --- the three kinds of write ---------------------------------------------------------

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
        symbol: str | None = None,
        delete: bool = False,
        change: Change | None = None,
        lock_handle: str | None = None,
        transport: str | None = None,
        skip_conflict_check: bool = False,
        rebase: bool = False,
        owner: str = DEFAULT_OWNER,
    ) -> WriteOutcome:
        """Replace lines ``start..end`` (or the named part ``symbol``: a method, a section,
        a form...) with ``content``, delete them (``delete``), or apply several ``patches``
        atomically, provided the source is still the one ``token`` names — or, with
        ``rebase``, that the lines it replaces and one line around them are unchanged since
        (the change is then moved over the newer version, see :mod:`adt.source.rebase`)."""
        target = resolve(self._system, object_url, object_source_url, include_type)
        if change is None:
            change = Change.of(start_line, end_line, content, patches, symbol, delete)
        expected = self._token_to_check(token, target, required=True, skip=skip_conflict_check)

        def build(current: Current) -> tuple[str, Applied]:
            result = apply_patches(current.text, change.patches(current.text))
            return result.text, tuple(_ranges(p.old_range, p.new_range) for p in result.applied)

        plan = change if rebase else None
        return await self._write(target, expected, build, lock_handle, transport, owner, plan)

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
        rebase: bool = False,
        owner: str = DEFAULT_OWNER,
    ) -> WriteOutcome:
        """Replace the single occurrence of ``old_string``; zero or several occurrences are
        an error that says how many there are and on which lines. With ``token`` and
        ``rebase``, the occurrence is found in the token's text and moved as a line patch."""
        check_replacement(old_string, new_string)  # refuse before any request
        refuse_control_characters(split_lines(new_string))
        target = resolve(self._system, object_url, object_source_url, include_type)
        expected = self._token_to_check(token, target, required=False)

        def build(current: Current) -> tuple[str, Applied]:
            text, applied = replace_unique(current.text, old_string, new_string)
            return text, (
                {"oldRange": list(applied.old_range), "newRange": list(applied.new_range)},
            )

        plan = Replacement(old_string, new_string) if rebase else None
        return await self._write(target, expected, build, lock_handle, transport, owner, plan)

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
        target = resolve(self._system, None, object_source_url)
        new_text = to_canonical(source)
        refuse_control_characters(split_lines(new_text))

        def build(current: Current) -> tuple[str, Applied]:
            count = len(split_lines(current.text))
            return new_text, (
                {"oldRange": [1, count], "newRange": [1, len(split_lines(new_text))]},
            )

        return await self._write(target, None, build, lock_handle, transport, owner)

    # --- tokens ---------------------------------------------------------------------------

    def _token_to_check(
        self, token: str | None, target: Target, *, required: bool, skip: bool = False
    ) -> str | None:
        """The token a write must verify, or None when the check is off (``skip``, or
        ``conflict_check`` disabled) or an optional token was not given. A token that is
        passed is well-formed in every case."""
        if (token is None and not required) or skip or not self._config.conflict_check:
            if token is not None and not is_valid_token(token):
                raise TokenInvalid(f"malformed token {token!r}", token=token)
            return None
        if token is None or token == "":
            raise TokenInvalid(
                "a token is required: read the source first and pass its token", token=token
            )
        if not is_valid_token(token):
            raise TokenInvalid(
                f"malformed token {token!r}; expected <changedAt>_<16 hex digits> or 0_empty",
                token=token,
            )
        if self._config.strict_cache:
            cached = self._cache.get(target.key)
            if cached is None or cached.token != token:
                raise CacheExpired(
                    "strict cache mode: this token is no longer cached; read the source again",
                    token=token,
                )
        return token

    # --- the write cycle ------------------------------------------------------------------

    async def _write(
        self,
        target: Target,
        token: str | None,
        build: Build,
        lock_handle: str | None,
        transport: str | None,
        owner: str,
        plan: Rewrite | None = None,
    ) -> WriteOutcome:
        caller_lock = lock_handle or self._owner_lock(target.ref.object_url, owner)
        sent: list[_Attempt] = []
        for attempt in range(len(self._config.retry_delays) + 2):
            try:
                return await self._write_once(
                    target, token, _Plan(build, plan), caller_lock, transport, sent
                )
            except SessionDeadError as exc:
                self._after_session_death(target, caller_lock, attempt, exc)
            except AdtTransportError as exc:
                if exc.system_down or attempt >= len(self._config.retry_delays):
                    # the outcome is unknown: read what the system has, not the replaced text
                    self._cache.invalidate_object(target.key.system, target.ref.object_url)
                    raise NetworkError(
                        f"the write failed after {attempt + 1} attempts: {exc}"
                    ) from exc
                await self._sleep(self._config.retry_delays[attempt])
            except Exception as exc:
                if is_transport_refusal(exc):
                    object_url = target.ref.object_url
                    raise await transport_required(self._client, object_url) from exc
                raise as_source_error(exc) from exc
            log.info("retrying the write to %s (attempt %d)", target.ref.source_url, attempt + 2)
        raise NetworkError("the write did not complete")  # pragma: no cover - loop returns

    def _owner_lock(self, object_url: str, owner: str) -> str | None:
        """The owner's own lock, taken earlier with lock()."""
        held = self._locks.find(object_url)
        return held[1].lock_handle if held is not None and held[0] == owner else None

    def _after_session_death(
        self, target: Target, caller_lock: str | None, attempt: int, exc: SessionDeadError
    ) -> None:
        """A dead session under a caller's lock is the caller's to renew; our own lock is
        taken again once."""
        if caller_lock is not None:
            self._locks.forget(target.ref.object_url, caller_lock)
            raise LockRequired(
                "the lock handle is not valid any more (its ABAP session ended or it belongs "
                "to another session); nothing was written. Lock again, or omit lockHandle to "
                "lock just for this write.",
                lockHandle=caller_lock,
                reason=str(exc),
            ) from exc
        if attempt >= 1:
            raise SessionExpired(
                "the ABAP session ended twice during this write; nothing was written",
                reason=str(exc),
            ) from exc

    async def _write_once(
        self,
        target: Target,
        token: str | None,
        plan: _Plan,
        caller_lock: str | None,
        transport: str | None,
        sent: list[_Attempt],
    ) -> WriteOutcome:
        object_url = target.ref.object_url
        async with self._serialised[object_url]:
            lease = await self._acquire(object_url, caller_lock, transport)
            try:
                done = await self._apply(target, token, plan, lease, sent)
            finally:
                if lease.own:
                    await self._locks.release(object_url, lease.handle)
        if isinstance(done, _Conflict):
            assert token is not None
            raise await self._conflict(target, token, done)
        self._store(target, done.after)
        await self._bases.keep(target, done.after.token, done.after.text)
        return _outcome(target, done)

    async def _acquire(
        self, object_url: str, caller_lock: str | None, transport: str | None
    ) -> _Lease:
        tracked = self._locks.find(object_url, caller_lock)
        if caller_lock is not None:
            corr_nr = transport or (tracked[1].transport if tracked else "")
            return _Lease(caller_lock, corr_nr, own=False)
        if tracked is not None:
            raise ObjectLocked(
                f"{object_url} is locked by {tracked[0]!r} through this server; pass its "
                "lockHandle or wait until it is released",
                lockedBy=tracked[0],
            )
        result = await self._client.lock(object_url)
        return _Lease(result.handle, transport or result.corrnr, own=True)

    async def _apply(
        self, target: Target, token: str | None, plan: _Plan, lease: _Lease, sent: list[_Attempt]
    ) -> _Done | _Conflict:
        """Verify (or rebase), build and PUT under the lock."""
        current = await self._read_locked(target)
        if sent and server_canonical(current.text) == server_canonical(sent[-1].text):
            # Our previous PUT landed although its answer was lost: done.
            return _Done(sent[-1].base, current, sent[-1].applied, sent[-1].over)
        build, over = plan.build, None
        if token is not None and not same_content(token, current.token):
            if plan.change is None:
                return _Conflict(current)
            moved = await self._rebaser.move(
                target, token, plan.change, current.text, current.changed_at
            )
            if isinstance(moved, Refusal):
                return _Conflict(current, moved)
            build, over = _moved_build(moved), moved.over
        new_text, applied = build(current)
        if new_text == current.text:
            return _Done(current, current, applied, over)
        sent.append(_Attempt(current, new_text, applied, over))
        written = await self._client.write_source(
            target.ref.source_url,
            new_text,
            lock_handle=lease.handle,
            corr_nr=lease.corr_nr or None,
            line_break=current.line_break,
        )
        after = await self._after_put(target, new_text, written, current.line_break)
        return _Done(current, after, applied, over)

    async def _after_put(
        self, target: Target, sent: str, written: WriteResult, line_break: str | None
    ) -> Current:
        """The source as stored now: a canonical text (no trailing blanks or final newline) is
        stored as sent and the PUT answer has its stamp; else (or with a malformed stamp, as
        some systems send) it is read back under the lock."""
        if written.last_modified is None or server_canonical(sent) != sent:
            return await self._read_locked(target)
        changed_at = written.last_modified.ms
        return Current(sent, make_token(changed_at, sent), changed_at, written.etag, line_break)

    async def _read_locked(self, target: Target) -> Current:
        source = await self._client.read_source(target.ref.source_url, stateful=True)
        changed_at = await self._metadata.changed_at(target, source)
        token = make_token(changed_at, source.text)
        return Current(source.text, token, changed_at, source.etag, source.line_break)

    def _store(self, target: Target, current: Current) -> None:
        self._cache.put(
            target.key._replace(version=""),
            text=current.text,
            token=current.token,
            changed_at_ms=current.changed_at,
            etag=current.etag,
        )
        for version in ("inactive", "workingArea", "active"):
            if version != target.key.version:
                self._cache.invalidate(target.key._replace(version=version))

    async def _conflict(self, target: Target, token: str, conflict: _Conflict) -> Exception:
        current, refusal = conflict.current, conflict.refusal
        self._store(target, current)
        details: dict[str, Any] = {"expectedToken": token, "currentToken": current.token}
        mismatch = self._mismatch(target, token, current, details)
        if mismatch is not None:
            return mismatch
        who = None
        with contextlib.suppress(Exception):
            meta = await self._metadata.get(target.ref.object_url, fresh=True)
            who = changed_by(meta, target.ref.include)
        by = f" by {who}" if who else ""
        why = f": {refusal.reason}" if refusal is not None else ""
        return VersionConflict(
            f"version conflict: the source was changed{by} since your token was issued{why}; "
            "nothing was written",
            **(refusal.details if refusal is not None else {}),
            changedBy=who,
            changedAt=current.changed_at,
            resolution="read the source again for its current content and token, then apply "
            "your change to it again",
            **details,
        )

    def _mismatch(
        self, target: Target, token: str, current: Current, details: dict[str, Any]
    ) -> TokenMismatch | None:
        """A token that cannot belong to this source at all (issued for another one)."""
        issued = self._cache.issued_for(token)
        here = (target.ref.object_url, target.ref.include)
        if issued is not None and (issued.object_url, issued.include) != here:
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
        return None


@dataclass(frozen=True)
class _Plan:
    """How a write builds its text; the change to rebase on an older token (None: strict)."""

    build: Build
    change: Rewrite | None = None


def _moved_build(moved: Moved) -> Build:
    def build(current: Current) -> tuple[str, Applied]:
        result = apply_patches(current.text, moved.patches)
        return result.text, tuple(_ranges(p.old_range, p.new_range) for p in result.applied)

    return build


def _ranges(old: tuple[int, int], new: tuple[int, int]) -> dict[str, Any]:
    return {"oldRange": list(old), "newRange": list(new)}


def _outcome(target: Target, done: _Done) -> WriteOutcome:
    single = done.applied[0] if len(done.applied) == 1 else None
    return WriteOutcome(
        updated=done.after.text != done.base.text,
        line_count=len(split_lines(done.after.text)),
        old_range=tuple(single["oldRange"]) if single else None,
        new_range=tuple(single["newRange"]) if single else None,
        patches=done.applied,
        token=done.after.token,
        previous_token=done.base.token,
        changed_at=done.after.changed_at,
        timestamp=int(time.time() * 1000),
        object_url=target.ref.object_url,
        source_url=target.ref.source_url,
        include_type=target.include_type,
        text=done.after.text,
        notes=target.notes,
        rebased_over=done.over,
    )
