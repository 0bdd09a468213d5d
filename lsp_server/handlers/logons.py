"""``adt/cancelLogon``: the user gave up a browser logon the editor was showing
(:mod:`lsp_server.logons`)."""

from __future__ import annotations

import attrs

from lsp_server.logons import CANCEL_LOGON
from lsp_server.protocol import typed
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints


@attrs.define
class CancelLogonParams:
    id: str


def register(server: AdtLanguageServer) -> None:
    @server.feature(CANCEL_LOGON)
    @typed(CancelLogonParams)
    def cancel_logon(ls: AdtLanguageServer, params: CancelLogonParams) -> None:
        ls.logons.cancel(params.id)
