"""Which router serves a call: the bridge's own, or in team mode the calling member's.

In team mode the HTTP gate names the member whose bearer token came with the request
(``scope["state"]["member"]``); each member has a router over their own connections (their
SAP user, sessions, cache and locks), built on their first call. Editor passthrough is off in
team mode: an editor window's session belongs to the person at that editor.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from adt.agent import AgentTools, ToolOutcome, WritePolicy
from adt.source.errors import AuthFailed
from adt.systems import Connections, Member, Team
from mcp_bridge.logons import member_refusal
from mcp_bridge.router import Router

MEMBER_KEY = "member"
log = logging.getLogger("mcp_bridge.team")
TeamLoader = Callable[[], Team]


class LiveTeam:
    """The team of ``systems.toml`` as it is now: read again when the file changes (checked
    at every request: one ``stat``) or when the process gets SIGHUP, so a revoked or
    rotated token takes effect without a restart. A file that no longer loads keeps the
    previous team and says so in the log (a typo must not lock every member out)."""

    def __init__(self, team: Team, path: Path | None = None, load: TeamLoader | None = None):
        self._team = team
        self._path = path
        self._load = load
        self._seen = self._signature()
        self._forced = False

    def __call__(self) -> Team:
        if self._load is not None and (self._forced or self._signature() != self._seen):
            self.reload()
        return self._team

    def __bool__(self) -> bool:
        return bool(self._team)

    def request_reload(self, *_: object) -> None:
        """For a signal handler: read the file again before the next request is served."""
        self._forced = True

    def reload(self) -> None:
        self._forced = False
        self._seen = self._signature()
        if self._load is None:
            return
        try:
            team = self._load()
        except Exception as exc:  # keep serving with the team we have
            log.error("the team in %s was not reloaded: %s", self._path, exc)
            return
        if not team:
            log.error("the team in %s was not reloaded: it has no members now", self._path)
            return
        self._team = team
        log.warning("team reloaded from %s: %d members", self._path, len(team.members))

    def _signature(self) -> tuple[int, int, int] | None:
        if self._path is None:
            return None
        try:
            info = self._path.stat()
        except OSError:
            return None
        return info.st_mtime_ns, info.st_size, info.st_ino


class Routers:
    """The bridge's own router, or one per team member."""

    def __init__(
        self,
        own: Router,
        team: Team | LiveTeam | None = None,
        *,
        member_router: Callable[[Member], Router] | None = None,
    ) -> None:
        self.own = own
        self.team = (team if isinstance(team, LiveTeam) else LiveTeam(team)) if team else None
        self._member_router = member_router
        self._members: dict[str, tuple[Member, Router]] = {}

    def for_member(self, member: str | None) -> Router:
        if self.team is None:
            return self.own
        found = next((m for m in self.team().members if m.name == member), None)
        if found is None or self._member_router is None:
            raise AuthFailed("this team bridge did not recognise the caller's token")
        known = self._members.get(found.name)
        if known is not None and known[0].systems == found.systems:
            return known[1]
        router = self._member_router(found)  # new, or their user or password changed
        self._members[found.name] = (found, router)
        return router

    async def call(self, member: str | None, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        try:
            router = self.for_member(member)
        except AuthFailed as exc:
            return ToolOutcome(False, {**exc.to_dict(), "adtRequests": 0})
        return await router.call(name, arguments)

    async def close(self) -> None:
        routers = [self.own, *(router for _, router in self._members.values())]
        self._members.clear()
        await asyncio.gather(*(r.close() for r in routers), return_exceptions=True)
        await asyncio.gather(
            *(r.local.connections.close() for r in routers), return_exceptions=True
        )


def member_router_factory(
    template: Connections, policy: WritePolicy, max_response_chars: int
) -> Callable[[Member], Router]:
    """Routers for members: the bridge's source settings, the member's own systems."""

    def build(member: Member) -> Router:
        connections = Connections(
            member.systems,
            source_config=template.source_config,
            open_browser=member_refusal(member.name),
        )
        tools = AgentTools(connections, policy=policy, max_response_chars=max_response_chars)
        return Router(tools, policy, None)

    return build


__all__ = ["MEMBER_KEY", "LiveTeam", "Routers", "member_router_factory"]
