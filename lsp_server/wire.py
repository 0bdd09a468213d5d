"""The stdio wire to the editor, and a fast path for the message that comes with every
keystroke.

pygls reads each header line through a thread pool and turns every message into lsprotocol
objects; for ``textDocument/didChange`` that costs far more than applying the change to our
buffer. Here the event loop reads the pipe itself (:class:`FramePipe`: one non-blocking read
per wake-up, frames cut out of the bytes as they complete, each handled at once); a
``didChange`` is parsed with orjson straight into ``(uri, version, changes)`` and applied to
the workspace, everything else goes through pygls unchanged. A message the fast path cannot
read exactly goes the pygls way too, which reports its errors as usual.

Keys arrive one frame at a time, with the server idle in between. Handing each frame from a
reader thread to the loop (a GIL hand-over, a wake-up through the loop's self-pipe, a queue
and a task step) cost about 240 µs of CPU a key; reading in the loop costs one ``read``. A
stdin that is not a pipe (a file, a terminal) is still read by a thread
(:func:`read_frames`), as blocking reads must not hold up the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import threading
from collections.abc import Callable
from typing import BinaryIO

import orjson

from lsp_server.documents import Change

DID_CHANGE = "textDocument/didChange"
_MARKER = DID_CHANGE.encode()
_SEARCHED = 4096  # bodies longer than this are searched for the method's name first
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
    message (or one whose shape is not exactly what the protocol says).

    One function without helpers: a key arrives after the server was idle, with its caches
    cold, and each further Python call it runs costs a few microseconds more then. A body
    of a key's size is parsed without looking for the method's name first (other small
    messages are rare, and parsing one twice costs microseconds); a large one (an opened
    text) is parsed here only if it names the method."""
    if len(body) > _SEARCHED and _MARKER not in body:
        return None
    try:
        message = orjson.loads(body)
        if message.get("method") != DID_CHANGE or "id" in message:
            return None
        params = message["params"]
        document = params["textDocument"]
        uri, version = document["uri"], document["version"]
        if type(uri) is not str or type(version) is not int:
            return None
        changes: list[Change] = []
        for change in params["contentChanges"]:
            text, span = change["text"], change.get("range")
            if type(text) is not str:
                return None
            if span is None:
                changes.append((None, None, text))
                continue
            start, end = span["start"], span["end"]
            line, column = start["line"], start["character"]
            end_line, end_column = end["line"], end["character"]
            if (
                type(line) is not int
                or type(column) is not int
                or type(end_line) is not int
                or type(end_column) is not int
                or line | column | end_line | end_column < 0  # one of them negative
            ):
                return None
            changes.append(((line, column), (end_line, end_column), text))
    except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError):
        return None
    return uri, version, changes


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


class FrameParser:
    """``Content-Length`` frames cut out of a byte stream as its pieces arrive (the same
    rules as :func:`_read_frame`: header lines end in ``\\n`` or ``\\r\\n``, unknown headers
    are ignored, blank lines before the headers are skipped)."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._length = -1  # the Content-Length read so far in this header
        self._body: int | None = None  # the length of the body being read

    def feed(self, data: bytes) -> list[bytes]:
        """The frames completed by ``data``; ``ValueError`` for a malformed length."""
        if not self._buffer and self._body is None and self._length < 0:
            whole = _one_frame(data)
            if whole is not None:
                return [whole]
        buffer = self._buffer
        buffer += data
        frames: list[bytes] = []
        at = 0
        while True:
            if self._body is not None:
                if len(buffer) - at < self._body:
                    break
                frames.append(bytes(buffer[at : at + self._body]))
                at, self._body = at + self._body, None
                continue
            end = buffer.find(b"\n", at)
            if end < 0:
                break
            line, at = bytes(buffer[at : end + 1]), end + 1
            self._header(line)
        del buffer[:at]
        return frames

    def _header(self, line: bytes) -> None:
        if line in (b"\r\n", b"\n"):
            if self._length >= 0:
                self._body, self._length = self._length, -1
            return
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
            if not 0 <= length <= MAX_FRAME:
                raise ValueError(f"a frame of {length} bytes")
            self._length = length


_LENGTH = b"Content-Length: "


def _one_frame(data: bytes) -> bytes | None:
    """The body when ``data`` is exactly one frame with the usual single header, as an
    editor writes each key: one search and one slice instead of a walk over its header
    lines. None for anything else, which the general path reads by the same rules."""
    if not data.startswith(_LENGTH):
        return None
    end = data.find(b"\r\n\r\n", len(_LENGTH))
    digits = data[len(_LENGTH) : end]
    if end < 0 or not digits.isdigit() or len(data) != end + 4 + int(digits):
        return None
    length = int(digits)
    return data[end + 4 :] if length <= MAX_FRAME else None


class FramePipe(asyncio.Protocol):
    """The editor's pipe read by the event loop: every complete frame goes to ``handle``
    as soon as it is read. ``closed`` resolves at EOF, or with the ``SystemExit`` that
    handling a frame raised (pygls' ``exit``), after which nothing more is read."""

    def __init__(self, handle: Callable[[bytes], None]) -> None:
        self._handle = handle
        self._parser = FrameParser()
        self._transport: asyncio.BaseTransport | None = None
        self.closed: asyncio.Future[SystemExit | None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        if self.closed.done():
            return
        try:
            for body in self._parser.feed(data):
                self._handle(body)
        except ValueError:
            self._finish(None)  # a broken frame: as the reader thread, stop there
        except SystemExit as exc:
            self._finish(exc)

    def eof_received(self) -> bool | None:
        self._finish(None)
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        self._finish(None)

    def _finish(self, result: SystemExit | None) -> None:
        if not self.closed.done():
            self.closed.set_result(result)
        if self._transport is not None:
            self._transport.close()


async def serve_frames(stdin: BinaryIO, handle: Callable[[bytes], None]) -> None:
    """Hand every frame from ``stdin`` to ``handle``, in order, until EOF; a ``SystemExit``
    from ``handle`` ends it and is raised again here."""
    loop = asyncio.get_running_loop()
    if _is_pipe(stdin):
        pipe = FramePipe(handle)
        await loop.connect_read_pipe(lambda: pipe, stdin)
        finished = await pipe.closed
        if finished is not None:
            raise finished
        return
    frames = FrameQueue(loop)
    frames.start_reading(stdin)
    while (body := await frames.next()) is not None:
        handle(body)


def _is_pipe(stream: BinaryIO) -> bool:
    try:
        return stat.S_ISFIFO(os.fstat(stream.fileno()).st_mode)
    except (OSError, ValueError, AttributeError):  # io.BytesIO and the like have no fd
        return False
