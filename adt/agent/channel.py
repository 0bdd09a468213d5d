"""The local channel between the MCP bridge and a language server (passthrough).

Newline-delimited JSON over a Unix socket (loopback TCP where Unix sockets do not exist).
The client must first say ``hello`` with the token from the announcement file; after that
it may send concurrent ``call`` requests, each answered by id:

    -> {"id": 1, "method": "hello", "params": {"token": "..."}}
    <- {"id": 1, "result": {"pid": 123, "systems": ["A4H"], "workspaces": ["file:///w"]}}
    -> {"id": 2, "method": "call", "params": {"name": "getObjectSourceV2",
        "arguments": {...}, "policy": {"readOnly": false, "allow": []},
        "maxResponseChars": 80000}}
    <- {"id": 2, "result": {"ok": true, "payload": {...}}}

``maxResponseChars`` (optional) is the bridge's response limit: the language server keeps the
answer within it exactly as the bridge would. The client gives up on a handshake after
``connect_timeout`` (2 s) and on a call after ``call_timeout`` (120 s: long enough for a real
save or activation); both raise :class:`ChannelError`, so a window that accepts but never
answers cannot hang the bridge.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import itertools
import json
import logging
import os
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson

from adt.agent.discovery import Announcement, announce, new_token, runtime_dir
from adt.agent.executor import AgentTools, ToolOutcome
from adt.agent.policy import WritePolicy

log = logging.getLogger("adt.agent.channel")
MAX_MESSAGE = 64 * 1024 * 1024
DEFAULT_CONNECT_TIMEOUT = 2.0  # seconds for the connection and the hello handshake
DEFAULT_CALL_TIMEOUT = 120.0  # seconds for one tool call (a save or activation included)
HELLO_TIMEOUT = 10.0  # the server drops a connection that does not say hello in time


async def _send(writer: asyncio.StreamWriter, lock: asyncio.Lock, message: dict[str, Any]) -> None:
    data = orjson.dumps(message) + b"\n"
    async with lock:
        writer.write(data)
        await writer.drain()


class ChannelServer:
    """Serves agent tool calls inside a language server, against its session and documents."""

    def __init__(
        self,
        tools: Callable[[WritePolicy], AgentTools],
        describe: Callable[[], dict[str, Any]],
        *,
        release: Callable[[str], Awaitable[None]] | None = None,
        directory: Path | None = None,
    ) -> None:
        self._tools = tools
        self._describe = describe
        self._release = release
        self._owners = itertools.count(1)
        self._directory = directory
        self._server: asyncio.AbstractServer | None = None
        self._announcement: Path | None = None
        self._socket_path: Path | None = None
        self._token = new_token()
        self._connections: set[asyncio.Task[None]] = set()

    async def start(self) -> Announcement:
        folder = self._directory or runtime_dir()
        pid = os.getpid()
        if hasattr(socket, "AF_UNIX"):
            self._socket_path = folder / f"lsp-{pid}.sock"
            with contextlib.suppress(FileNotFoundError):
                self._socket_path.unlink()
            self._server = await asyncio.start_unix_server(
                self._serve, path=str(self._socket_path), limit=MAX_MESSAGE
            )
            self._socket_path.chmod(0o600)
            address = str(self._socket_path)
        else:  # pragma: no cover - Windows
            self._server = await asyncio.start_server(
                self._serve, host="127.0.0.1", port=0, limit=MAX_MESSAGE
            )
            port = self._server.sockets[0].getsockname()[1]
            address = f"tcp:127.0.0.1:{port}"
        info = self._describe()
        announcement = Announcement(
            pid=pid,
            address=address,
            token=self._token,
            systems=info.get("systems", []),
            workspaces=info.get("workspaces", []),
            identities=info.get("identities", {}),
        )
        self._announcement = announce(announcement, folder)
        return announcement

    async def close(self) -> None:
        if self._announcement is not None:
            with contextlib.suppress(OSError):
                self._announcement.unlink()
            self._announcement = None
        if self._server is not None:
            self._server.close()
            for task in list(self._connections):
                task.cancel()
            await asyncio.gather(*self._connections, return_exceptions=True)
            await self._server.wait_closed()
            self._server = None
        if self._socket_path is not None:
            with contextlib.suppress(OSError):
                self._socket_path.unlink()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
        lock = asyncio.Lock()
        calls: set[asyncio.Task[None]] = set()
        owner = f"agent:{os.getpid()}:{next(self._owners)}"  # this connection's locks
        try:
            if not await self._handshake(reader, writer, lock):
                return
            while line := await reader.readline():
                call = asyncio.get_running_loop().create_task(
                    self._answer(_message(line), writer, lock, owner)
                )
                calls.add(call)
                call.add_done_callback(calls.discard)
        except (ConnectionError, ValueError, asyncio.IncompleteReadError, TimeoutError) as exc:
            log.info("agent channel closed: %s", exc)
        finally:
            for call in calls:
                call.cancel()
            writer.close()
            if task is not None:
                self._connections.discard(task)
            if self._release is not None:  # the agent went away: so do the locks it took
                await self._release(owner)

    async def _handshake(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, lock: asyncio.Lock
    ) -> bool:
        """The first message must be ``hello`` with the announcement's token; anything else
        (not JSON, not an object, a wrong token) is refused with a clean answer."""
        hello = _message(await asyncio.wait_for(reader.readline(), HELLO_TIMEOUT))
        params = hello.get("params")
        token = params.get("token", "") if isinstance(params, dict) else ""
        if hello.get("method") != "hello" or not hmac.compare_digest(str(token), self._token):
            refusal = {"id": hello.get("id"), "error": {"message": "bad token"}}
            await _send(writer, lock, refusal)
            return False
        await _send(
            writer, lock, {"id": hello["id"], "result": {"pid": os.getpid(), **self._describe()}}
        )
        return True

    async def _answer(
        self, message: dict[str, Any], writer: asyncio.StreamWriter, lock: asyncio.Lock, owner: str
    ) -> None:
        params = message.get("params")
        if message.get("method") != "call" or not isinstance(params, dict):
            error = {"message": "expected {'method': 'call', 'params': {...}}"}
            await _send(writer, lock, {"id": message.get("id"), "error": error})
            return
        policy_data = params.get("policy")
        if not isinstance(policy_data, dict):
            policy_data = {}
        policy = WritePolicy(
            read_only=bool(policy_data.get("readOnly", False)),
            allow=tuple(str(p) for p in policy_data.get("allow") or ()),
            allow_objects=tuple(str(p) for p in policy_data.get("allowObjects") or ()),
        )
        limit = params.get("maxResponseChars")
        try:
            outcome = await self._tools(policy).call(
                str(params.get("name", "")),
                arguments if isinstance(arguments := params.get("arguments"), dict) else {},
                owner=owner,
                max_response_chars=limit if isinstance(limit, int) and limit > 0 else None,
            )
        except Exception as exc:  # never leave the bridge waiting for an answer
            log.exception("agent call failed")
            await _send(writer, lock, {"id": message.get("id"), "error": {"message": str(exc)}})
            return
        await _send(
            writer,
            lock,
            {"id": message.get("id"), "result": {"ok": outcome.ok, "payload": outcome.payload}},
        )


def _message(line: bytes) -> dict[str, Any]:
    """One line of the channel as a JSON object; anything else is an empty message (which
    every step refuses cleanly)."""
    try:
        message = json.loads(line or b"null")
    except ValueError:
        return {}
    return message if isinstance(message, dict) else {}


class ChannelError(ConnectionError):
    """The language server behind a channel is gone, refused us or did not answer.

    ``delivered`` is true when a call had been sent when it failed: the language server may
    have run it (a write, too), so it must not simply be run again elsewhere."""

    def __init__(self, message: str, *, delivered: bool = False) -> None:
        super().__init__(message)
        self.delivered = delivered


class ChannelTimeout(ChannelError):
    """The language server did not answer within the time limit."""


class ChannelClient:
    """The bridge's end: one connection to one language server window."""

    def __init__(
        self,
        announcement: Announcement,
        *,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
    ) -> None:
        self.announcement = announcement
        self.connect_timeout = connect_timeout
        self.call_timeout = call_timeout
        self.systems: list[str] = list(announcement.systems)
        self.workspaces: list[str] = list(announcement.workspaces)
        self.identities: dict[str, dict[str, str]] = dict(announcement.identities)
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._listener: asyncio.Task[None] | None = None
        self.closed = False

    def serves(self, system: str) -> bool:
        return system.lower() in {s.lower() for s in self.systems}

    def identity(self, system: str) -> dict[str, str] | None:
        """The URL, client and user this window uses for ``system`` (None: not said)."""
        for name, identity in self.identities.items():
            if name.lower() == system.lower():
                return identity
        return None

    async def connect(self) -> None:
        """Connect and shake hands, within ``connect_timeout`` seconds."""
        try:
            await asyncio.wait_for(self._connect(), self.connect_timeout)
        except TimeoutError as exc:
            if self._writer is not None:
                self._writer.close()
            self.closed = True
            raise ChannelTimeout(
                f"the language server {self.announcement.pid} did not answer the handshake "
                f"within {self.connect_timeout:g} s"
            ) from exc

    async def _connect(self) -> None:
        address = self.announcement.address
        try:
            if address.startswith("tcp:"):
                _, host, port = address.split(":")
                reader, writer = await asyncio.open_connection(host, int(port), limit=MAX_MESSAGE)
            else:
                reader, writer = await asyncio.open_unix_connection(address, limit=MAX_MESSAGE)
        except (OSError, ValueError) as exc:
            raise ChannelError(f"cannot reach the language server {self.announcement.pid}") from exc
        self._reader, self._writer = reader, writer
        try:
            await _send(
                writer,
                self._lock,
                {"id": 0, "method": "hello", "params": {"token": self.announcement.token}},
            )
            answer = json.loads(await reader.readline() or b"{}")
        except (ConnectionError, ValueError) as exc:
            writer.close()
            raise ChannelError(f"the language server {self.announcement.pid} hung up") from exc
        if not isinstance(answer, dict) or "result" not in answer:
            writer.close()
            error = answer.get("error") if isinstance(answer, dict) else answer
            raise ChannelError(f"the language server refused the channel: {error}")
        self.systems = list(answer["result"].get("systems", []))
        self.workspaces = list(answer["result"].get("workspaces", []))
        self.identities = dict(answer["result"].get("identities", {}))
        self._listener = asyncio.get_running_loop().create_task(self._listen())

    async def _listen(self) -> None:
        assert self._reader is not None
        try:
            while line := await self._reader.readline():
                message = json.loads(line)
                future = self._pending.pop(message.get("id"), None)
                if future is not None and not future.done():
                    future.set_result(message)
        except (ConnectionError, ValueError):
            pass
        finally:
            self.closed = True
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(
                        ChannelError("the language server went away", delivered=True)
                    )
            self._pending.clear()

    async def call(
        self,
        name: str,
        arguments: dict[str, Any],
        policy: WritePolicy,
        *,
        max_response_chars: int | None = None,
    ) -> ToolOutcome:
        """Run a tool call in the language server, within ``call_timeout`` seconds (after
        which this channel is closed: its answer could no longer be matched safely)."""
        if self.closed or self._writer is None:
            raise ChannelError("the channel is closed")
        request_id = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        params: dict[str, Any] = {
            "name": name,
            "arguments": arguments,
            "policy": {
                "readOnly": policy.read_only,
                "allow": list(policy.allow),
                "allowObjects": list(policy.allow_objects),
            },
        }
        if max_response_chars:
            params["maxResponseChars"] = max_response_chars
        try:
            await asyncio.wait_for(
                _send(
                    self._writer,
                    self._lock,
                    {"id": request_id, "method": "call", "params": params},
                ),
                self.call_timeout,
            )
        except (ConnectionError, RuntimeError, TimeoutError) as exc:
            self._pending.pop(request_id, None)
            await self.close()
            raise ChannelError("the language server went away") from exc
        try:
            answer = await asyncio.wait_for(future, self.call_timeout)
        except TimeoutError as exc:
            self._pending.pop(request_id, None)
            await self.close()
            raise ChannelTimeout(
                f"the language server {self.announcement.pid} did not answer {name} within "
                f"{self.call_timeout:g} s",
                delivered=True,
            ) from exc
        if "result" not in answer:
            raise ChannelError(str(answer.get("error")), delivered=True)
        result = answer["result"]
        return ToolOutcome(bool(result["ok"]), dict(result["payload"]))

    async def close(self) -> None:
        self.closed = True
        if self._writer is not None:
            self._writer.close()
        if self._listener is not None and self._listener is not asyncio.current_task():
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
