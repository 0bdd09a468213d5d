"""Fault injection: latency, error answers and dropped connections for tests."""

from __future__ import annotations

import threading
from dataclasses import dataclass


@dataclass
class _Rule:
    kind: str  # "latency" | "fail" | "drop" | "outage"
    method: str | None
    path_prefix: str | None
    remaining: int | None  # None: applies until cleared
    status: int = 503
    seconds: float = 0.0

    def matches(self, method: str, path: str) -> bool:
        if self.method is not None and self.method.upper() != method.upper():
            return False
        return self.path_prefix is None or path.startswith(self.path_prefix)


@dataclass(frozen=True)
class Decision:
    """What to do with one request before it reaches the protocol layer."""

    latency: float = 0.0
    fail_status: int | None = None
    drop: bool = False


class FaultInjector:
    """Rules that tests add; each request consumes at most one fail/drop rule."""

    def __init__(self, lock: threading.RLock | None = None) -> None:
        self._lock = lock or threading.RLock()
        self._rules: list[_Rule] = []

    def add_latency(
        self, seconds: float, path_prefix: str | None = None, method: str | None = None
    ) -> None:
        """Delay every matching request by ``seconds`` until :meth:`clear`."""
        with self._lock:
            self._rules.append(_Rule("latency", method, path_prefix, None, seconds=seconds))

    def fail_next(
        self,
        status: int = 503,
        count: int = 1,
        method: str | None = None,
        path_prefix: str | None = None,
    ) -> None:
        """Answer the next ``count`` matching requests with ``status``; nothing is applied."""
        with self._lock:
            self._rules.append(_Rule("fail", method, path_prefix, count, status=status))

    def drop_next(
        self, count: int = 1, method: str | None = None, path_prefix: str | None = None
    ) -> None:
        """Close the connection of the next ``count`` matching requests without an answer."""
        with self._lock:
            self._rules.append(_Rule("drop", method, path_prefix, count))

    def outage_from(
        self, status: int = 503, method: str | None = None, path_prefix: str | None = None
    ) -> None:
        """From the next matching request on, answer **every** request with ``status`` until
        :meth:`clear` (an application server that goes down in the middle of a write)."""
        with self._lock:
            self._rules.append(_Rule("outage", method, path_prefix, None, status=status))

    def clear(self) -> None:
        """Remove every rule."""
        with self._lock:
            self._rules.clear()

    def pending(self) -> list[dict[str, object]]:
        """The rules still in force (for the admin endpoint)."""
        with self._lock:
            return [
                {
                    "kind": r.kind,
                    "method": r.method,
                    "path_prefix": r.path_prefix,
                    "remaining": r.remaining,
                    "status": r.status,
                    "seconds": r.seconds,
                }
                for r in self._rules
            ]

    def decide(self, method: str, path: str) -> Decision:
        """Consume the rules that apply to this request."""
        with self._lock:
            latency = sum(
                r.seconds for r in self._rules if r.kind == "latency" and r.matches(method, path)
            )
            for rule in self._rules:
                if rule.kind == "outage" and (rule.method is None or rule.matches(method, path)):
                    rule.method = rule.path_prefix = None  # begun: it now matches everything
                    return Decision(latency=latency, fail_status=rule.status)
                if rule.kind in ("latency", "outage") or not rule.matches(method, path):
                    continue
                assert rule.remaining is not None
                rule.remaining -= 1
                if rule.remaining <= 0:
                    self._rules.remove(rule)
                if rule.kind == "drop":
                    return Decision(latency=latency, drop=True)
                return Decision(latency=latency, fail_status=rule.status)
            return Decision(latency=latency)
