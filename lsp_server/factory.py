"""Building and running the language server: :func:`create_server` wires the server object
and every handler module; :func:`run_stdio` is ``abap-adt lsp``. Nothing happens at import."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from typing import BinaryIO, NoReturn

from adt import logs
from lsp_server.handlers import (
    documents,
    formatting,
    hierarchy,
    hints,
    intelligence,
    logons,
    refactoring,
    requests,
    semantic,
    state,
    symbols,
    workbench,
)
from lsp_server.server import AdtLanguageServer

HANDLERS = (
    documents,
    requests,
    state,
    symbols,
    intelligence,
    hierarchy,
    hints,
    refactoring,
    semantic,
    formatting,
    workbench,
    logons,
)


def create_server() -> AdtLanguageServer:
    """A new language server with every handler registered; configured at ``initialize``."""
    server = AdtLanguageServer()
    for module in HANDLERS:
        module.register(server)
    return server


def run_stdio(args: argparse.Namespace | None = None) -> NoReturn:
    """``abap-adt lsp``: serve on stdin/stdout. Logs go to a file, never to stdout."""
    log_file = getattr(args, "log_file", None) or os.environ.get("ABAP_ADT_LSP_LOG")
    try:
        handler = logs.private_file_handler(log_file) if log_file else logging.NullHandler()
    except OSError as exc:
        print(
            f"abap-adt lsp: cannot write the log file {log_file}: {exc.strerror}", file=sys.stderr
        )
        raise SystemExit(2) from None
    logs.configure(logging.INFO, handler, "%(asctime)s %(name)s %(levelname)s %(message)s")
    logging.getLogger("pygls").setLevel(logging.WARNING)
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() must never corrupt the protocol stream
    server = create_server()
    server.start_io(sys.stdin.buffer, stdout)
    _leave(server.exit_code, stdout)


def _leave(code: int, stdout: BinaryIO) -> NoReturn:
    """End the process now that everything is released. A thread reading stdin (when it is
    not a pipe: see lsp_server.wire) may still block in a read (an editor keeps the pipe open
    after ``exit``); letting the interpreter
    finalise then aborts it ("could not acquire lock for <stdin>", SIGABRT), which editors
    report as a crash. So flush and leave without finalising."""
    logging.shutdown()
    for stream in (stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # the editor may have closed the pipe
            stream.flush()
    os._exit(code)
