"""Work-done progress towards the editor: with the token the client sent along with a
request, or one the server creates when the client supports that; without either, every
call does nothing."""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.capabilities import get_capability

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer


class Progress:
    def __init__(self, ls: LanguageServer, token: types.ProgressToken | None) -> None:
        self._ls = ls
        self._token = token

    @classmethod
    async def begin(
        cls, ls: LanguageServer, title: str, token: types.ProgressToken | None = None
    ) -> Progress:
        """Begin a progress; ``token`` is the client's ``workDoneToken``, if it sent one."""
        if token is None:
            if not get_capability(ls.client_capabilities, "window.work_done_progress", False):
                return cls(ls, None)
            token = str(uuid.uuid4())
            await ls.work_done_progress.create_async(token)
        ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(title=title, percentage=0))
        return cls(ls, token)

    def report(self, message: str, percentage: int = 50) -> None:
        if self._token is not None:
            self._ls.work_done_progress.report(
                self._token, types.WorkDoneProgressReport(message=message, percentage=percentage)
            )

    def end(self, message: str) -> None:
        if self._token is not None:
            self._ls.work_done_progress.end(self._token, types.WorkDoneProgressEnd(message=message))
