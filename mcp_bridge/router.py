"""Where an agent's tool call runs: in an editor window (passthrough) or here.

When a language server of this project runs for the call's system, the call goes to it over
its local channel, so agent and editor share one ADT session, one lock owner and one view of
each document. Several windows can be connected; the call goes to the one serving its
``system`` (and ``workspace``, when given). A window that disconnects is dropped, and windows
started later (or restarted after a crash) are found again on the next call. Without a
window for the system the bridge runs the call itself, with its own session.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

from adt.agent import AgentTools, ToolOutcome, WritePolicy
from adt.agent.channel import ChannelClient, ChannelError
from adt.agent.discovery import discover

log = logging.getLogger("mcp_bridge.router")


class Windows:
    """The editor windows (language servers) this bridge is connected to."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory
        self.clients: dict[int, ChannelClient] = {}
        self._refreshing = asyncio.Lock()

    async def refresh(self) -> None:
        async with self._refreshing:
            for pid in [pid for pid, c in self.clients.items() if c.closed]:
                log.info("editor window %s disconnected", pid)
                del self.clients[pid]
            for announcement in discover(self.directory):
                if announcement.pid in self.clients:
                    continue
                client = ChannelClient(announcement)
                try:
                    await client.connect()
                except ChannelError as exc:
                    log.info("skipping editor window %s: %s", announcement.pid, exc)
                    continue
                self.clients[announcement.pid] = client

    async def route(self, system: str | None, workspace: str | None) -> ChannelClient | None:
        await self.refresh()
        candidates = [c for c in self.clients.values() if not c.closed]
        if system:
            candidates = [c for c in candidates if system.lower() in {s.lower() for s in c.systems}]
        if workspace:
            chosen = [c for c in candidates if any(workspace in w for w in c.workspaces)]
            candidates = chosen or candidates
        return candidates[0] if candidates else None

    async def close(self) -> None:
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

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        if self.windows is not None:
            window = await self.windows.route(arguments.get("system"), arguments.get("workspace"))
            if window is not None:
                try:
                    outcome = await window.call(name, arguments, self.policy)
                except ChannelError as exc:
                    log.warning(
                        "editor window %s failed (%s); running locally",
                        window.announcement.pid,
                        exc,
                    )
                else:
                    outcome.payload["via"] = f"editor:{window.announcement.pid}"
                    return outcome
        return await self.local.call(name, arguments)

    async def close(self) -> None:
        if self.windows is not None:
            await self.windows.close()
