"""The ABAP language server: ``adt://`` documents on SAP systems, saved as checked patches.

A thin pygls face over :class:`lsp_server.workspace.EditorWorkspace`: handlers translate LSP
messages (positions in the negotiated encoding, lsprotocol types) and delegate. Start it with
``abap-adt lsp``. Our protocol extension (``adt/*`` requests) is described in
docs/lsp-protocol.md.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import os
import sys
import uuid
from collections.abc import Awaitable, Callable, Sequence
from threading import Event
from typing import Any, BinaryIO, TypeVar

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pygls.io_ import StdinAsyncReader, StdoutWriter, run_async
from pygls.lsp.server import LanguageServer

from adt.agent import AgentTools, WritePolicy
from adt.agent.channel import ChannelServer
from adt.errors import AdtError, ConfigurationError
from adt.source import SourceError
from adt.source.errors import as_source_error
from adt.systems import Connections, SystemsConfig
from lsp_server import requests as rq
from lsp_server.buffer import UTF16, Edit, encoding_name, index_to_units
from lsp_server.outline import Symbol, outline
from lsp_server.protocol import AdtProtocol, typed
from lsp_server.settings import Settings
from lsp_server.uris import InvalidDocumentUri, parse_uri
from lsp_server.workspace import Diagnostic, EditorWorkspace

log = logging.getLogger("lsp_server")

_SYMBOL_KINDS = {
    "class": types.SymbolKind.Class,
    "interface": types.SymbolKind.Interface,
    "method": types.SymbolKind.Method,
    "function": types.SymbolKind.Function,
    "module": types.SymbolKind.Module,
}
_TYPE_KINDS = {
    "CLAS": types.SymbolKind.Class,
    "INTF": types.SymbolKind.Interface,
    "PROG": types.SymbolKind.File,
    "FUGR/FF": types.SymbolKind.Function,
    "FUGR": types.SymbolKind.Package,
}


class AdtLanguageServer(LanguageServer):
    """The server object; it is also the :class:`Editor` port of the workspace."""

    def __init__(self) -> None:
        super().__init__(
            "abap-adt",
            "0.1.0",
            protocol_cls=AdtProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self.adt = EditorWorkspace(Connections(SystemsConfig()), Settings(), self)
        self.encoding = UTF16
        self.agent_channel_enabled = True
        self.workspace_uris: list[str] = []
        self._channel: ChannelServer | None = None
        self._agent_tools: dict[WritePolicy, AgentTools] = {}
        self._released = False

    # --- configuration --------------------------------------------------------------------

    def configure(self, options: dict[str, Any] | None) -> None:
        self.agent_channel_enabled = bool((options or {}).get("agentChannel", True))
        settings = Settings()
        try:
            systems = SystemsConfig.load(init_options=options, env=os.environ)
            settings = settings.updated(options)
        except (ConfigurationError, SourceError) as exc:
            self.notify(1, f"abap-adt configuration: {exc}")
            systems = SystemsConfig()
        self.adt = EditorWorkspace(Connections(systems), settings, self)

    # --- the Editor port ------------------------------------------------------------------

    def _position(self, uri: str, point: tuple[int, int]) -> types.Position:
        doc = self.adt.documents.get(uri)
        line, index = point
        if doc is None or line >= len(doc.buffer.lines):
            return types.Position(line=line, character=index)
        return types.Position(
            line=line, character=index_to_units(doc.buffer.lines[line], index, self.encoding)
        )

    def _range(self, uri: str, start: tuple[int, int], end: tuple[int, int]) -> types.Range:
        return types.Range(start=self._position(uri, start), end=self._position(uri, end))

    async def apply_edits(
        self, uri: str, edits: Sequence[Edit], label: str, version: int | None
    ) -> bool:
        if not get_capability(self.client_capabilities, "workspace.apply_edit", False):
            self.notify(2, f"{uri}: your editor cannot apply server edits; reopen the document")
            return False
        text_edits = [
            types.TextEdit(range=self._range(uri, e.start, e.end), new_text=e.text) for e in edits
        ]
        versioned = get_capability(
            self.client_capabilities, "workspace.workspace_edit.document_changes", False
        )
        if versioned and version is not None:
            edit = types.WorkspaceEdit(
                document_changes=[
                    types.TextDocumentEdit(
                        text_document=types.OptionalVersionedTextDocumentIdentifier(
                            uri=uri, version=version
                        ),
                        edits=list(text_edits),
                    )
                ]
            )
        else:
            edit = types.WorkspaceEdit(changes={uri: text_edits})
        result = await self.workspace_apply_edit_async(
            types.ApplyWorkspaceEditParams(label=label, edit=edit)
        )
        return bool(result.applied)

    async def ask(self, message: str, choices: Sequence[str]) -> str | None:
        answer = await self.window_show_message_request_async(
            types.ShowMessageRequestParams(
                type=types.MessageType.Warning,
                message=message,
                actions=[types.MessageActionItem(title=choice) for choice in choices],
            )
        )
        return answer.title if answer is not None else None

    def notify(self, severity: int, message: str) -> None:
        log.log(logging.WARNING if severity <= 2 else logging.INFO, "%s", message)
        self.window_show_message(
            types.ShowMessageParams(type=types.MessageType(severity), message=message)
        )

    def publish(self, uri: str, diagnostics: Sequence[Diagnostic]) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri,
                diagnostics=[
                    types.Diagnostic(
                        range=self._range(uri, d.start, d.end),
                        message=d.message,
                        severity=types.DiagnosticSeverity(d.severity),
                        code=d.code or None,
                        source=d.source,
                    )
                    for d in diagnostics
                ],
            )
        )

    # --- lifecycle ------------------------------------------------------------------------

    # --- the agent channel (MCP passthrough) -----------------------------------------------

    def agent_tools(self, policy: WritePolicy) -> AgentTools:
        """Agent tools running in this server: same ADT session, same documents."""
        tools = self._agent_tools.get(policy)
        if tools is None:
            tools = self._agent_tools[policy] = AgentTools(
                self.adt.connections, policy=policy, views=self.adt
            )
        return tools

    async def start_agent_channel(self) -> None:
        if not self.agent_channel_enabled or self._channel is not None:
            return
        channel = ChannelServer(
            self.agent_tools,
            lambda: {
                "systems": self.adt.connections.systems.names,
                "workspaces": self.workspace_uris,
            },
        )
        try:
            await channel.start()
        except OSError as exc:
            log.warning("the agent channel could not start: %s", exc)
            return
        self._channel = channel

    async def release(self) -> None:
        """Close the agent channel, release every lock and connection (idempotent)."""
        if not self._released:
            self._released = True
            if self._channel is not None:
                await self._channel.close()
            await self.adt.close()

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Like pygls' ``start_io``, but releases our locks inside the event loop, also when
        the client just closes the pipe (Neovim sends ``shutdown`` but often no ``exit``)."""
        stop_event = self._stop_event = Event()
        reader = StdinAsyncReader(stdin or sys.stdin.buffer, self.thread_pool)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))

        async def serve() -> None:
            try:
                await run_async(
                    stop_event=stop_event,
                    reader=reader,
                    protocol=self.protocol,
                    logger=log,
                    error_handler=self.report_server_error,
                )
            finally:
                await self.release()

        try:
            asyncio.run(serve())
        except BrokenPipeError:
            log.error("the connection to the client is lost")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()  # type: ignore[no-untyped-call]


