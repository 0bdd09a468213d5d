"""``abap-adt emulator``: run the emulator in the foreground until Ctrl-C."""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path

import uvicorn

from adt.net import tcp_listener

from .emulator import DEFAULT_USERS, Emulator
from .logon import LogonPolicy
from .tls import ServerTls


def parse_users(values: list[str]) -> dict[str, str]:
    """``["NAME:PASSWORD", …]`` → ``{"NAME": "PASSWORD"}`` (names upper-cased)."""
    users: dict[str, str] = {}
    for value in values:
        name, sep, password = value.partition(":")
        if not sep or not name:
            raise ValueError(f"--user expects NAME:PASSWORD, got {name or value!r}")
        users[name.upper()] = password
    return users


def check_seeds(folders: list[str]) -> None:
    """Each ``--seed`` must be a folder holding abapGit files; an empty or mistyped one would
    otherwise serve nothing without a word."""
    for folder in folders:
        path = Path(folder)
        if not path.is_dir():
            raise ValueError(f"--seed {folder}: no such folder")
        if not any(path.rglob("*.abap")) and not any(path.rglob("*.xml")):
            raise ValueError(f"--seed {folder}: no abapGit files (*.abap, *.xml) in it")


def _pairs(values: list[str], separator: str, option: str, form: str) -> dict[str, str]:
    """``--option A<sep>B`` values as a mapping; a subject holds ``=`` itself, so it is
    split at the last ``=``, an OAuth client at the first ``:`` (a secret may hold one)."""
    pairs: dict[str, str] = {}
    for value in values:
        if separator == "=":
            name, sep, rest = value.rpartition("=")
        else:
            name, sep, rest = value.partition(separator)
        if not sep or not name or not rest:
            raise ValueError(f"{option} expects {form}, got {name or value!r}")
        pairs[name] = rest
    return pairs


def logon_from_args(args: argparse.Namespace) -> tuple[LogonPolicy, ServerTls | None]:
    """The logon procedures and the TLS setup the command line asks for."""
    policy = LogonPolicy(
        basic=not getattr(args, "no_basic", False),
        browser_sso=bool(getattr(args, "browser_sso", False)),
        certificate_users=_pairs(
            list(getattr(args, "certificate_user", None) or []),
            "=",
            "--certificate-user",
            "SUBJECT=USER",
        ),
        oauth_clients=_pairs(
            list(getattr(args, "oauth_client", None) or []), ":", "--oauth-client", "ID:SECRET"
        ),
    )
    certificate, key = getattr(args, "tls_certificate", None), getattr(args, "tls_key", None)
    if not certificate:
        if getattr(args, "client_ca", None) or policy.certificate_users:
            raise ValueError("client certificates need HTTPS: add --tls-certificate and --tls-key")
        return policy, None
    if not key:
        raise ValueError("--tls-certificate needs --tls-key")
    client_ca = getattr(args, "client_ca", None)
    return policy, ServerTls(
        Path(certificate),
        Path(key),
        Path(client_ca) if client_ca else None,
        bool(getattr(args, "require_client_certificate", False)),
    )


def run_from_args(args: argparse.Namespace) -> int:
    """Build the emulator from CLI arguments, print its base URL and serve."""
    try:
        users = parse_users(list(args.user or [])) or dict(DEFAULT_USERS)
        check_seeds(list(args.seed or []))
        policy, tls = logon_from_args(args)
    except ValueError as exc:
        print(f"abap-adt emulator: {exc}", file=sys.stderr)
        return 2
    try:
        emulator = Emulator(
            seed_dirs=list(args.seed or []),
            users=users,
            sid=args.sid,
            client=args.client,
            idle_timeout=1800.0 if args.idle_timeout is None else float(args.idle_timeout),
            activation_style=args.activation_style or "empty",
            admin=bool(args.admin),
            generate_requests=bool(getattr(args, "generate_requests", False)),
            logon=policy,
        )
    except (OSError, ValueError) as exc:
        print(f"abap-adt emulator: {exc}", file=sys.stderr)
        return 2
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    try:
        sock = tcp_listener(args.host, args.port)
    except OSError as exc:
        print(
            f"abap-adt emulator: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr
        )
        return 2
    port = sock.getsockname()[1]
    host = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    first_user = next(iter(users))
    scheme = "https" if tls else "http"
    print(
        f"ADT emulator listening on {scheme}://{host}:{port} "
        f"(SID {emulator.sid}, client {emulator.client}, user {first_user})",
        flush=True,
    )
    if args.admin:
        print(f"Admin endpoint: {scheme}://{host}:{port}/__emulator__/", flush=True)
    config = uvicorn.Config(
        emulator.app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        **(tls.uvicorn_options() if tls else {}),
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0
