"""A transport between a client and the in-process emulator that injects faults at exact
steps of the protocol: answer 503 before a matching request reaches the emulator, reset the
connection before it (nothing applied) or after it (applied, answer lost), or run an action
(expire the CSRF tokens, restart the emulator's sessions) just before or after it.

Steps are matched on method, path and query (``_action=UNLOCK``), so a fault can hit the
unlock and not the lock, or the PUT and not the GET."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import httpx

from adt import AdtClient, ConnectionProfile
from adt.emulator import Emulator
from support.emulated import USERS, no_sleep


@dataclass
class Fault:
    method: str
    path_part: str = ""
    query_part: str = ""
    kind: str = "fail"  # fail | reset-before | reset-after | before | after
    count: int = 1
    status: int = 503
    action: Callable[[], None] | None = None
    hits: int = 0

    def matches(self, request: httpx.Request) -> bool:
        return (
            self.count > 0
            and request.method == self.method
            and self.path_part in request.url.path
            and self.query_part in str(request.url.query, "ascii")
        )


@dataclass
class FaultyTransport(httpx.AsyncBaseTransport):
    emulator: Emulator
    faults: list[Fault] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._inner = httpx.ASGITransport(app=self.emulator.app)

    def add(self, fault: Fault) -> Fault:
        self.faults.append(fault)
        return fault

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        fault = next((f for f in self.faults if f.matches(request)), None)
        if fault is None:
            return await self._inner.handle_async_request(request)
        fault.count -= 1
        fault.hits += 1
        if fault.kind == "fail":
            return httpx.Response(fault.status, text="<html>Service Unavailable</html>")
        if fault.kind == "reset-before":
            raise httpx.ReadError("connection reset by peer (injected, before the server)")
        if fault.kind == "before" and fault.action is not None:
            fault.action()
        response = await self._inner.handle_async_request(request)
        await response.aread()
        if fault.kind == "reset-after":
            raise httpx.ReadError("connection reset by peer (injected, answer lost)")
        if fault.kind == "after" and fault.action is not None:
            fault.action()
        return response


def faulty_client(emulator: Emulator, user: str = "DEVELOPER") -> tuple[AdtClient, FaultyTransport]:
    transport = FaultyTransport(emulator)
    profile = ConnectionProfile(
        base_url="http://emulator",
        user=user,
        password=USERS[user],  # type: ignore[arg-type]
        name="A4H",
        retry_delays=(0.0, 0.0, 0.0),
    )
    return AdtClient(profile, transport=transport, sleep=no_sleep), transport


def restart(emulator: Emulator) -> Callable[[], None]:
    """What a restarted application server looks like to clients: every context (and its
    locks) gone, every CSRF token invalid."""

    def act() -> None:
        emulator.expire_contexts()
        emulator.expire_csrf_tokens()

    return act