server = AdtLanguageServer()


def _source_error(exc: BaseException) -> JsonRpcException:
    error = as_source_error(exc)
    return JsonRpcException(message=error.message, code=-32001, data=error.to_dict())


_Result = TypeVar("_Result")


def _rpc_errors(
    handler: Callable[..., Awaitable[_Result]],
) -> Callable[..., Awaitable[_Result]]:
    """Answer an ``adt/*`` request's failures as JSON-RPC errors: a bad URI is invalid
    params, an ABAP/ADT failure carries the V2 error object as ``data``."""

    @functools.wraps(handler)
    async def wrapper(ls: AdtLanguageServer, params: Any) -> _Result:
        try:
            return await handler(ls, params)
        except InvalidDocumentUri as exc:
            raise JsonRpcInvalidParams(message=str(exc)) from exc
        except AdtError as exc:
            raise _source_error(exc) from exc

    return wrapper


def _adt_uri(uri: str) -> bool:
    return uri.startswith("adt:")


# --- lifecycle ----------------------------------------------------------------------------


@server.feature(types.INITIALIZE)
def on_initialize(ls: AdtLanguageServer, params: types.InitializeParams) -> None:
    ls.encoding = encoding_name(ls.workspace.position_encoding)
    options = params.initialization_options
    ls.configure(options if isinstance(options, dict) else None)
    folders = [f.uri for f in params.workspace_folders or []]
    ls.workspace_uris = folders or ([params.root_uri] if params.root_uri else [])


@server.feature(types.INITIALIZED)
async def on_initialized(ls: AdtLanguageServer, params: types.InitializedParams) -> None:
    ls.adt.start_polling()
    await ls.start_agent_channel()


