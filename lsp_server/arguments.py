"""The language server's command-line options (shared by ``abap-adt lsp`` and
``python -m lsp_server``). Imports nothing heavy, so ``--help`` answers at once."""

from __future__ import annotations

import argparse

from adt.net import VersionAction


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--log-file", default=None, help="write the server log here")


def parser() -> argparse.ArgumentParser:
    result = argparse.ArgumentParser(
        prog="python -m lsp_server",
        description="The abap-adt language server on stdio (same as abap-adt lsp).",
    )
    result.add_argument("--version", action=VersionAction)
    add_arguments(result)
    return result
