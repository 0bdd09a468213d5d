"""Which router serves a call: the bridge's own, or in team mode the calling member's.

In team mode the HTTP gate names the member whose bearer token came with the request
(``scope["state"]["member"]``); each member has a router over their own connections (their
SAP user, sessions, cache and locks), built on their first call. Editor passthrough is off in
team mode: an editor window's session belongs to the person at that editor.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from adt.agent import AgentTools, ToolOutcome, WritePolicy
from adt.source.errors import AuthFailed
from adt.systems import Connections, Member, Team
from mcp_bridge.router import Router

MEMBER_KEY = "member"


class Routers:
    """The bridge's own router, or one per team member."""

    def __init__(
        self,
        own: Router,
        team: Team | None = None,
        *,
        member_router: Callable[[Member], Router] | None = None,
    ) -> None:
        self.own = own
        self.team = team if team else None
        self._member_router = member_router
        self._members: dict[str, Router] = {}

    def for_member(self, member: str | None) -> Router:
        if self.team is None:
            return self.own
        found = next((m for m in self.team.members if m.name == member), None)
        if found is None or self._member_router is None:
            raise AuthFailed("this team bridge did not recognise the caller's token")
        router = self._members.get(found.name)
        if router is None:
            router = self._members[found.name] = self._member_router(found)
        return router

    async def call(self, member: str | None, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        try:
            router = self.for_member(member)
        except AuthFailed as exc:
            return ToolOutcome(False, {**exc.to_dict(), "adtRequests": 0})
        return await router.call(name, arguments)

    async def close(self) -> None:
        routers = [self.own, *self._members.values()]
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
        connections = Connections(member.systems, source_config=template.source_config)
        tools = AgentTools(connections, policy=policy, max_response_chars=max_response_chars)
        return Router(tools, policy, None)

    return build


__all__ = ["MEMBER_KEY", "Routers", "member_router_factory"]
