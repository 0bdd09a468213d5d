"""The optional admin endpoint: JSON under ``/__emulator__/`` for out-of-process tests.

Off unless the emulator is built with ``admin=True``.  It needs no credentials, is
not logged in the request log and is not subject to fault injection, so a test can
always inspect and steer the emulator.
"""

from __future__ import annotations

import collections
import json
from collections.abc import Callable
from dataclasses import asdict
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from .faults import FaultInjector
from .state import EmulatorError, LockEntry, RequestLogEntry


class SteeredSystem(Protocol):
    """What the admin endpoint steers: the test-facing API of
    :class:`~adt.emulator.emulator.Emulator` (named here, so the endpoint does not import
    the facade that builds it)."""

    faults: FaultInjector

    @property
    def request_log(self) -> list[RequestLogEntry]: ...

    def locks(self) -> list[LockEntry]: ...
    def sessions(self) -> list[dict[str, Any]]: ...
    def contexts(self) -> list[dict[str, Any]]: ...
    def request_counts(self) -> collections.Counter[str]: ...
    def reset_request_log(self) -> None: ...
    def source(self, source_uri: str, version: str = "inactive") -> str | None: ...
    def expire_contexts(self, user: str | None = None) -> None: ...
    def expire_csrf_tokens(self) -> None: ...
    def lock_as(self, user: str, object_uri: str) -> str: ...
    def unlock_as(self, user: str, object_uri: str) -> None: ...
    def write_as(self, user: str, source_uri: str, text: str) -> None: ...
    def activate_all(self) -> int: ...


Handler = Callable[[dict[str, Any], Request], Response]


class AdminEndpoint:
    """Maps ``METHOD /__emulator__/<name>`` to the emulator's Python API."""

    def __init__(self, emulator: SteeredSystem) -> None:
        self.emu = emulator

    async def __call__(self, request: Request, path: str) -> Response:
        name = path[len("/__emulator__/") :].strip("/")
        method = request.method.upper()
        payload: dict[str, Any] = {}
        if method in ("POST", "PUT"):
            raw = await request.body()
            if raw:
                try:
                    loaded = json.loads(raw)
                except json.JSONDecodeError:
                    return JSONResponse({"error": "body must be JSON"}, status_code=400)
                if not isinstance(loaded, dict):
                    return JSONResponse({"error": "body must be a JSON object"}, status_code=400)
                payload = loaded
        try:
            return self._dispatch(method, name, payload, request)
        except EmulatorError as exc:
            return JSONResponse({"error": str(exc)}, status_code=409)
        except (KeyError, TypeError, ValueError) as exc:
            return JSONResponse({"error": f"bad request: {exc}"}, status_code=400)

    def _dispatch(
        self, method: str, name: str, payload: dict[str, Any], request: Request
    ) -> Response:
        handler = self._routes.get((method, name))
        if handler is None:
            return JSONResponse({"error": f"unknown admin call {method} {name}"}, status_code=404)
        return handler(payload, request)

    @property
    def _routes(self) -> dict[tuple[str, str], Handler]:
        emu, faults = self.emu, self.emu.faults
        return {
            ("GET", "locks"): lambda p, r: JSONResponse([asdict(lock) for lock in emu.locks()]),
            ("GET", "sessions"): lambda p, r: JSONResponse(emu.sessions()),
            ("GET", "contexts"): lambda p, r: JSONResponse(emu.contexts()),
            ("GET", "requests"): lambda p, r: JSONResponse([asdict(e) for e in emu.request_log]),
            ("GET", "requests/counts"): lambda p, r: JSONResponse(dict(emu.request_counts())),
            ("DELETE", "requests"): lambda p, r: _act(emu.reset_request_log),
            ("GET", "faults"): lambda p, r: JSONResponse(faults.pending()),
            ("DELETE", "faults"): lambda p, r: _act(faults.clear),
            ("POST", "faults/fail_next"): lambda p, r: _act(
                faults.fail_next,
                status=int(p.get("status", 503)),
                count=int(p.get("count", 1)),
                method=p.get("method"),
                path_prefix=p.get("path_prefix"),
            ),
            ("POST", "faults/latency"): lambda p, r: _act(
                faults.add_latency, float(p["seconds"]), path_prefix=p.get("path_prefix")
            ),
            ("POST", "faults/drop_next"): lambda p, r: _act(
                faults.drop_next,
                count=int(p.get("count", 1)),
                method=p.get("method"),
                path_prefix=p.get("path_prefix"),
            ),
            ("POST", "expire_contexts"): lambda p, r: _act(emu.expire_contexts, p.get("user")),
            ("POST", "expire_csrf_tokens"): lambda p, r: _act(emu.expire_csrf_tokens),
            ("POST", "lock_as"): lambda p, r: JSONResponse(
                {"handle": emu.lock_as(p["user"], p["object_uri"])}
            ),
            ("POST", "unlock_as"): lambda p, r: _act(emu.unlock_as, p["user"], p["object_uri"]),
            ("POST", "write_as"): lambda p, r: _act(
                emu.write_as, p["user"], p["source_uri"], p["text"]
            ),
            ("POST", "activate_all"): lambda p, r: JSONResponse({"activated": emu.activate_all()}),
            ("GET", "source"): self._source,
        }

    def _source(self, payload: dict[str, Any], request: Request) -> Response:
        query = request.query_params
        text = self.emu.source(query["uri"], query.get("version", "inactive"))
        if text is None:
            return JSONResponse({"error": "no such source"}, status_code=404)
        return PlainTextResponse(text)


def _act(action: Callable[..., object], *args: Any, **kwargs: Any) -> Response:
    """Run an admin call that only acts; its answer is ``{"ok": true}``."""
    action(*args, **kwargs)
    return JSONResponse({"ok": True})