@server.feature(types.SHUTDOWN)
async def on_shutdown(ls: AdtLanguageServer, params: None) -> None:
    await ls.release()


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
def on_configuration(ls: AdtLanguageServer, params: types.DidChangeConfigurationParams) -> None:
    settings = params.settings
    if isinstance(settings, dict):
        section = settings.get("abap-adt", settings)
        try:
            ls.adt.update_settings(ls.adt.settings.updated(section))
        except ConfigurationError as exc:
            ls.notify(1, f"abap-adt settings: {exc}")


# --- documents ----------------------------------------------------------------------------


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: AdtLanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    document = params.text_document
    if not _adt_uri(document.uri):
        return
    try:
        ls.adt.did_open(document.uri, document.text, document.version, ls.encoding)
    except InvalidDocumentUri as exc:
        ls.notify(1, str(exc))


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: AdtLanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    if uri not in ls.adt.documents:
        return
    changes: list[tuple[tuple[int, int] | None, tuple[int, int] | None, str]] = []
    for change in params.content_changes:
        if isinstance(change, types.TextDocumentContentChangePartial):
            start, end = change.range.start, change.range.end
            changes.append(((start.line, start.character), (end.line, end.character), change.text))
        else:
            changes.append((None, None, change.text))
    ls.adt.did_change(uri, params.text_document.version, changes)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: AdtLanguageServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.adt.did_close(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
async def did_save(ls: AdtLanguageServer, params: types.DidSaveTextDocumentParams) -> None:
    """Save on ``didSave`` (``saveOnDidSave``). A notification has no result, so every
    outcome the user must know about is shown; a conflict is asked about (``askOnConflict``)
    or else reported."""
    uri = params.text_document.uri
    if not ls.adt.settings.save_on_did_save or uri not in ls.adt.documents:
        return
    try:
        result = await ls.adt.save(uri)
    except AdtError as exc:
        ls.notify(1, f"Saving {uri} failed: {as_source_error(exc).message}")
        return
    status = result["status"]
    if status == "saved":
        ls.notify(3, f"Saved {uri}")
    elif status == "error":
        ls.notify(1, f"Saving {uri} failed: {result['error']['error']}")
    elif status == "conflict" and not ls.adt.settings.ask_on_conflict:
        changed_by = result["conflict"].get("details", {}).get("changedBy")
        who = f" by {changed_by}" if changed_by else ""
        ls.notify(
            2,
            f"Not saved: {uri} was changed on the server{who} since you opened it. Your edits "
            "are kept; resolve the conflict (adt/resolveConflict: reload, overwrite or merge) "
            "or turn on askOnConflict to be asked.",
        )


# --- our requests -------------------------------------------------------------------------


@server.feature(rq.READ_DOCUMENT)
@typed(rq.ReadDocumentParams)
@_rpc_errors
async def read_document(ls: AdtLanguageServer, params: rq.ReadDocumentParams) -> dict[str, Any]:
    return await ls.adt.read_document(params.uri, fresh=params.fresh)


@server.feature(rq.SAVE_DOCUMENT)
@typed(rq.SaveDocumentParams)
@_rpc_errors
async def save_document(ls: AdtLanguageServer, params: rq.SaveDocumentParams) -> dict[str, Any]:
    return await ls.adt.save(params.uri)


@server.feature(rq.RESOLVE_CONFLICT)
@typed(rq.ResolveConflictParams)
@_rpc_errors
async def resolve_conflict(
    ls: AdtLanguageServer, params: rq.ResolveConflictParams
) -> dict[str, Any]:
    return await ls.adt.resolve_conflict(params.uri, params.choice)


@server.feature(rq.OPEN_OBJECT)
@typed(rq.OpenObjectParams)
@_rpc_errors
async def open_object(ls: AdtLanguageServer, params: rq.OpenObjectParams) -> dict[str, Any]:
    return await ls.adt.open_object(
        params.name,
        object_type=params.type,
        system=params.system,
        include_type=params.include_type,
    )


@server.feature(rq.OBJECT_STRUCTURE)
@typed(rq.ObjectStructureParams)
@_rpc_errors
async def object_structure(
    ls: AdtLanguageServer, params: rq.ObjectStructureParams
) -> dict[str, Any]:
    if params.uri:
        ref = parse_uri(params.uri)
        return await ls.adt.object_structure(ref.object_url, ref.system)
    if params.object_url:
        return await ls.adt.object_structure(params.object_url, params.system)
    raise JsonRpcInvalidParams(message="pass uri or objectUrl")


@server.feature(rq.SEARCH_OBJECTS)
@typed(rq.SearchObjectsParams)
@_rpc_errors
async def search_objects(
    ls: AdtLanguageServer, params: rq.SearchObjectsParams
) -> list[dict[str, Any]]:
    return await ls.adt.search(
        params.query,
        system=params.system,
        max_results=params.max_results,
        object_type=params.type,
    )


# --- language features --------------------------------------------------------------------


def _document_symbol(ls: AdtLanguageServer, uri: str, symbol: Symbol) -> types.DocumentSymbol:
    start = (symbol.start[0] - 1, symbol.start[1])
    end = (symbol.end[0] - 1, symbol.end[1])
    whole = ls._range(uri, start, end)
    first_line_end = (start[0], end[1]) if start[0] == end[0] else (start[0], 1 << 30)
    selection = ls._range(uri, start, min(end, first_line_end))
    return types.DocumentSymbol(
        name=symbol.name,
        kind=_SYMBOL_KINDS.get(symbol.kind, types.SymbolKind.Object),
        range=whole,
        selection_range=selection,
        detail=symbol.detail or None,
        children=[_document_symbol(ls, uri, child) for child in symbol.children],
    )


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(
    ls: AdtLanguageServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol]:
    doc = ls.adt.documents.get(params.text_document.uri)
    if doc is None:
        return []
    return [_document_symbol(ls, doc.uri, s) for s in outline(doc.buffer.text)]


@server.feature(types.WORKSPACE_SYMBOL)
async def workspace_symbol(
    ls: AdtLanguageServer, params: types.WorkspaceSymbolParams
) -> list[types.SymbolInformation]:
    query = params.query.strip()
    if not query:
        return []
    pattern = query if "*" in query else f"{query}*"
    try:
        hits = await ls.adt.search(pattern, system=None, max_results=50, object_type=None)
    except AdtError as exc:
        raise _source_error(exc) from exc
    origin = types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)
    )
    return [
        types.SymbolInformation(
            name=hit["name"],
            kind=_TYPE_KINDS.get(
                hit["type"], _TYPE_KINDS.get(hit["type"].split("/")[0], types.SymbolKind.Object)
            ),
            location=types.Location(uri=hit["documentUri"], range=origin),
            container_name=hit.get("package") or None,
        )
        for hit in hits
        if "documentUri" in hit
    ]


