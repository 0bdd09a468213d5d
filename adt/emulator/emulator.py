"""The :class:`Emulator` facade: build the system, serve it, steer it from tests."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import socket
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from typing import Any

import uvicorn
from starlette.applications import Starlette

from adt.net import tcp_listener

from . import stamps
from .admin import AdminEndpoint
from .app import build_app
from .datapreview import load_contents
from .faults import FaultInjector
from .large_sample import DESCRIPTION as LARGE_DESCRIPTION
from .large_sample import NAME as LARGE_NAME
from .large_sample import large_class_includes, large_class_source
from .logon import Logon, LogonPolicy
from .model import CLAS, RepoObject, SourceUnit, Version
from .oauth import OAuthServer
from .seed import load_folder
from .sso import SingleSignOn
from .state import EmulatorError, LockEntry, RequestLogEntry, SystemState
from .tls import ServerTls
from .transport_records import TransportRequestRecord, request_record

_log = logging.getLogger("adt.emulator")

DEFAULT_USERS = {"DEVELOPER": "developer"}
SAMPLE_PACKAGE = "$ZDEMO"
ACTIVATION_STYLES = ("empty", "messages")


def samples_dir() -> Path:
    """The built-in abapGit sample folder shipped with the package."""
    return Path(str(resources.files("adt.emulator") / "samples" / "src"))


def quality_samples_dir() -> Path:
    """The opt-in ABAP Unit and ATC samples (package ``$ZDEMO_QA``): a seeded failing test
    and seeded ATC findings, kept out of the default set so its counts stay stable."""
    return samples_dir().parent / "quality"


class Emulator:
    """A local SAP system speaking ADT.

    Without ``seed_dirs`` it serves the built-in samples (package ``$ZDEMO``, plus
    the generated ``ZCL_DEMO_LARGE``); pass ``[samples_dir(), other]`` to get both.
    ``users`` maps user names to passwords; the default is ``DEVELOPER``/``developer``.
    ``generate_requests``: a change in a transportable package without ``corrNr`` books a new
    "Generated Request for Change Recording" (as A4H did) instead of the 400 refusal.
    ``logon`` says which logon procedures it accepts (basic only, by default); serve it over
    TLS with ``serve_in_thread(tls=ServerTls(...))``.
    """

    def __init__(
        self,
        seed_dirs: Sequence[str | Path] | None = None,
        users: Mapping[str, str] | None = None,
        sid: str = "A4H",
        client: str = "001",
        idle_timeout: float = 1800.0,
        activation_style: str = "empty",
        admin: bool = False,
        generate_requests: bool = False,
        logon: LogonPolicy | None = None,
    ) -> None:
        if activation_style not in ACTIVATION_STYLES:
            raise ValueError(f"activation_style must be one of {ACTIVATION_STYLES}")
        user_table = {name.upper(): pw for name, pw in (users or DEFAULT_USERS).items()}
        if not user_table:
            raise ValueError("at least one user is needed")
        self.state = SystemState(
            sid=sid.upper(),
            client=client,
            users=user_table,
            idle_timeout=idle_timeout,
            activation_style=activation_style,
        )
        self.faults = FaultInjector(self.state.lock)
        self.state.cts.generate_requests = generate_requests
        #: abapGit type → names of seeded objects no kind module serves (reported at start).
        self.unserved: dict[str, list[str]] = {}
        self._seed(list(seed_dirs or []), next(iter(user_table)))
        self.state.cts.record_seeded(list(self.state.objects.values()), next(iter(user_table)))
        self._admin = AdminEndpoint(self) if admin else None
        policy = logon or LogonPolicy()
        #: The OAuth authorization server beside the system (when the policy names clients).
        self.oauth = (
            OAuthServer(
                policy.oauth_clients,
                self.state.users,
                self.state.sessions.clock,
                access_lifetime=policy.access_token_lifetime,
            )
            if policy.oauth_clients
            else None
        )
        #: The browser single sign-on (reentrance service and identity provider), or None.
        self.sso = (
            SingleSignOn(
                self.state.users,
                self.state.sessions.clock,
                policy.ticket_lifetime,
                ui_host=policy.ui_host,
            )
            if policy.browser_sso
            else None
        )
        logon_layer = Logon(policy, self.state.users, self.oauth, self.sso)
        self._app = build_app(self.state, self.faults, self._admin, logon_layer)

    # construction ----------------------------------------------------------------------
    def _seed(self, seed_dirs: list[str | Path], responsible: str) -> None:
        stamp = stamps.now_seconds() - 86_400
        folders = [Path(p) for p in seed_dirs] or [samples_dir()]
        for folder in folders:
            result = load_folder(folder, responsible=responsible, stamp=stamp)
            for package in result.packages:
                self.state.add_package(package)
            for obj in result.objects:
                self.state.add_object(obj)
            for kind, names in result.unserved.items():
                self.unserved.setdefault(kind, []).extend(names)
            summary = result.unserved_summary()
            if summary:
                _log.warning("seed %s: %s", folder, summary)
        self.state.table_rows = load_contents(folders)
        if self.state.table_rows and "TABU" in self.unserved:
            del self.unserved["TABU"]  # abapGit's data files: the data preview serves them
        if samples_dir().resolve() in {f.resolve() for f in folders}:
            large = RepoObject(
                kind=CLAS,
                name=LARGE_NAME,
                package=SAMPLE_PACKAGE,
                description=LARGE_DESCRIPTION,
                responsible=responsible,
                created_at=stamp,
            )
            text = large_class_source()
            large.parts["main"] = SourceUnit(
                "main", active=Version(text, stamp, responsible), last_stamp=stamp
            )
            for include, include_text in large_class_includes().items():
                large.parts[include] = SourceUnit(
                    include, active=Version(include_text, stamp, responsible), last_stamp=stamp
                )
            self.state.add_object(large)

    @property
    def app(self) -> Starlette:
        """The ASGI application (use with ``httpx.ASGITransport`` or any server)."""
        return self._app

    @property
    def sid(self) -> str:
        return self.state.sid

    @property
    def client(self) -> str:
        return self.state.client

    @property
    def users(self) -> dict[str, str]:
        return dict(self.state.users)

    # serving ---------------------------------------------------------------------------
    def _server(
        self, host: str = "127.0.0.1", port: int = 0, tls: ServerTls | None = None
    ) -> tuple[uvicorn.Server, socket.socket, str]:
        sock = tcp_listener(host, port)
        port = sock.getsockname()[1]
        config = uvicorn.Config(
            self._app,
            log_level="warning",
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=2,
            **(tls.uvicorn_options() if tls else {}),
        )
        scheme = "https" if tls else "http"
        return uvicorn.Server(config), sock, f"{scheme}://{host}:{port}"

    @contextlib.contextmanager
    def serve_in_thread(
        self, host: str = "127.0.0.1", port: int = 0, tls: ServerTls | None = None
    ) -> Iterator[str]:
        """Serve on ``host:port`` (default 127.0.0.1, a free port) from a background thread,
        over TLS when ``tls`` names the server's certificate; yields the base URL."""
        server, sock, base_url = self._server(host, port, tls)
        thread = threading.Thread(
            target=lambda: asyncio.run(server.serve(sockets=[sock])),
            name="adt-emulator",
            daemon=True,
        )
        thread.start()
        try:
            while not server.started:
                if not thread.is_alive():
                    raise RuntimeError("the emulator server failed to start")
                threading.Event().wait(0.01)
            yield base_url
        finally:
            server.should_exit = True
            thread.join(timeout=10)
            sock.close()

    @contextlib.asynccontextmanager
    async def serve(self) -> AsyncIterator[str]:
        """Async form of :meth:`serve_in_thread`.

        The server runs in its own thread so that synchronous clients called from
        the test's event loop cannot deadlock it.
        """
        manager = self.serve_in_thread()
        base_url = await asyncio.to_thread(manager.__enter__)
        try:
            yield base_url
        finally:
            await asyncio.to_thread(manager.__exit__, None, None, None)

    # inspection ------------------------------------------------------------------------
    def locks(self) -> list[LockEntry]:
        """The current enqueue locks (those of contexts idle past their lifetime are gone,
        as on SAP, where the context's end releases them without a request)."""
        self.state.expire_idle()
        return self.state.lock_list()

    def wait_until(self, condition: Callable[[], object], timeout: float = 120.0) -> bool:
        """Block until ``condition()`` is true, checking it again after every request the
        system processes (an event, not a clock); False if ``timeout`` passes first. For
        tests that wait on what a client in another process does."""
        with self.state.changed:
            return bool(self.state.changed.wait_for(condition, timeout))

    def sessions(self) -> list[dict[str, Any]]:
        """Security sessions (id, user, client, whether a CSRF token is issued)."""
        with self.state.lock:
            return [
                {
                    "id": s.id,
                    "user": s.user,
                    "client": s.client,
                    "has_csrf_token": s.csrf_token is not None,
                }
                for s in self.state.sessions.sessions.values()
            ]

    def contexts(self) -> list[dict[str, Any]]:
        """Live stateful contexts (id, user, session id, synthetic flag)."""
        self.state.expire_idle()
        with self.state.lock:
            return [
                {
                    "id": c.id,
                    "user": c.user,
                    "session_id": c.session_id,
                    "synthetic": c.synthetic,
                }
                for c in self.state.sessions.contexts.values()
            ]

    @property
    def request_log(self) -> list[RequestLogEntry]:
        """Every ADT request so far (admin calls excluded), oldest first."""
        with self.state.lock:
            return list(self.state.request_log)

    def request_counts(self) -> collections.Counter[str]:
        """Requests per ``"METHOD /path"`` (path without query)."""
        with self.state.lock:
            return collections.Counter(f"{e.method} {e.path}" for e in self.state.request_log)

    def reset_request_log(self) -> None:
        with self.state.lock:
            self.state.request_log.clear()

    def source(self, source_uri: str, version: str = "inactive") -> str | None:
        """Stored text of a source unit, **LF-joined canonical form** (not the CRLF wire form).

        ``version="inactive"`` gives the inactive text if there is one, else the active
        one (what a GET without ``version`` returns); ``"active"`` the active text only.
        """
        return self.state.source_text(source_uri, version)

    def changed_at(self, object_or_source_uri: str, version: str | None = None) -> int | None:
        """``changedAt`` (epoch seconds) of an object or one of its source units."""
        with self.state.lock:
            resolved = self.state.resolve(object_or_source_uri)
            if resolved is None:
                return None
            obj, part = resolved
            if part is None:
                view = self.state.view(obj, version)
                return view.changed_at if view else None
            unit = obj.parts.get(part)
            picked = unit.pick(version) if unit else None
            return picked[0].changed_at if picked else None

    def metadata_changed_at(self, object_uri: str) -> str | None:
        """``adtcore:changedAt`` as the metadata document shows it (ISO string)."""
        ts = self.changed_at(object_uri)
        return stamps.iso(ts) if ts is not None else None

    def objects(self) -> list[str]:
        """Object URIs of everything in the repository."""
        return self.state.object_uris()

    # other actors and faults -----------------------------------------------------------
    def expire_contexts(self, user: str | None = None) -> None:
        """End stateful contexts (of ``user``, or all); their locks vanish."""
        with self.state.lock:
            for context in list(self.state.sessions.contexts.values()):
                if user is None or context.user == user.upper():
                    self.state.end_context(context.id)

    def expire_access_tokens(self) -> None:
        """Let every OAuth access token expire now (their refresh tokens still work)."""
        with self.state.lock:
            if self.oauth is not None:
                self.oauth.expire_access_tokens()

    def revoke_refresh_tokens(self, *, expire: bool = False) -> None:
        """Revoke every OAuth refresh token (as an administrator or a password change does),
        or with ``expire`` let them run out."""
        with self.state.lock:
            if self.oauth is not None and expire:
                self.oauth.expire_refresh_tokens()
            elif self.oauth is not None:
                self.oauth.revoke_refresh_tokens()

    def expire_logon_tickets(self) -> None:
        """Let every browser logon ticket expire now."""
        with self.state.lock:
            if self.sso is not None:
                self.sso.expire_tickets()

    def expire_csrf_tokens(self) -> None:
        """Invalidate every CSRF token; the next mutating request gets 403."""
        with self.state.lock:
            self.state.sessions.expire_tokens()

    def lock_as(self, user: str, object_uri: str) -> str:
        """Let ``user`` (another actor) lock an object; returns the lock handle."""
        with self.state.lock:
            obj = self._object(object_uri)
            context = self.state.sessions.synthetic_context(user.upper())
            held = self.state.locks.get(obj.uri)
            if held is not None:
                raise EmulatorError(f"{obj.name} is already locked by {held.user}")
            return self.state.lock_object(obj, context).handle

    def unlock_as(self, user: str, object_uri: str) -> None:
        """Release a lock that ``user`` holds (no-op if it holds none)."""
        with self.state.lock:
            obj = self._object(object_uri)
            held = self.state.locks.get(obj.uri)
            if held is not None and held.user == user.upper():
                del self.state.locks[obj.uri]

    def write_as(self, user: str, source_uri: str, text: str) -> None:
        """``user`` saves ``text`` into a source (inactive; bumps changedAt/ETag).

        Refused with :class:`EmulatorError` while a different user holds the lock.
        """
        self.state.write_as(user.upper(), source_uri, text)

    def activate_all(self) -> int:
        """Activate every inactive object without checks; returns how many."""
        return self.state.activate_all()

    # transports --------------------------------------------------------------------------
    def transport_requests(self) -> list[TransportRequestRecord]:
        """Every transport request with its tasks and recorded objects (plain records)."""
        with self.state.lock:
            return [request_record(r) for r in self.state.cts.requests.values()]

    def create_transport_request(self, text: str, owner: str = "DEVELOPER") -> str:
        """A new modifiable request (one unclassified task for ``owner``); its number."""
        with self.state.lock:
            return self.state.cts.create_request(text, owner.upper()).number

    def _object(self, object_uri: str) -> RepoObject:
        obj = self.state.find(object_uri)
        if obj is None:
            raise EmulatorError(f"no such object: {object_uri}")
        return obj

    def describe(self) -> dict[str, Any]:
        """A JSON-able summary (used by the admin endpoint and the demo)."""
        return {
            "sid": self.sid,
            "client": self.client,
            "users": sorted(self.state.users),
            "objects": self.objects(),
            "locks": [asdict(lock) for lock in self.locks()],
        }
