"""The ``abap-adt`` command: one entry point whose subcommands grow with the project.

Each subcommand imports its implementation lazily so that ``abap-adt --help`` stays fast
and works even when an optional piece fails to import.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from adt.heap import pause_collection
from adt.net import VersionAction, port_number
from lsp_server.arguments import add_arguments as add_lsp_arguments
from mcp_bridge.arguments import add_arguments as add_mcp_arguments


def _add_emulator_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=port_number, default=0, help="port to listen on; 0 picks a free one"
    )
    parser.add_argument(
        "--seed",
        action="append",
        default=[],
        metavar="DIR",
        help="abapGit-format folder to load (repeatable); default: the built-in sample set",
    )
    parser.add_argument(
        "--user",
        action="append",
        default=[],
        metavar="NAME:PASSWORD",
        help="a user that may log on (repeatable); default: DEVELOPER:developer",
    )
    parser.add_argument("--sid", default="A4H", help="system id (default A4H)")
    parser.add_argument("--client", default="001", help="SAP client (default 001)")
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="idle lifetime of a stateful context (default 1800)",
    )
    parser.add_argument(
        "--activation-style",
        choices=["empty", "messages"],
        default=None,
        help="how a successful activation answers: A4H's empty 200 or a chkl:messages document",
    )
    parser.add_argument(
        "--generate-requests",
        action="store_true",
        help="book changes without corrNr in transportable packages into a generated request "
        "(A4H's behaviour) instead of refusing them",
    )
    parser.add_argument(
        "--admin",
        action="store_true",
        help="enable the test-support admin endpoint under /__emulator__/ (off by default)",
    )
    _add_logon_arguments(parser)


def _add_logon_arguments(parser: argparse.ArgumentParser) -> None:
    """How the emulator lets users log on (docs/systems.md shows each method end to end)."""
    logon = parser.add_argument_group("logon")
    logon.add_argument("--tls-certificate", metavar="PEM", help="serve HTTPS with this certificate")
    logon.add_argument("--tls-key", metavar="PEM", help="the key of --tls-certificate")
    logon.add_argument(
        "--client-ca", metavar="PEM", help="accept client certificates issued by this CA"
    )
    logon.add_argument(
        "--require-client-certificate",
        action="store_true",
        help="refuse TLS connections without a client certificate",
    )
    logon.add_argument(
        "--certificate-user",
        action="append",
        default=[],
        metavar="SUBJECT=USER",
        help="map a certificate subject or its common name to a user (repeatable)",
    )
    logon.add_argument(
        "--no-basic", action="store_true", help="refuse user and password (basic authentication)"
    )
    logon.add_argument(
        "--oauth-client",
        action="append",
        default=[],
        metavar="ID:SECRET",
        help="serve OAuth 2.0 under /oauth/ for this client (repeatable)",
    )
    logon.add_argument(
        "--browser-sso",
        action="store_true",
        help="offer single sign-on through the browser (reentrance tickets)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="abap-adt",
        description="Edit ABAP on SAP systems through ADT: client, emulator, language server, MCP.",
    )
    parser.add_argument("--version", action=VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    emulator = sub.add_parser("emulator", help="run the local ADT emulator")
    _add_emulator_arguments(emulator)

    demo = sub.add_parser("demo", help="start the emulator and show a full edit cycle")
    demo.add_argument(
        "--port", type=port_number, default=0, help="emulator port; 0 picks a free one"
    )
    demo.add_argument(
        "--no-serve",
        action="store_true",
        help="exit after the cycle instead of serving until Ctrl-C",
    )

    add_lsp_arguments(sub.add_parser("lsp", help="run the language server on stdio"))
    add_mcp_arguments(sub.add_parser("mcp", help="run the MCP bridge"))
    logon = sub.add_parser("logon", help="log on to a system in the browser now, and remember it")
    logon.add_argument("system", help="the system to log on to (a name of systems.toml)")
    logon.add_argument("--member", help="log on as this team member ([team.NAME]) instead")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:  # a usage error, like any other missing argument
        parser.print_usage(sys.stderr)
        print("abap-adt: choose a command (abap-adt --help lists them)", file=sys.stderr)
        return 2
    if args.command == "emulator":
        from adt.emulator.server import run_from_args

        return run_from_args(args)
    if args.command == "demo":
        from adt.app.demo import run_demo

        return run_demo(args)
    if args.command == "logon":
        from adt.app.logon import run_logon

        return run_logon(args)
    if args.command in ("lsp", "mcp"):
        pause_collection()  # until the server is built: see adt.heap
    if args.command == "lsp":
        from lsp_server.factory import run_stdio

        return run_stdio(args)
    if args.command == "mcp":
        from mcp_bridge.server import run_from_args as run_mcp

        return run_mcp(args)
    parser.error(f"unknown command {args.command!r}")
    return 2  # pragma: no cover - parser.error exits


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
