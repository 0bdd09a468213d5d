"""The stdio wire to the editor, and a fast path for the message that comes with every
keystroke.

pygls reads each header line through a thread pool and turns every message into lsprotocol
objects; for ``textDocument/didChange`` that costs far more than applying the change to our
buffer. Here one thread reads whole frames (``Content-Length`` + body) and hands them to the
event loop; a ``didChange`` is parsed with orjson straight into ``(uri, version, changes)``
and applied to the workspace, everything else goes through pygls unchanged. A message the
fast path cannot read exactly goes the pygls way too, which reports its errors as usual.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

import orjson

from lsp_server.documents import Change

DID_CHANGE = "textDocument/didChange"
_MARKER = DID_CHANGE.encode()
MAX_FRAME = 256 * 1024 * 1024


def read_frames(stdin: BinaryIO, deliver: Callable[[bytes | None], None]) -> None:
    """Read ``Content-Length`` framed messages until EOF (then deliver ``None``). Runs in a
    thread of its own: blocking reads never hold up the event loop."""
    try:
        while (body := _read_frame(stdin)) is not None:
            deliver(body)
    except (OSError, ValueError):
        pass  # the pipe closed under us: same as EOF
    deliver(None)


def _read_frame(stdin: BinaryIO) -> bytes | None:
    length = -1
    while True:
        line = stdin.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            if length >= 0:
                break
            continue
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
            if not 0 <= length <= MAX_FRAME:
                raise ValueError(f"a frame of {length} bytes")
    body = stdin.read(length)
    return body if len(body) == length else None


def parse_did_change(body: bytes) -> tuple[str, int, list[Change]] | None:
    """``(uri, version, changes)`` of a ``didChange`` notification, or None for any other
    message (or one whose shape is not exactly what the protocol says)."""
    if _MARKER not in body:
        return None
    try:
        message = orjson.loads(body)
        if message.get("method") != DID_CHANGE or "id" in message:
            return None
        params = message["params"]
        document = params["textDocument"]
        uri, version = document["uri"], document["version"]
        if not isinstance(uri, str) or type(version) is not int:
            return None
        changes = [_change(change) for change in params["contentChanges"]]
    except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, AttributeError):
        return None
    return uri, version, changes


def _change(change: dict[str, Any]) -> Change:
    text = change["text"]
    if not isinstance(text, str):
        raise TypeError("text")
    span = change.get("range")
    if span is None:
        return (None, None, text)
    return (_position(span["start"]), _position(span["end"]), text)


def _position(point: dict[str, Any]) -> tuple[int, int]:
    line, character = point["line"], point["character"]
    if type(line) is not int or type(character) is not int or line < 0 or character < 0:
        raise ValueError("position")
    return line, character


class FrameQueue:
    """Frames from the reader thread, in order, for the event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()

    def deliver(self, body: bytes | None) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody is listening
            self._loop.call_soon_threadsafe(self._queue.put_nowait, body)

    async def next(self) -> bytes | None:
        return await self._queue.get()

    def start_reading(self, stdin: BinaryIO) -> threading.Thread:
        thread = threading.Thread(
            target=read_frames, args=(stdin, self.deliver), name="lsp-stdin", daemon=True
        )
        thread.start()
        return thread
