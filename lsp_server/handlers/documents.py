"""Lifecycle, configuration and document synchronisation handlers."""

from __future__ import annotations

import asyncio
import contextlib

from lsprotocol import types

from adt.errors import AdtError
from adt.source.errors import as_source_error
from lsp_server.buffer import encoding_name
from lsp_server.documents import Change
from lsp_server.editor import Severity
from lsp_server.results import SaveResult, SaveStatus
from lsp_server.server import AdtLanguageServer  # handlers name it; pygls reads hints
from lsp_server.uris import InvalidDocumentUri


def _adt_uri(uri: str) -> bool:
    return uri.startswith("adt:")


def register(server: AdtLanguageServer) -> None:
    @server.feature(types.INITIALIZE)
    def on_initialize(ls: AdtLanguageServer, params: types.InitializeParams) -> None:
        ls.encoding = encoding_name(ls.workspace.position_encoding)
        options = params.initialization_options
        ls.configure(options if isinstance(options, dict) else None)
        folders = [f.uri for f in params.workspace_folders or []]
        ls.workspace_uris = folders or ([params.root_uri] if params.root_uri else [])

    @server.feature(types.INITIALIZED)
    async def on_initialized(ls: AdtLanguageServer, params: types.InitializedParams) -> None:
        await ls.adt.start()
        await ls.start_agent_channel()

    @server.feature(types.SHUTDOWN)
    async def on_shutdown(ls: AdtLanguageServer, params: None) -> None:
        """Release the locks. An ``exit`` right behind it ends the event loop, which cancels
        this handler: the release goes on in the server's own teardown, and the handler ends
        quietly instead of leaving a cancelled future for pygls to log."""
        with contextlib.suppress(asyncio.CancelledError):
            await ls.release()

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def on_configuration(ls: AdtLanguageServer, params: types.DidChangeConfigurationParams) -> None:
        settings = params.settings
        if isinstance(settings, dict):
            section = settings.get("abap-adt", settings)
            if isinstance(section, dict):
                ls.update_settings(section)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: AdtLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
        document = params.text_document
        if not _adt_uri(document.uri):
            return
        try:
            ls.adt.did_open(document.uri, document.text, document.version, ls.encoding)
        except InvalidDocumentUri as exc:
            ls.notify(Severity.ERROR, str(exc))

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: AdtLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri not in ls.adt.documents:
            return
        changes: list[Change] = []
        for change in params.content_changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                start, end = change.range.start, change.range.end
                changes.append(
                    ((start.line, start.character), (end.line, end.character), change.text)
                )
            else:
                changes.append((None, None, change.text))
        ls.adt.did_change(uri, params.text_document.version, changes)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: AdtLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.adt.did_close(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    async def did_save(ls: AdtLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
        """Save on ``didSave`` (``saveOnDidSave``). A notification has no result, so every
        outcome the user must know about is shown; a conflict is asked about
        (``askOnConflict``) or else reported."""
        uri = params.text_document.uri
        if not ls.adt.settings.save_on_did_save or uri not in ls.adt.documents:
            return
        try:
            result = await ls.adt.save(uri)
        except AdtError as exc:
            ls.notify(Severity.ERROR, f"Saving {uri} failed: {as_source_error(exc).message}")
            return
        _tell_saved(ls, result)


def _tell_saved(ls: AdtLanguageServer, result: SaveResult) -> None:
    uri = result.uri
    if result.status == SaveStatus.SAVED:
        ls.notify(Severity.INFO, f"Saved {uri}")
    elif result.status == SaveStatus.ERROR and result.error is not None:
        ls.notify(Severity.ERROR, f"Saving {uri} failed: {result.error.message}")
    elif result.status == SaveStatus.CONFLICT and not ls.adt.settings.ask_on_conflict:
        changed_by = result.conflict.details.get("changedBy") if result.conflict else None
        who = f" by {changed_by}" if changed_by else ""
        ls.notify(
            Severity.WARNING,
            f"Not saved: {uri} was changed on the server{who} since you opened it. Your edits "
            "are kept; resolve the conflict (adt/resolveConflict: reload, overwrite or merge) "
            "or turn on askOnConflict to be asked.",
        )
