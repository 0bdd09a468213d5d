"""``python -m lsp_server``: the language server on stdio (same as ``abap-adt lsp``)."""

import sys

from lsp_server.server import run_stdio

sys.exit(run_stdio())
