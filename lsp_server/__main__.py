"""``python -m lsp_server``: the language server on stdio (same as ``abap-adt lsp``)."""

import sys

from adt.heap import pause_collection
from lsp_server.arguments import parser

arguments = parser().parse_args()
pause_collection()  # until the server is built: see adt.heap
from lsp_server.factory import run_stdio  # noqa: E402 - after --help, which needs no server

sys.exit(run_stdio(arguments))
