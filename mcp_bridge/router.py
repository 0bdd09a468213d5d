"""Where an agent's tool call runs: in an editor window (passthrough) or here.

When a language server of this project runs for the call's system, the call goes to it over
its local channel, so agent and editor share one ADT session, one lock owner and one view of
each document. Several windows can be connected; the call goes to the one serving its
``system`` (and ``workspace``, when given). A call without ``system`` is for the bridge's
default system (the first configured); only a bridge without systems of its own sends it to
the first window, whatever that window serves. A ``workspace`` that names no connected window
is an error (it is only there to pick a window). A window that disconnects is dropped, and
windows started later (or restarted after a crash) are found again on the next call. Without a
window for the system the bridge runs the call itself, with its own session.

A window that does not answer is not waited for: the handshake has ``connect_timeout``
seconds, a call ``call_timeout`` seconds. Such a window is disconnected and not tried again for
``retry_after`` seconds; a read is then run here, a write is answered with an error (the window
may have written), and both are logged.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from pathlib import Path
from typing import Any

from adt.agent import AgentTools, ToolOutcome, WritePolicy
from adt.agent.channel import (
    DEFAULT_CALL_TIMEOUT,
    DEFAULT_CONNECT_TIMEOUT,
    ChannelClient,
    ChannelError,
)
from adt.agent.discovery import Announcement, UnsafeRuntimeDir, discover, runtime_dir
from adt.agent.tools import BY_NAME
from adt.source.errors import InvalidArgument, NetworkError, SourceError, UnknownSystem

log = logging.getLogger("mcp_bridge.router")
DEFAULT_RETRY_AFTER = 30.0  # seconds before a window that failed is tried again


def _key(announcement: Announcement) -> tuple[int, float, str]:
    return announcement.pid, announcement.started, announcement.token


def _unique(names: list[str]) -> list[str]:
    seen: dict[str, str] = {}
    for name in names:
        seen.setdefault(name.lower(), name)
    return list(seen.values())


class Windows:
    """The editor windows (language servers) this bridge is connected to."""

    def __init__(
        self,
        directory: Path | None = None,
        *,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        retry_after: float = DEFAULT_RETRY_AFTER,
    ) -> None:
        self.directory = directory
        self.connect_timeout = connect_timeout
        self.call_timeout = call_timeout
        self.retry_after = retry_after
        self.clients: dict[int, ChannelClient] = {}
        self._connecting: dict[int, tuple[Announcement, asyncio.Task[None]]] = {}
        self._failed: dict[tuple[int, float, str], float] = {}  # announcement -> retry time
        self._refreshing = asyncio.Lock()
        self._stamp: int | None = None

    async def refresh(self) -> None:
        """Drop closed windows, start connecting to new ones, and wait for the connection
        attempts under way (each within the connect timeout). The lock guards only the
        bookkeeping, never a connection attempt: concurrent calls share the attempts, so a
        window that does not answer delays calls by at most one handshake time limit, once
        per ``retry_after``."""
        async with self._refreshing:
            for pid in [pid for pid, c in self.clients.items() if c.closed]:
                log.info("editor window %s disconnected", pid)
                del self.clients[pid]
            now = time.monotonic()
            expired = any(t <= now for t in self._failed.values())
            self._failed = {k: t for k, t in self._failed.items() if t > now}
            stamp = self._directory_stamp()
            if stamp is not None and stamp == self._stamp and not expired and not self._connecting:
                return  # nothing announced or withdrawn since the last look
            self._stamp = stamp
            try:
                found = discover(self.directory)
            except UnsafeRuntimeDir as exc:
                log.warning("not looking for editor windows: %s", exc)
                found = []
            for announcement in found:
                pid = announcement.pid
                if pid in self.clients or pid in self._connecting:
                    continue
                if _key(announcement) in self._failed:
                    continue
                task = asyncio.get_running_loop().create_task(self._connect(announcement))
                self._connecting[pid] = (announcement, task)
            waiting = [task for _, task in self._connecting.values()]
        if waiting:
            await asyncio.wait(waiting)

    async def _connect(self, announcement: Announcement) -> None:
        client = ChannelClient(
            announcement, connect_timeout=self.connect_timeout, call_timeout=self.call_timeout
        )
        try:
            await client.connect()
        except ChannelError as exc:
            log.warning(
                "skipping editor window %s for %g s: %s", announcement.pid, self.retry_after, exc
            )
            self._failed[_key(announcement)] = time.monotonic() + self.retry_after
        else:
            log.info("connected to editor window %s (%s)", announcement.pid, client.systems)
            self.clients[announcement.pid] = client
        finally:
            self._connecting.pop(announcement.pid, None)

    async def forget(self, client: ChannelClient, reason: BaseException) -> None:
        """Disconnect a window that failed; it is tried again after ``retry_after``."""
        log.warning(
            "disconnected editor window %s (not tried again for %g s): %s",
            client.announcement.pid,
            self.retry_after,
            reason,
        )
        self._failed[_key(client.announcement)] = time.monotonic() + self.retry_after
        if self.clients.get(client.announcement.pid) is client:
            del self.clients[client.announcement.pid]
        await client.close()

    def _directory_stamp(self) -> int | None:
        """When the announcement directory last changed (None: unknown). A window announces
        or withdraws itself by adding or removing a file, which changes it; so calls between
        changes skip reading the directory."""
        try:
            return (self.directory or runtime_dir()).stat().st_mtime_ns
        except (OSError, UnsafeRuntimeDir):
            return None

    def live(self) -> list[ChannelClient]:
        windows = [c for c in self.clients.values() if not c.closed]
        return sorted(windows, key=lambda c: c.announcement.started)

    def systems(self) -> list[str]:
        return _unique([s for c in self.live() for s in c.systems])

    async def route(
        self, system: str | None, workspace: str | None, *, explicit: bool = True
    ) -> ChannelClient | None:
        """The window for a call, or None to run it here. ``system`` is the call's system
        (``explicit``: named by the caller, rather than the bridge's default)."""
        await self.refresh()
        windows = self.live()
        if workspace:
            return self._for_workspace(windows, workspace, system, explicit)
        if system is None:
            return windows[0] if windows else None
        serving = [c for c in windows if c.serves(system)]
        return serving[0] if serving else None

    @staticmethod
    def _for_workspace(
        windows: list[ChannelClient], workspace: str, system: str | None, explicit: bool
    ) -> ChannelClient:
        """The window a ``workspace`` names: it must exist, and serve an explicit system."""
        matching = [c for c in windows if any(workspace in w for w in c.workspaces)]
        if not matching:
            folders = [w for c in windows for w in c.workspaces]
            raise InvalidArgument(
                f"no connected editor window has a workspace matching {workspace!r} "
                f"(connected: {', '.join(folders) or 'none'}); pass another workspace, or omit "
                "it to run the call with any window of the system or the bridge's own session",
                workspace=workspace,
                available=folders,
            )
        serving = [c for c in matching if system and c.serves(system)]
        if serving:
            return serving[0]
        if explicit and system:
            served = sorted({s for c in matching for s in c.systems})
            raise InvalidArgument(
                f"the editor window for workspace {workspace!r} does not serve system "
                f"{system!r} (it serves {', '.join(served) or 'none'})",
                workspace=workspace,
                system=system,
                available=served,
            )
        return matching[0]  # the workspace names the window; it uses its own default

    async def close(self) -> None:
        for _, task in list(self._connecting.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._connecting.clear()
        for client in self.clients.values():
            await client.close()
        self.clients.clear()


class Router:
    """Runs each call in the right place; the local tools are the fallback."""

    def __init__(
        self,
        local: AgentTools,
        policy: WritePolicy,
        windows: Windows | None = None,
    ) -> None:
        self.local = local
        self.policy = policy
        self.windows = windows

    def default_system(self) -> str | None:
        """The bridge's default system (the configured default, else the first)."""
        systems = self.local.connections.systems
        return (systems.default or systems.names[0]) if systems.names else None

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        if self.windows is None:
            return await self.local.call(name, arguments)
        started = time.perf_counter()
        named = arguments.get("system")
        explicit = isinstance(named, str) and bool(named)
        system = named if explicit else self.default_system()
        workspace = arguments.get("workspace")
        try:
            window = await self.windows.route(
                system, workspace if isinstance(workspace, str) else None, explicit=explicit
            )
        except SourceError as exc:
            return self._failure(exc, started)
        mismatch = self._mismatch(window, system)
        if window is not None and mismatch is None:
            forwarded = dict(arguments)
            if not explicit and system and window.serves(system):
                forwarded["system"] = system  # the bridge's default, not the window's
            outcome = await self._forward(window, name, forwarded, started)
            if outcome is not None:
                return outcome
        outcome = await self.local.call(name, arguments)
        if mismatch is not None:
            outcome.payload.setdefault("notes", []).append(mismatch)
        if not outcome.ok and outcome.payload.get("code") == UnknownSystem.code and explicit:
            self._list_window_systems(outcome, str(named))
        return outcome

    def _mismatch(self, window: ChannelClient | None, system: str | None) -> str | None:
        """Why a window serving a system of this name is not the bridge's system: another
        URL, client or user. A system the bridge does not know itself goes by name."""
        if window is None or system is None:
            return None
        try:
            own = self.local.connections.systems.get(system).identity
        except UnknownSystem:
            return None
        theirs = window.identity(system)
        if theirs is None or theirs == own:
            return None
        return (
            f"the editor window {window.announcement.pid} also calls a system {system!r}, but "
            f"it is {theirs.get('user')} on {theirs.get('url')} client {theirs.get('client')}, "
            f"not {own['user']} on {own['url']} client {own['client']}: this call ran with the "
            "bridge's own session"
        )

    async def _forward(
        self, window: ChannelClient, name: str, arguments: dict[str, Any], started: float
    ) -> ToolOutcome | None:
        """Run the call in the window; None when it must run here instead (the window failed
        before it could have acted, or the call only reads)."""
        assert self.windows is not None
        try:
            outcome = await window.call(
                name, arguments, self.policy, max_response_chars=self.local.max_response_chars
            )
        except ChannelError as exc:
            await self.windows.forget(window, exc)
            tool = BY_NAME.get(name)
            if exc.delivered and (tool is None or not tool.read_only):
                return self._failure(
                    NetworkError(
                        f"the editor window {window.announcement.pid} did not complete {name} "
                        f"({exc}); it was disconnected. The change may or may not have been "
                        "made: read the source again before retrying.",
                        window=window.announcement.pid,
                        tool=name,
                    ),
                    started,
                    retry_action="getObjectSourceV2",
                )
            log.warning("running %s here instead", name)
            return None
        outcome.payload["via"] = f"editor:{window.announcement.pid}"
        return outcome

    def _list_window_systems(self, outcome: ToolOutcome, system: str) -> None:
        """An unknown system: list the editor windows' systems beside the bridge's own."""
        assert self.windows is not None
        served = self.windows.systems()
        if not served:
            return  # the bridge's own answer already lists (or asks for) its systems
        available = _unique([*self.local.connections.systems.names, *served])
        details = outcome.payload.setdefault("details", {})
        details["available"] = available
        details["system"] = system
        outcome.payload["error"] = (
            f"unknown system {system!r}; available: {', '.join(available) or 'none'}"
        )

    @staticmethod
    def _failure(
        exc: SourceError, started: float, *, retry_action: str | None = None
    ) -> ToolOutcome:
        payload = exc.to_dict()
        if retry_action is not None:
            payload["retryAction"] = retry_action
        payload["executionTimeMs"] = round((time.perf_counter() - started) * 1000, 1)
        payload["adtRequests"] = 0  # refused while routing, before any ADT request
        return ToolOutcome(False, payload)

    async def close(self) -> None:
        if self.windows is not None:
            await self.windows.close()
