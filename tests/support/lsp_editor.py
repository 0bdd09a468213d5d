"""A pytest-lsp client that behaves like an editor.

It keeps the text of every open document, turns edits into ``didChange`` notifications with
positions in the negotiated encoding, applies the server's ``workspace/applyEdit`` to its own
text and reports them back as ``didChange`` (as VS Code and Neovim do), and answers
``window/showMessageRequest`` from a queue of choices.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from typing import Any, Union

import attrs
import cattrs
from lsprotocol import types
from pygls.protocol import default_converter
from pygls.protocol.json_rpc import MsgId
from pytest_lsp import (
    ClientServerConfig,
    LanguageClient,
    LanguageClientProtocol,
    client_capabilities,
)
from pytest_lsp.client import register_lsp_features

from lsp_server.buffer import encoding_name, index_to_units, units_to_index
from support.scratch import scratch


@attrs.define
class RawResponse:
    id: MsgId
    result: Any = None
    jsonrpc: str = "2.0"


class RawClientProtocol(LanguageClientProtocol):
    """Results of ``adt/*`` requests stay plain JSON (dicts and lists)."""

    def get_result_type(self, method: str) -> Any:
        if method.startswith("adt/"):
            return RawResponse
        return super().get_result_type(method)

    def handle_message(self, message: Any) -> None:
        super().handle_message(message)
        client = self._server
        if isinstance(client, EditorClient):
            client.note_activity()


def editor_converter() -> cattrs.Converter:
    """lsprotocol's converter, telling a code action from a command as editors do: by its
    ``command`` being a string (VS Code's ``Command.is``, Neovim's ``type(command)``);
    lsprotocol's own hook takes any object with a ``command`` key for a ``Command``."""
    converter = default_converter()

    def action_or_command(obj: Any, _: type) -> types.Command | types.CodeAction:
        if isinstance(obj.get("command"), str):
            return converter.structure(obj, types.Command)
        return converter.structure(obj, types.CodeAction)

    converter.register_structure_hook(
        Union[types.Command, types.CodeAction],  # noqa: UP007  (the key lsprotocol registers)
        action_or_command,
    )
    return converter


class EditorClient(LanguageClient):
    def __init__(self) -> None:
        super().__init__(protocol_cls=RawClientProtocol, converter_factory=editor_converter)
        self.texts: dict[str, str] = {}
        self.versions: dict[str, int] = {}
        self.encoding = "utf-16"
        self.answers: list[str | None] = []
        self.questions: list[types.ShowMessageRequestParams] = []
        self.applied_edits: list[types.ApplyWorkspaceEditParams] = []
        # rename: open a document an edit names (as editors do), or decline every edit
        self.open_on_edit = False
        self.decline_edits = False
        self.before_apply: Callable[[], Any] | None = None  # e.g. a colleague's change
        # what the user keeps of a server edit per document (VS Code's refactor preview lets
        # them untick changes and still answers "applied"), and how long after its answer
        # the editor sends the changes (Neovim sends them debounced)
        self.keep_edits: Callable[[str, list[types.TextEdit]], list[types.TextEdit]] | None = None
        self.changes_after: float = 0.0
        self.base_versions: list[dict[str, Any]] = []  # adt/baseVersion, in arrival order
        self.refused_agent_edits: list[dict[str, Any]] = []  # adt/agentEditRefused
        self.server_capabilities: types.ServerCapabilities | None = None
        self.channel_ready = asyncio.Event()  # adt/agentChannel: agents can reach the server
        self._activity = asyncio.Event()

    # --- positions ------------------------------------------------------------------------

    def _units(self, uri: str, line: int, index: int) -> int:
        lines = self.texts[uri].split("\n")
        return index_to_units(lines[line], index, self.encoding) if line < len(lines) else 0

    def _index(self, text: str, position: types.Position) -> int:
        lines = text.split("\n")
        line = min(position.line, len(lines) - 1)
        offset = sum(len(item) + 1 for item in lines[:line])
        column = units_to_index(lines[line], position.character, self.encoding)
        if position.line >= len(lines):
            column = len(lines[line])
        return offset + column

    # --- documents ------------------------------------------------------------------------

    async def request(self, method: str, params: dict[str, Any]) -> Any:
        return await self.protocol.send_request_async(method, params)

    async def open(self, uri: str) -> dict[str, Any]:
        read = await self.request("adt/readDocument", {"uri": uri})
        self.open_text(uri, read["text"])
        return read  # type: ignore[no-any-return]

    def open_text(self, uri: str, text: str) -> None:
        self.texts[uri] = text
        self.versions[uri] = 1
        self.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="abap", version=1, text=text
                )
            )
        )

    def close(self, uri: str) -> None:
        self.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        self.texts.pop(uri, None)

    def edit(self, uri: str, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        """Replace between two (line, character index) positions, like a keystroke or paste."""
        units = types.Range(
            start=types.Position(line=start[0], character=self._units(uri, *start)),
            end=types.Position(line=end[0], character=self._units(uri, *end)),
        )
        self._apply_local(uri, units, text)
        self.versions[uri] += 1
        self.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=[types.TextDocumentContentChangePartial(range=units, text=text)],
            )
        )

    def insert_line(self, uri: str, line: int, text: str) -> None:
        """Insert a whole line before 0-based ``line``."""
        self.edit(uri, (line, 0), (line, 0), text + "\n")

    def delete_lines(self, uri: str, first: int, last: int) -> None:
        """Delete 0-based lines ``first..last``."""
        self.edit(uri, (first, 0), (last + 1, 0), "")

    def _apply_local(self, uri: str, units: types.Range, text: str) -> None:
        current = self.texts[uri]
        a, b = self._index(current, units.start), self._index(current, units.end)
        self.texts[uri] = current[:a] + text + current[b:]

    async def format_document(self, uri: str) -> None:
        """Format the document as an editor does on a command: ask, then apply the edits."""
        edits = await self.text_document_formatting_async(
            types.DocumentFormattingParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                options=types.FormattingOptions(tab_size=2, insert_spaces=True),
            )
        )
        self.apply_text_edits(uri, edits or [])

    def apply_text_edits(self, uri: str, edits: list[types.TextEdit]) -> None:
        """Apply edits of one document (all against its current text, as LSP defines them)
        and report them as one ``didChange``, as editors do."""
        ordered = sorted(
            edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True
        )
        changes = []
        for edit in ordered:
            self._apply_local(uri, edit.range, edit.new_text)
            changes.append(
                types.TextDocumentContentChangePartial(range=edit.range, text=edit.new_text)
            )
        self.versions[uri] += 1
        self.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=changes,
            )
        )

    def apply_workspace_edit(self, edit: types.WorkspaceEdit) -> None:
        """Apply a workspace edit of a code action to the open documents it names."""
        for uri, edits in (edit.changes or {}).items():
            self.apply_text_edits(uri, list(edits))
        for change in edit.document_changes or []:
            if isinstance(change, types.TextDocumentEdit):
                version = change.text_document.version
                uri = change.text_document.uri
                assert version is None or version == self.versions[uri], "a stale edit"
                self.apply_text_edits(
                    uri, [e for e in change.edits if isinstance(e, types.TextEdit)]
                )

    def position(self, uri: str, line: int, index: int) -> types.Position:
        """The client position of (line, character index) in the negotiated encoding."""
        return types.Position(line=line, character=self._units(uri, line, index))

    async def sync(self, uri: str) -> None:
        """Wait until the server has processed every change sent so far (a request on the
        same connection is answered only after the notifications before it)."""
        await self.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )

    async def save(self, uri: str) -> dict[str, Any]:
        return await self.request("adt/saveDocument", {"uri": uri})  # type: ignore[no-any-return]

    def did_save(self, uri: str) -> None:
        """The plain ``didSave`` notification (no result), as simple clients send it."""
        self.text_document_did_save(
            types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )

    def configure(self, settings: dict[str, Any]) -> None:
        """Change settings at runtime (``workspace/didChangeConfiguration``, section
        ``abap-adt``)."""
        self.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"abap-adt": settings})
        )

    # --- waiting --------------------------------------------------------------------------

    def note_activity(self) -> None:
        """Something arrived from the server: wake every :meth:`until_event` once its
        handlers ran (they may be tasks scheduled just now)."""
        woken, self._activity = self._activity, asyncio.Event()
        asyncio.get_running_loop().call_soon(woken.set)

    async def until_event(self, condition: Callable[[], Any], within: float = 120.0) -> Any:
        """Wait until ``condition()`` is truthy, checking it again after every message the
        server sends (an event, not a clock: ``within`` only bounds a test that hangs)."""
        async with asyncio.timeout(within):
            while not (value := condition()):
                await self._activity.wait()
        return value

    async def until(self, condition: Callable[[], Any], within: float = 10.0) -> Any:
        """Wait until ``condition()`` is truthy (server notifications arrive asynchronously)."""
        deadline = time.monotonic() + within
        while True:
            value = condition()
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"condition not met within {within}s")
            await asyncio.sleep(0.02)


def make_editor_client() -> EditorClient:
    client = EditorClient()
    register_lsp_features(client)

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    async def apply_edit(
        params: types.ApplyWorkspaceEditParams,
    ) -> types.ApplyWorkspaceEditResult:
        client.applied_edits.append(params)
        if client.decline_edits:
            return types.ApplyWorkspaceEditResult(applied=False, failure_reason="declined")
        if client.before_apply is not None:
            client.before_apply()
        requested: list[tuple[str, int | None, list[types.TextEdit]]] = [
            (uri, None, list(edits)) for uri, edits in (params.edit.changes or {}).items()
        ]
        for change in params.edit.document_changes or []:
            if isinstance(change, types.TextDocumentEdit):
                edits = [
                    types.TextEdit(range=e.range, new_text=e.new_text)
                    for e in change.edits
                    if isinstance(e, types.TextEdit | types.AnnotatedTextEdit)
                ]
                requested.append((change.text_document.uri, change.text_document.version, edits))
        keep = client.keep_edits or (lambda _, edits: edits)
        requested = [(uri, version, keep(uri, edits)) for uri, version, edits in requested]
        requested = [(uri, version, edits) for uri, version, edits in requested if edits]
        for uri, version, _ in requested:  # a document nothing is applied to is not opened
            if uri not in client.texts and client.open_on_edit and version is None:
                await client.open(uri)
            if uri not in client.texts:
                return types.ApplyWorkspaceEditResult(applied=False, failure_reason="not open")
            if version is not None and version != client.versions[uri]:  # as VS Code does
                return types.ApplyWorkspaceEditResult(applied=False, failure_reason="version")
        for uri, _, edits in requested:
            if client.changes_after:
                asyncio.get_running_loop().call_later(
                    client.changes_after, client.apply_text_edits, uri, edits
                )
            else:
                client.apply_text_edits(uri, edits)
        return types.ApplyWorkspaceEditResult(applied=True)

    @client.feature("adt/agentChannel")
    def agent_channel(params: Any) -> None:
        client.channel_ready.set()

    @client.feature("adt/baseVersion")
    def base_version(params: Any) -> None:
        client.base_versions.append(params if isinstance(params, dict) else params._asdict())

    @client.feature("adt/agentEditRefused")
    def agent_edit_refused(params: Any) -> None:
        client.refused_agent_edits.append(params if isinstance(params, dict) else params._asdict())

    @client.feature(types.WINDOW_SHOW_MESSAGE_REQUEST)
    def show_message_request(
        params: types.ShowMessageRequestParams,
    ) -> types.MessageActionItem | None:
        client.questions.append(params)
        answer = client.answers.pop(0) if client.answers else None
        return types.MessageActionItem(title=answer) if answer else None

    return client


def server_config(runtime: str, **env: str) -> ClientServerConfig:
    """A language server process as the end-to-end tests start it: no user configuration,
    no system from the environment, its runtime directory a fresh ``runtime`` scratch one,
    and ``env`` on top (a setting read from the environment, a bad value)."""
    return ClientServerConfig(
        server_command=[sys.executable, "-m", "lsp_server"],
        client_factory=make_editor_client,
        server_env={
            **os.environ,
            "ABAP_ADT_CONFIG": os.devnull,
            "ADT_URL": "",
            "ABAP_ADT_RUNTIME_DIR": scratch(runtime),
            **env,
        },
    )


async def start_session(
    client: EditorClient, preset: str, emulator_url: str, options: dict[str, object]
) -> None:
    """``initialize`` as editor ``preset`` (a pytest-lsp capabilities preset) with the
    emulator as system A4H and ``options`` on top; the client then counts positions in the
    encoding the server chose."""
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(preset),
            initialization_options={
                "systems": [
                    {
                        "name": "A4H",
                        "url": emulator_url,
                        "user": "DEVELOPER",
                        "password": "developer",
                    }
                ],
                "pollInterval": 0,
                **options,
            },
        )
    )
    client.encoding = encoding_name(result.capabilities.position_encoding)
    client.server_capabilities = result.capabilities
