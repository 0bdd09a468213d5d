"""Anchor: a bare pygls 2 language server with incremental sync and no features — pygls'
own document store applies every change. The keystroke, start-up and memory benchmarks run
it beside ours.

    python bench/anchors/bare_pygls_server.py
"""

from __future__ import annotations

from lsprotocol import types
from pygls.lsp.server import LanguageServer

server = LanguageServer(
    "bare", "1.0", text_document_sync_kind=types.TextDocumentSyncKind.Incremental
)

if __name__ == "__main__":
    server.start_io()
