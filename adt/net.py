"""Listening sockets for our local servers (emulator, MCP over HTTP)."""

from __future__ import annotations

import socket


def tcp_listener(host: str, port: int) -> socket.socket:
    """A bound, listening TCP socket for uvicorn's ``sockets=``.

    The protocol must be given as ``IPPROTO_TCP``: asyncio disables Nagle's algorithm only on
    sockets that say so, and without that every keep-alive response waited ~40 ms for the
    client's delayed ACK. Listening before the address is announced lets early clients queue.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock
