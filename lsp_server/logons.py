"""Browser logons (OAuth, single sign-on) shown in the editor.

An editor that declares the client capability ``experimental.adtLogon`` gets the notification
``adt/logon`` with the URL (``state: "open"``), opens it and shows a progress the user can
cancel (``adt/cancelLogon``), and hears how it ended (``"done"`` or ``"failed"`` with the
reason). Another client is asked to open the URL with ``window/showDocument`` (external) when
it can, else the machine's browser opens it; either way a message shows the URL, so it can be
opened by hand. See docs/lsp-protocol.md, "Logging on in the browser"."""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.capabilities import get_capability

from adt.errors import AuthenticationError
from adt.logon import LogonPrompt

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

log = logging.getLogger("lsp_server")

LOGON = "adt/logon"  # notification to the editor
CANCEL_LOGON = "adt/cancelLogon"  # notification from the editor
CAPABILITY = "adtLogon"  # in the client's experimental capabilities


class EditorLogons(LogonPrompt):
    """The language server's :class:`~adt.logon.LogonPrompt`: one logon at a time per system
    (each system's client logs on under its own lock)."""

    def __init__(self, ls: LanguageServer) -> None:
        self._ls = ls
        self._cancels: dict[str, tuple[str, asyncio.Future[None]]] = {}
        self._shown: dict[str, str] = {}  # system -> id of the logon the editor shows

    def _editor_shows_logons(self) -> bool:
        params = self._ls.client_capabilities
        experimental = getattr(params, "experimental", None) if params else None
        return isinstance(experimental, dict) and experimental.get(CAPABILITY) is True

    async def show(self, system: str, url: str) -> None:
        if not self._editor_shows_logons():
            await self._open_elsewhere(system, url)
            return
        logon = uuid.uuid4().hex
        cancelled = asyncio.get_running_loop().create_future()
        self._cancels[logon] = (system, cancelled)
        self._shown[system] = logon
        self._notify({"id": logon, "system": system, "url": url, "state": "open"})
        try:
            await cancelled  # set only by the user's cancel: the logon ends with it
        finally:
            self._cancels.pop(logon, None)

    def cancel(self, logon: str) -> None:
        """``adt/cancelLogon``: the user gave up the logon ``logon`` (unknown: it ended)."""
        entry = self._cancels.get(logon)
        if entry is not None and not entry[1].done():
            system, cancelled = entry
            cancelled.set_exception(
                AuthenticationError(f"logon to {system} in the browser was cancelled")
            )

    def ended(self, system: str, error: str | None) -> None:
        logon = self._shown.pop(system, None)
        if logon is None:  # shown by other means: only a failure is worth a message
            if error is not None:
                self._message(types.MessageType.Error, f"Logon to {system} failed: {error}")
            return
        outcome = {"state": "done"} if error is None else {"state": "failed", "message": error}
        self._notify({"id": logon, "system": system, **outcome})

    def _notify(self, params: dict[str, Any]) -> None:
        self._ls.protocol.notify(LOGON, params)

    def _message(self, kind: types.MessageType, text: str) -> None:
        self._ls.window_show_message(types.ShowMessageParams(type=kind, message=text))

    async def _open_elsewhere(self, system: str, url: str) -> None:
        """A client without ``adtLogon``: it opens the URL itself if it can, else this
        machine's browser; the message keeps the URL at hand."""
        self._message(types.MessageType.Info, f"Log on to {system} in your browser: {url}")
        if get_capability(self._ls.client_capabilities, "window.show_document.support", False):
            shown = await self._ls.window_show_document_async(
                types.ShowDocumentParams(uri=url, external=True)
            )
            if shown.success:
                return
            log.info("the editor did not open the logon page; trying this machine's browser")
        import webbrowser  # with the first browser logon, not at start

        await asyncio.to_thread(webbrowser.open, url)


__all__ = ["CANCEL_LOGON", "CAPABILITY", "LOGON", "EditorLogons"]
