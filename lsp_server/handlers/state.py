"""``adt/documentState``: what an editor shows about a document beside it (its system, the
lock mode, whether the server holds the object's lock for editing, and whether the source
has an inactive version)."""

from __future__ import annotations

from typing import Any

import attrs

from lsp_server.handlers.requests import rpc_errors
from lsp_server.protocol import typed
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints
from lsp_server.uris import parse_uri

DOCUMENT_STATE = "adt/documentState"


@attrs.define
class DocumentStateParams:
    uri: str


def register(server: AdtLanguageServer) -> None:
    @server.feature(DOCUMENT_STATE)
    @typed(DocumentStateParams)
    @rpc_errors
    async def document_state(ls: AdtLanguageServer, params: DocumentStateParams) -> Any:
        ref = parse_uri(params.uri)
        doc = ls.adt.documents.get(params.uri)
        return {
            "uri": params.uri,
            "system": ref.system,
            "objectUrl": ref.object_url,
            "lockMode": str(ls.adt.settings.lock_mode),
            "locked": ls.adt.locks.holds(ref.object_url),
            "open": doc is not None,
            "dirty": doc is not None and doc.dirty,
            "inactive": doc.inactive if doc is not None else None,
        }
