"""Our listening sockets: accepted connections must have Nagle's algorithm off."""

from __future__ import annotations

import asyncio
import socket

import pytest

from adt.net import tcp_listener


async def test_accepted_connections_have_tcp_nodelay() -> None:
    seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    class Probe(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            sock = transport.get_extra_info("socket")
            seen.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            transport.close()

    listener = tcp_listener("127.0.0.1", 0)
    server = await asyncio.get_running_loop().create_server(Probe, sock=listener)
    try:
        port = listener.getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        assert await asyncio.wait_for(seen, 5) == 1
        writer.close()
    finally:
        server.close()
        await server.wait_closed()


def test_a_busy_port_is_an_error() -> None:
    first = tcp_listener("127.0.0.1", 0)
    try:
        with pytest.raises(OSError, match=r"[Aa]ddress"):
            tcp_listener("127.0.0.1", first.getsockname()[1])
    finally:
        first.close()
