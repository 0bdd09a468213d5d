"""Requests whose ``id`` is not a string or an integer get an error answer.

The SDK reads ``{"jsonrpc": "2.0", "id": {...}, "method": "tools/list"}`` as a notification
(the unknown ``id`` is ignored) and answers nothing, so a client that sent a malformed id
waits forever. JSON-RPC says such a request is invalid (-32600) and is answered with
``"id": null``. Checked before the SDK sees the message: over HTTP by an ASGI wrapper
(400), over stdio by a filter on the lines read from stdin.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import AsyncIterator
from io import TextIOWrapper
from typing import Any

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

INVALID_REQUEST = -32600
MAX_CHECKED_BODY = 4 * 1024 * 1024  # larger bodies are left to the SDK's own limits


def id_problem(message: Any) -> str | None:
    """Why the ``id`` of a JSON-RPC message (or of any message of a batch) is invalid."""
    messages = message if isinstance(message, list) else [message]
    for item in messages:
        if not isinstance(item, dict) or "id" not in item:
            continue
        value = item["id"]
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            shown = type(value).__name__ if value is not None else "null"
            return f"Invalid Request: the id must be a string or an integer, not {shown}"
    return None


def error_answer(problem: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": None, "error": {"code": INVALID_REQUEST, "message": problem}}


def problem_in(raw: bytes | str) -> str | None:
    try:
        return id_problem(json.loads(raw))
    except ValueError:
        return None  # not JSON: the SDK answers that itself


class RequestIdCheck:
    """ASGI: a POST whose JSON-RPC id is invalid is answered 400 with the error."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        messages, body = await _read_body(receive)
        problem = problem_in(body) if len(body) <= MAX_CHECKED_BODY else None
        if problem is not None:
            payload = json.dumps(error_answer(problem)).encode()
            headers = [(b"content-type", b"application/json")]
            await send({"type": "http.response.start", "status": 400, "headers": headers})
            await send({"type": "http.response.body", "body": payload})
            return
        await self.app(scope, _replay(messages, receive), send)


async def _read_body(receive: Receive) -> tuple[list[Message], bytes]:
    messages: list[Message] = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request" or not message.get("more_body", False):
            break
    body = b"".join(m.get("body", b"") for m in messages if m["type"] == "http.request")
    return messages, body


def _replay(messages: list[Message], receive: Receive) -> Receive:
    pending = list(messages)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed


class CheckedStdin:
    """The lines of stdin for the SDK's stdio transport, without those whose id is invalid:
    each of those is answered on ``answer`` (the transport's write stream) instead.

    Reads a private duplicate of fd 0 and points fd 0 at the null device, as the SDK does,
    so nothing else in the process can read the protocol's bytes."""

    def __init__(self) -> None:
        private = os.dup(sys.stdin.fileno())
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, sys.stdin.fileno())
        os.close(null)
        text = TextIOWrapper(os.fdopen(private, "rb"), encoding="utf-8", errors="replace")
        self._lines = anyio.wrap_file(text)
        self.answer: Any = None  # set once the transport's write stream exists

    async def __aiter__(self) -> AsyncIterator[str]:
        async for line in self._lines:
            problem = problem_in(line) if line.strip() else None
            if problem is None or self.answer is None:
                yield line
                continue
            from mcp.shared.message import SessionMessage
            from mcp_types.jsonrpc import jsonrpc_message_adapter

            answer = jsonrpc_message_adapter.validate_python(error_answer(problem))
            await self.answer.send(SessionMessage(answer))


__all__ = ["CheckedStdin", "RequestIdCheck", "id_problem"]
