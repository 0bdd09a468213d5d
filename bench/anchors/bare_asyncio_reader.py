"""Floor: an asyncio program that reads LSP frames from its stdin pipe in the event loop,
parses each body with orjson and answers every request with MethodNotFound — no documents,
no work. What one frame costs any Python server on an event loop; the paced keystroke
benchmark runs it beside ours.

    python bench/anchors/bare_asyncio_reader.py
"""

from __future__ import annotations

import asyncio
import sys

import orjson


class Frames(asyncio.Protocol):
    def __init__(self, done: asyncio.Future[None]) -> None:
        self.buffer = b""
        self.done = done

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while (end := self.buffer.find(b"\r\n\r\n")) >= 0:
            headers = dict(
                line.split(b":", 1) for line in self.buffer[:end].split(b"\r\n") if b":" in line
            )
            length = int(headers[b"Content-Length"])
            if len(self.buffer) < end + 4 + length:
                return
            body, self.buffer = (
                self.buffer[end + 4 : end + 4 + length],
                self.buffer[end + 4 + length :],
            )
            message = orjson.loads(body)
            if "id" in message:
                error = {"code": -32601, "message": "method not found"}
                answer = orjson.dumps({"jsonrpc": "2.0", "id": message["id"], "error": error})
                sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n%s" % (len(answer), answer))
                sys.stdout.buffer.flush()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(None)


async def main() -> None:
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    await asyncio.get_running_loop().connect_read_pipe(lambda: Frames(done), sys.stdin.buffer)
    await done


if __name__ == "__main__":
    asyncio.run(main())
