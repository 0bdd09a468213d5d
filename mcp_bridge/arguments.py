"""The bridge's command-line options (shared by ``abap-adt mcp`` and ``python -m mcp_bridge``).

Imports nothing heavy, so building the parser stays fast."""

from __future__ import annotations

import argparse

from adt.net import VersionAction, port_number


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--transport", choices=["stdio", "http"], default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
    parser.add_argument("--port", type=port_number, default=0, help="HTTP port; 0 picks a free one")
    parser.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another name clients may reach the HTTP server by (repeatable; the machine's "
        "own names are accepted when --host is not loopback)",
    )
    parser.add_argument(
        "--tls-cert", default=None, metavar="PEM", help="serve HTTPS with this certificate"
    )
    parser.add_argument(
        "--tls-key", default=None, metavar="PEM", help="the certificate's private key"
    )
    parser.add_argument(
        "--insecure-http",
        action="store_true",
        help="allow plain HTTP on a non-loopback --host (the token travels unencrypted)",
    )
    parser.add_argument("--read-only", action="store_true", help="refuse every write")
    parser.add_argument(
        "--allow-data-preview",
        action="store_true",
        help="let agents read table and CDS entity rows (objectStructure with rows)",
    )
    parser.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="PACKAGE",
        help="only objects in these packages may be written (repeatable, * wildcards)",
    )
    parser.add_argument(
        "--allow-object",
        action="append",
        default=[],
        metavar="NAME",
        help="within the --allow packages, only these objects (repeatable, * wildcards)",
    )
    parser.add_argument(
        "--no-passthrough",
        action="store_true",
        help="never forward calls to a running language server",
    )


def parser() -> argparse.ArgumentParser:
    result = argparse.ArgumentParser(
        prog="python -m mcp_bridge", description="The abap-adt MCP bridge (same as abap-adt mcp)."
    )
    result.add_argument("--version", action=VersionAction)
    add_arguments(result)
    return result
