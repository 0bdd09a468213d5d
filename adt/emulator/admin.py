"""The optional admin endpoint: JSON under ``/__emulator__/`` for out-of-process tests.

Off unless the emulator is built with ``admin=True``.  It needs no credentials, is
not logged in the request log and is not subject to fault injection, so a test can
always inspect and steer the emulator.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from .state import EmulatorError

if TYPE_CHECKING:
    from .emulator import Emulator


class AdminEndpoint:
    """Maps ``METHOD /__emulator__/<name>`` to the emulator's Python API."""

    def __init__(self, emulator: Emulator) -> None:
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
        emu = self.emu
        faults = emu.faults
        if method == "GET" and name == "locks":
            return JSONResponse([asdict(lock) for lock in emu.locks()])
        if method == "GET" and name == "sessions":
            return JSONResponse(emu.sessions())
        if method == "GET" and name == "contexts":
            return JSONResponse(emu.contexts())
        if method == "GET" and name == "requests":
            return JSONResponse([asdict(e) for e in emu.request_log])
        if method == "GET" and name == "requests/counts":
            return JSONResponse(dict(emu.request_counts()))
        if method == "DELETE" and name == "requests":
            emu.reset_request_log()
            return JSONResponse({"ok": True})
        if method == "GET" and name == "faults":
            return JSONResponse(faults.pending())
        if method == "DELETE" and name == "faults":
            faults.clear()
            return JSONResponse({"ok": True})
        if method == "POST" and name == "faults/fail_next":
            faults.fail_next(
                status=int(payload.get("status", 503)),
                count=int(payload.get("count", 1)),
                method=payload.get("method"),
                path_prefix=payload.get("path_prefix"),
            )
            return JSONResponse({"ok": True})
        if method == "POST" and name == "faults/latency":
            faults.add_latency(float(payload["seconds"]), path_prefix=payload.get("path_prefix"))
            return JSONResponse({"ok": True})
        if method == "POST" and name == "faults/drop_next":
            faults.drop_next(
                count=int(payload.get("count", 1)),
                method=payload.get("method"),
                path_prefix=payload.get("path_prefix"),
            )
            return JSONResponse({"ok": True})
        if method == "POST" and name == "expire_contexts":
            emu.expire_contexts(payload.get("user"))
            return JSONResponse({"ok": True})
        if method == "POST" and name == "expire_csrf_tokens":
            emu.expire_csrf_tokens()
            return JSONResponse({"ok": True})
        if method == "POST" and name == "lock_as":
            handle = emu.lock_as(payload["user"], payload["object_uri"])
            return JSONResponse({"handle": handle})
        if method == "POST" and name == "unlock_as":
            emu.unlock_as(payload["user"], payload["object_uri"])
            return JSONResponse({"ok": True})
        if method == "POST" and name == "write_as":
            emu.write_as(payload["user"], payload["source_uri"], payload["text"])
            return JSONResponse({"ok": True})
        if method == "POST" and name == "activate_all":
            return JSONResponse({"activated": emu.activate_all()})
        if method == "GET" and name == "source":
            text = emu.source(
                request.query_params["uri"], request.query_params.get("version", "inactive")
            )
            if text is None:
                return JSONResponse({"error": "no such source"}, status_code=404)
            return PlainTextResponse(text)
        return JSONResponse({"error": f"unknown admin call {method} {name}"}, status_code=404)
