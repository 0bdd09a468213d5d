"""uvicorn's HTTP/1.1 protocol, hardened for a server others can reach.

A flood of connections that send half a request and reconnect must not starve the callers
with a token, nor may a caller with a token hold connections by sending its body slowly:

* a request head must arrive within ``header_timeout`` seconds of connecting (or of the
  last answer): nothing is authenticated before the head, so this wait is kept short;
* one client address holds at most ``max_per_client`` connections; more are closed at once;
* at ``max_connections`` a connection that has not sent a whole request head yet is closed
  to make room: the oldest of the client address that holds the most connections, so a
  flood's half-sent requests make room for each other, not at a lone caller's expense;
  only when every connection is busy with a request is the new one closed;
* a request body must keep up ``min_body_rate`` bytes a second after a grace of
  ``header_timeout``, or the connection is closed.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from dataclasses import dataclass

from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("mcp_bridge.http")


@dataclass(frozen=True)
class ConnectionLimits:
    header_timeout: float = 5.0
    max_connections: int = 256
    max_per_client: int = 32
    min_body_rate: int = 4096


def guarded_protocol(limits: ConnectionLimits) -> type[H11Protocol]:
    """An H11Protocol class enforcing ``limits`` (one class per server: it counts the
    connections of each client address)."""
    per_address: Counter[str] = Counter()

    class GuardedH11Protocol(H11Protocol):
        _timer: asyncio.TimerHandle | None = None
        _address: str | None = None
        _seen_head = False
        _since = 0.0
        _body_started = 0.0
        _body_bytes = 0

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._since = self.loop.time()
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"
            if per_address[address] >= limits.max_per_client:
                log.warning(
                    "more than %d connections from one client address: closing new ones",
                    limits.max_per_client,
                )
                transport.close()
                return
            self._address = address
            per_address[address] += 1
            if len(self.connections) > limits.max_connections and not self._make_room():
                log.warning("more than %d connections: closing new ones", limits.max_connections)
                transport.close()
                return
            self._start_header_timer()

        def data_received(self, data: bytes) -> None:
            waiting_for_head = self.cycle is None or self.cycle.response_complete
            super().data_received(data)
            cycle = self.cycle
            if cycle is None or cycle.response_complete:
                return
            self._seen_head = True
            if waiting_for_head:  # a whole request head has arrived with this data
                self._body_started, self._body_bytes = self.loop.time(), len(cycle.body)
                self._watch_body()
            else:
                self._body_bytes += len(data)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._start_header_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel_timer()
            if self._address is not None:
                per_address[self._address] -= 1
                if per_address[self._address] <= 0:
                    del per_address[self._address]
                self._address = None
            super().connection_lost(exc)

        def _make_room(self) -> bool:
            """Close the oldest connection still without a request head; False: none."""
            idle = [
                c
                for c in self.connections
                if isinstance(c, GuardedH11Protocol) and c is not self and not c._seen_head
            ]
            if not idle:
                return False
            heaviest = max(per_address[str(c._address)] for c in idle)
            oldest = min(
                (c for c in idle if per_address[str(c._address)] == heaviest),
                key=lambda c: c._since,
            )
            log.info("connection cap reached: closing a connection that sent no request yet")
            oldest._cancel_timer()
            oldest.transport.close()
            return True

        def _start_header_timer(self) -> None:
            self._cancel_timer()
            self._timer = self.loop.call_later(limits.header_timeout, self._no_head_in_time)

        def _cancel_timer(self) -> None:
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

        def _no_head_in_time(self) -> None:
            if self.cycle is None or self.cycle.response_complete:
                log.info("closing a connection that sent no request in time")
                self.transport.close()

        def _watch_body(self) -> None:
            """Check the body at the moment it must have reached its minimum rate."""
            self._cancel_timer()
            cycle = self.cycle
            if cycle is None or not cycle.more_body or cycle.response_complete:
                return
            due = (
                self._body_started + limits.header_timeout + self._body_bytes / limits.min_body_rate
            )
            if self.loop.time() >= due:
                log.info("closing a connection whose request body came too slowly")
                self.transport.close()
                return
            self._timer = self.loop.call_at(due, self._watch_body)

    return GuardedH11Protocol


__all__ = ["ConnectionLimits", "guarded_protocol"]
