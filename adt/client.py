"""The async ADT client.

Reads go through a stateless session; lock windows (LOCK, the reads and writes that must see
the lock, UNLOCK) go through a separate stateful session with its own cookie jar. Every lock
taken here is remembered and released by :meth:`AdtClient.close`.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import AsyncIterator, Mapping, Sequence
from types import TracebackType

import httpx

from adt import _xml
from adt._areas import Areas
from adt._session import AdtSession, AuthGuard, Reach, Sleep
from adt.areas.document_text import as_text, read_accept, write_headers
from adt.auth.base import Authenticator
from adt.auth.registry import authenticator_for
from adt.errors import (
    AdtError,
    AdtTransportError,
    CheckRunError,
    InvalidLockHandleError,
    ServerErrorInfo,
    SessionDeadError,
)
from adt.kinds import KINDS
from adt.models import (
    ActivationResult,
    CheckResult,
    LockResult,
    NodeStructure,
    ObjectMetadata,
    ObjectRef,
    SourceText,
    Timestamp,
    WriteResult,
)
from adt.profile import ConnectionProfile
from adt.release import RELEASE_DELAYS, ReleaseJournal
from adt.text import CRLF, line_break_of, to_canonical, to_wire
from adt.urls import check_adt_path, decode_name, encode_name, validate_adt_path, version_params

log = logging.getLogger("adt.client")

_LOCK_ACCEPT = (
    "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.lock.result;q=0.8, "
    "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.lock.result2;q=0.9"
)
_NODE_ACCEPT = (
    "application/vnd.sap.as+xml;dataname=com.sap.adt.RepositoryObjectTreeContent, "
    "application/vnd.sap.adt.repository.nodestructure.v1+xml, application/xml"
)


class AdtClient(Areas):
    """An ADT connection to one system.

    Use it as an async context manager, or call :meth:`close` when done: that releases every
    lock this client still holds, ends the stateful session and logs off.

    ``transport`` replaces the network (``httpx.ASGITransport`` for an in-process emulator,
    ``httpx.MockTransport`` in tests); ``sleep`` replaces the pause between retries;
    ``authenticator`` how it logs on (default: the profile's ``logon`` method, :mod:`adt.auth`).
    A session that holds locks and cannot be ended (an outage) goes to the
    :attr:`release_journal`, which keeps ending it (``release_delays`` apart).
    """

    def __init__(
        self,
        profile: ConnectionProfile,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep | None = None,
        release_delays: Sequence[float] = RELEASE_DELAYS,
        authenticator: Authenticator | None = None,
    ) -> None:
        self.profile = profile
        self._guard = AuthGuard()
        self.authenticator = authenticator or authenticator_for(profile, transport)
        options: dict[str, object] = {
            "auth_guard": self._guard,
            "transport": transport,
            "reach": Reach(),
            "authenticator": self.authenticator,  # one for both sessions: tokens are shared
        }
        if sleep is not None:
            options["sleep"] = sleep
        self._stateless = AdtSession(profile, stateful=False, **options)  # type: ignore[arg-type]
        self._stateful = AdtSession(profile, stateful=True, **options)  # type: ignore[arg-type]
        self.release_journal = ReleaseJournal(release_delays)
        self._stateful.orphaned = self.release_journal.adopt
        self._closed = False

    def __repr__(self) -> str:
        return f"AdtClient({self.profile.base_url!r}, user={self.profile.user!r})"

    async def __aenter__(self) -> AdtClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # --- bookkeeping ----------------------------------------------------------------------

    @property
    def request_count(self) -> int:
        """ADT requests sent so far, over both sessions (retries included)."""
        return self._stateless.request_count + self._stateful.request_count

    @property
    def held_locks(self) -> dict[str, str]:
        """Object URL -> lock handle for every lock this client holds."""
        return dict(self._stateful.locks)

    async def close(self) -> None:
        """Release held locks, end the stateful context, log off, close connections."""
        if self._closed:
            return
        self._closed = True
        try:
            for object_url, handle in list(self._stateful.locks.items()):
                try:
                    await self.unlock(object_url, handle)
                except AdtError as exc:
                    log.warning("could not release the lock on %s: %s", object_url, exc)
            await self._stateful.end_context()
            await self._stateless.logoff()
            await self.release_journal.close()
        finally:
            await self._stateful.aclose()
            await self._stateless.aclose()
            await self.authenticator.aclose()

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
    ) -> httpx.Response:
        """One ADT request on the stateless session (or the stateful one, which holds the
        locks), path validated; ``idempotent``: a POST that only reads, retried like a GET."""
        session = self._stateful if stateful else self._stateless
        send = functools.partial(session.request, params=params, headers=headers)
        return await send(method, check_adt_path(path), content=content, idempotent=idempotent)

    # --- reads ----------------------------------------------------------------------------

    async def object_metadata(
        self, object_url: str, *, version: str | None = None
    ) -> ObjectMetadata:
        """Metadata of a class, interface, program, include, function group or module."""
        path = validate_adt_path(object_url)
        response = await self._stateless.request(
            "GET", path, params=version_params(version), headers={"Accept": "*/*"}
        )
        return _xml.parse_metadata(response.content, path)

    async def read_source(
        self, source_url: str, *, version: str | None = None, stateful: bool = False
    ) -> SourceText:
        """Read a source as canonical LF text, with its ETag and Last-Modified.

        Without ``version`` SAP returns the inactive version when one exists. ``stateful``
        reads inside our lock window (same session as the lock).
        """
        path = validate_adt_path(source_url)
        session = self._stateful if stateful else self._stateless
        response = await session.request(
            "GET", path, params=version_params(version), headers={"Accept": read_accept(path)}
        )
        raw = as_text(path, response.content)
        return SourceText(
            text=to_canonical(raw),
            etag=response.headers.get("etag", ""),
            last_modified=Timestamp.parse_http_date(response.headers.get("last-modified")),
            line_break=line_break_of(raw),
        )

    async def quick_search(
        self, query: str, *, max_results: int = 50, object_type: str | None = None
    ) -> tuple[ObjectRef, ...]:
        """Find objects by name pattern (``*`` is the wildcard). An empty result is not an error."""
        if not query.strip():
            raise ValueError("the search query must not be empty")
        params = {"operation": "quickSearch", "query": query, "maxResults": str(max_results)}
        if object_type:
            params["objectType"] = object_type.split("/")[0]
        response = await self._stateless.request(
            "GET",
            "/sap/bc/adt/repository/informationsystem/search",
            params=params,
            headers={"Accept": "application/*"},
        )
        return _xml.parse_object_references(response.content)

    async def node_structure(
        self, parent_type: str, parent_name: str, *, node_id: str | None = None
    ) -> NodeStructure:
        """One call of the package tree (a POST: SAP answers GET with 405)."""
        params = {
            "parent_type": parent_type,
            "parent_name": parent_name,
            "parent_tech_name": parent_name,
            "withShortDescriptions": "true",
        }
        if node_id is not None:
            params["node_id"] = node_id
        response = await self._stateless.request(
            "POST",
            "/sap/bc/adt/repository/nodestructure",
            params=params,
            headers={
                "Accept": _NODE_ACCEPT,
                "Content-Type": "application/vnd.sap.as+xml; charset=UTF-8; dataname=null",
            },
            content=_xml.node_structure_request(node_id.zfill(6) if node_id else "000000"),
        )
        return _xml.parse_node_structure(response.content)

    async def package_contents(self, package: str) -> NodeStructure:
        """Every direct child of a package: its sub-packages (``DEVC/K`` nodes, also in
        ``.sub_packages``) and its objects, one call per type listed by the root call.

        SAP answers an unknown package like an empty one, so an empty tree is checked against
        ``GET /packages/{name}``: an unknown package raises :class:`adt.errors.NotFoundError`.
        """
        root = await self.node_structure("DEVC/K", package.upper())
        if root.is_empty:
            await self._stateless.request(
                "GET", f"/sap/bc/adt/packages/{encode_name(package)}", headers={"Accept": "*/*"}
            )
            return root
        nodes = {(n.object_type, n.name): n for n in root.nodes if not n.is_folder}
        for object_type in root.object_types:
            if object_type.object_type == "DEVC/K" and root.sub_packages:
                continue  # listed by the root call already
            part = await self.node_structure("DEVC/K", package.upper(), node_id=object_type.node_id)
            nodes.update(((n.object_type, n.name), n) for n in part.nodes if not n.is_folder)
        return NodeStructure(tuple(nodes.values()), root.object_types, root.categories)

    # --- lock window ----------------------------------------------------------------------

    async def lock(self, object_url: str, *, access_mode: str = "MODIFY") -> LockResult:
        """Lock an object (never a source URL) in the stateful session."""
        path = validate_adt_path(object_url)
        try:
            response = await self._stateful.request(
                "POST",
                path,
                params={"_action": "LOCK", "accessMode": access_mode},
                headers={"Accept": _LOCK_ACCEPT},
            )
        except AdtTransportError:
            # The lock may have been taken with its answer lost, and nobody would know its
            # handle: end the context, which drops every enqueue it holds, so a retry
            # starts clean instead of finding the object "locked by" ourselves.
            await self._stateful.end_context(may_hold_locks=True)
            raise
        result = _xml.parse_lock(response.content, path)
        self._stateful.locks[path] = result.handle
        return result

    async def unlock(self, object_url: str, lock_handle: str) -> None:
        """Release a lock. SAP answers 200 whatever happened, so this cannot confirm it; that
        also makes it idempotent, so it is retried like a read. When it still fails, the
        stateful context is ended and forgotten (SAP drops the enqueues of a context that
        ends), so the lock cannot outlive the failure; then the error is raised."""
        path = validate_adt_path(object_url)
        try:
            await self._stateful.request(
                "POST",
                path,
                params={"_action": "UNLOCK", "lockHandle": lock_handle},
                idempotent=True,
            )
        except SessionDeadError:
            raise  # the context is gone, and its enqueues with it
        except AdtError as exc:  # a network error, 5xx, a token refused twice, any answer
            log.warning("unlock of %s failed (%s); ending the stateful context", path, exc)
            await self._stateful.end_context()
            raise
        finally:
            if self._stateful.locks.get(path) == lock_handle:
                del self._stateful.locks[path]

    def forget_lock(self, object_url: str) -> None:
        """Stop tracking the lock on ``object_url``: the server consumed it (a delete)."""
        self._stateful.locks.pop(validate_adt_path(object_url), None)

    @contextlib.asynccontextmanager
    async def locked(self, object_url: str) -> AsyncIterator[LockResult]:
        """``async with client.locked(url) as lock:`` — the lock is released in ``finally``."""
        lock = await self.lock(object_url)
        try:
            yield lock
        finally:
            if self._stateful.locks.get(lock.object_url) == lock.handle:
                try:
                    await self.unlock(lock.object_url, lock.handle)
                except AdtError as exc:
                    log.warning("unlock of %s failed: %s", lock.object_url, exc)

    async def write_source(
        self,
        source_url: str,
        text: str,
        *,
        lock_handle: str,
        corr_nr: str | None = None,
        line_break: str | None = None,
    ) -> WriteResult:
        """Replace a whole source (PUT) under a lock. Lines over 255 characters are refused
        before anything is sent; the text goes out with ``line_break`` between lines (the
        one :attr:`SourceText.line_break` read), else with its kind's (CRLF; LF for behavior
        definitions): SAP keeps CDS-family sources byte for byte."""
        path = validate_adt_path(source_url)
        if line_break is None:
            kind = KINDS.for_url(path)
            line_break = kind.line_break if kind is not None else CRLF
        params = {"lockHandle": lock_handle}
        if corr_nr:
            params["corrNr"] = corr_nr
        try:
            response = await self._stateful.request(
                "PUT",
                path,
                params=params,
                headers=write_headers(path, text),
                content=to_wire(text, line_break).encode("utf-8"),
            )
        except InvalidLockHandleError:  # the system forgot it: so do we
            self._stateful.locks = {
                u: h for u, h in self._stateful.locks.items() if h != lock_handle
            }
            raise
        return WriteResult(
            etag=response.headers.get("etag", ""),
            last_modified=Timestamp.parse_http_date(response.headers.get("last-modified")),
        )

    # --- activation and checks ------------------------------------------------------------

    async def activate(self, object_urls: str | Sequence[str]) -> ActivationResult:
        """Activate objects. Unlock first: SAP refuses activation while *any* session, ours
        included, holds the lock (403 EU/510, raised as :class:`adt.errors.LockConflictError`)."""
        urls = [object_urls] if isinstance(object_urls, str) else list(object_urls)
        paths = [validate_adt_path(url) for url in urls]
        body = _xml.activation_request([(p, decode_name(p.rsplit("/", 1)[-1])) for p in paths])
        response = await self._stateless.request(
            "POST",
            "/sap/bc/adt/activation",
            params={"method": "activate", "preauditRequested": "true"},
            headers={"Content-Type": "application/xml", "Accept": "application/xml"},
            content=body,
        )
        return _xml.parse_activation(response.content)

    async def check_syntax(
        self,
        object_url: str,
        *,
        source_url: str | None = None,
        text: str | None = None,
        version: str = "inactive",
    ) -> CheckResult:
        """Run the ABAP check on the stored version, or on ``text`` (unsaved) for
        ``source_url``. A report SAP could not process raises :class:`CheckRunError`."""
        path = validate_adt_path(object_url)
        artifact = None
        if text is not None:
            artifact = (validate_adt_path(source_url or f"{path}/source/main"), to_wire(text))
        response = await self._stateless.request(
            "POST",
            "/sap/bc/adt/checkruns",
            params={"reporters": "abapCheckRun"},
            headers={
                "Content-Type": "application/vnd.sap.adt.checkobjects+xml",
                "Accept": "application/vnd.sap.adt.checkmessages+xml",
            },
            content=_xml.check_run_request(path, version, artifact),
            idempotent=True,  # a check changes nothing: a closed connection is retried
        )
        result = _xml.parse_check_run(response.content)
        for report in result.reports:
            if report.status == "notProcessed":
                raise CheckRunError(
                    ServerErrorInfo(
                        status=response.status_code,
                        message=report.status_text,
                        method="POST",
                        path="/sap/bc/adt/checkruns",
                    ),
                    "The check did not run (HTTP 200 with status notProcessed).",
                )
        return result
