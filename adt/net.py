"""Listening sockets for our local servers (emulator, MCP over HTTP), and what their command
lines share: port numbers and the version."""

from __future__ import annotations

import argparse
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


def port_number(text: str) -> int:
    """An ``argparse`` type for ``--port``: a whole number from 0 (any free port) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port must be between 0 and 65535, not {port}")
    return port


def version() -> str:
    """The installed version of abap-adt (asked on demand: the metadata machinery is slow
    to import, and only ``--version`` and ``serverInfo`` need it)."""
    from importlib import metadata

    try:
        return metadata.version("abap-adt")
    except metadata.PackageNotFoundError:  # running from a checkout without installing
        return "unknown"


class VersionAction(argparse.Action):
    """``--version`` that looks the version up only when asked (importing the package
    metadata machinery costs a start-up that never prints it)."""

    def __init__(
        self, option_strings: list[str], dest: str = argparse.SUPPRESS, **_: object
    ) -> None:
        super().__init__(option_strings, dest=dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        print(f"abap-adt {version()}")
        parser.exit()