@server.command(rq.ACTIVATE_COMMAND)
async def activate(ls: AdtLanguageServer, uri: str) -> dict[str, Any]:
    """Activate the object of a document, with work-done progress when the client has it."""
    token: str | None = None
    if get_capability(ls.client_capabilities, "window.work_done_progress", False):
        token = str(uuid.uuid4())
        await ls.work_done_progress.create_async(token)
        ls.work_done_progress.begin(
            token, types.WorkDoneProgressBegin(title="Activating", percentage=0)
        )

    def report(message: str) -> None:
        if token is not None:
            ls.work_done_progress.report(
                token, types.WorkDoneProgressReport(message=message, percentage=50)
            )

    try:
        result = await ls.adt.activate(uri, report)
    except AdtError as exc:
        if token is not None:
            ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message="failed"))
        raise _source_error(exc) from exc
    if token is not None:
        done = "activated" if result.get("activated") else "not activated"
        ls.work_done_progress.end(token, types.WorkDoneProgressEnd(message=done))
    return result


@server.command(rq.CHECK_COMMAND)
@_rpc_errors
async def check(ls: AdtLanguageServer, uri: str) -> dict[str, Any]:
    """Run the syntax check of a document's object now (the unsaved text of an open document
    with changes) and publish the findings as diagnostics."""
    return await ls.adt.check(uri)


# --- entry point --------------------------------------------------------------------------


def run_stdio(args: argparse.Namespace | None = None) -> int:
    """``abap-adt lsp``: serve on stdin/stdout. Logs go to a file, never to stdout."""
    log_file = getattr(args, "log_file", None) or os.environ.get("ABAP_ADT_LSP_LOG")
    handlers: list[logging.Handler] = (
        [logging.FileHandler(log_file, encoding="utf-8")] if log_file else [logging.NullHandler()]
    )
    logging.basicConfig(
        level=logging.INFO,
        handlers=handlers,
        format="%(asctime)s %(name)s %(levelname)s %(message)s",
    )
    logging.getLogger("pygls").setLevel(logging.WARNING)
    stdout = sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() must never corrupt the protocol stream
    server.start_io(sys.stdin.buffer, stdout)
    return 0
