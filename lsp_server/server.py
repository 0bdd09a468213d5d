"""The ABAP language server: ``adt://`` documents on SAP systems, saved as checked patches.

A thin pygls face over :class:`lsp_server.workspace.EditorWorkspace`.
:func:`~lsp_server.factory.create_server` builds it (nothing happens at import time); it is
configured at ``initialize`` from the
editor's options, the config file and the environment, and a configuration error is shown to
the user (the server then runs with defaults). Handlers live in :mod:`lsp_server.handlers`;
our protocol extension (``adt/*`` requests) is described in docs/lsp-protocol.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import sys
from collections.abc import Sequence
from threading import Event
from typing import TYPE_CHECKING, Any, BinaryIO

from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from adt.errors import ConfigurationError
from adt.heap import freeze_when_settled
from lsp_server.buffer import UTF16, Edit, index_to_units, units_to_index
from lsp_server.editor import Diagnostic, Severity
from lsp_server.logons import EditorLogons
from lsp_server.protocol import AdtProtocol
from lsp_server.requests import AGENT_CHANNEL, AGENT_EDIT_REFUSED, BASE_VERSION
from lsp_server.wire import parse_did_change, serve_frames

if TYPE_CHECKING:
    from adt.agent import AgentTools, WritePolicy
    from adt.agent.channel import ChannelServer
    from lsp_server.workspace import EditorWorkspace

log = logging.getLogger("lsp_server")

VERSION = "0.1.0"


class _EditorPipe(StdoutWriter):
    """stdout towards the editor. Once the editor has gone (``exit`` closed the pipe, or the
    editor closed its end), what is still being sent — late diagnostics, answers of
    cancelled requests — is dropped quietly instead of failing (and being logged) once per
    message."""

    def __init__(self, stdout: BinaryIO) -> None:
        super().__init__(stdout)
        self.gone = False

    def write(self, data: bytes) -> None:
        if self.gone:
            return
        try:
            super().write(data)
        except (ValueError, OSError):  # closed file, broken pipe
            self.gone = True
            log.info("the editor has gone; dropping what was still to be sent")

    def close(self) -> None:
        self.gone = True
        with contextlib.suppress(ValueError, OSError):
            super().close()  # type: ignore[no-untyped-call]


class AdtLanguageServer(LanguageServer):
    """The server object; it is also the :class:`~lsp_server.editor.Editor` port of the
    workspace."""

    def __init__(self) -> None:
        super().__init__(
            "abap-adt",
            VERSION,
            protocol_cls=AdtProtocol,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
        )
        self._options: dict[str, Any] | None = None
        self._workspace: EditorWorkspace | None = None
        self.encoding = UTF16
        self.workspace_uris: list[str] = []
        self._channel: ChannelServer | None = None
        self._agent_tools: dict[WritePolicy, AgentTools] = {}
        self._releasing: asyncio.Future[None] | None = None
        self.exit_code = 0  # LSP: 0 after ``shutdown`` + ``exit`` or a closed pipe, else 1
        self.logons = EditorLogons(self)  # browser logons, shown in the editor

    # --- configuration --------------------------------------------------------------------

    def configure(self, options: dict[str, Any] | None) -> None:
        """Keep the editor's options (``initialize``); the workspace is built from them on
        first use — at ``initialized`` at the latest — so the answer to ``initialize`` waits
        for neither the settings nor the features."""
        self._options = options
        self._workspace = None

    @property
    def adt(self) -> EditorWorkspace:
        """The workspace: the open documents and every feature, over the configured
        systems."""
        if self._workspace is None:
            self._workspace = self._build_workspace()
        return self._workspace

    def _build_workspace(self) -> EditorWorkspace:
        """Read the settings; on an error, tell the user which key is wrong and run with the
        defaults (no system: every request then says that none is configured)."""
        from adt.systems import Connections, Settings, load_settings
        from lsp_server.workspace import EditorWorkspace

        try:
            settings = load_settings(init_options=self._options, env=os.environ)
        except ConfigurationError as exc:
            self.notify(Severity.ERROR, f"abap-adt configuration: {exc}; using the defaults")
            settings = Settings()
        connections = Connections(
            settings.systems, source_config=settings.source.to_config(), open_browser=self.logons
        )
        return EditorWorkspace(connections, settings.editor, self)

    def update_settings(self, section: dict[str, Any]) -> None:
        """``didChangeConfiguration``: the editor settings change at once."""
        from adt.systems import EditorSettings
        from adt.systems.settings import load_section

        try:
            settings = load_section(EditorSettings, options=section, base=self.adt.settings)
        except ConfigurationError as exc:
            self.notify(Severity.ERROR, f"abap-adt settings: {exc}")
            return
        self.adt.update_settings(settings)

    # --- the Editor port ------------------------------------------------------------------

    def position(self, uri: str, point: tuple[int, int]) -> types.Position:
        """A buffer position (line, ``str`` index) in the client's position encoding."""
        doc = self.adt.documents.get(uri)
        line, index = point
        if doc is None or line >= len(doc.buffer.lines):
            return types.Position(line=line, character=index)
        return types.Position(
            line=line, character=index_to_units(doc.buffer.lines[line], index, self.encoding)
        )

    def range(self, uri: str, start: tuple[int, int], end: tuple[int, int]) -> types.Range:
        return types.Range(start=self.position(uri, start), end=self.position(uri, end))

    def point(self, uri: str, position: types.Position) -> tuple[int, int]:
        """A client position as a buffer position (line, ``str`` index), clamped to the
        document."""
        doc = self.adt.documents.get(uri)
        if doc is None:
            return position.line, position.character
        lines = doc.buffer.lines
        line = min(position.line, len(lines) - 1)
        if line < position.line:
            return line, len(lines[line])
        return line, units_to_index(lines[line], position.character, self.encoding)

    def text_edits(self, uri: str, edits: Sequence[Edit]) -> list[types.TextEdit]:
        return [
            types.TextEdit(range=self.range(uri, e.start, e.end), new_text=e.text) for e in edits
        ]

    async def apply_edits(
        self, uri: str, edits: Sequence[Edit], label: str, version: int | None
    ) -> bool:
        if not get_capability(self.client_capabilities, "workspace.apply_edit", False):
            self.notify(
                Severity.WARNING, f"{uri}: your editor cannot apply server edits; reopen it"
            )
            return False
        text_edits = self.text_edits(uri, edits)
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

    def notify(self, severity: Severity, message: str) -> None:
        log.log(logging.WARNING if severity <= Severity.WARNING else logging.INFO, "%s", message)
        self.window_show_message(
            types.ShowMessageParams(type=types.MessageType(int(severity)), message=message)
        )

    def publish(self, uri: str, diagnostics: Sequence[Diagnostic]) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=uri,
                diagnostics=[
                    types.Diagnostic(
                        range=self.range(uri, d.start, d.end),
                        message=d.message,
                        severity=types.DiagnosticSeverity(int(d.severity)),
                        code=d.code or None,
                        source=d.source,
                    )
                    for d in diagnostics
                ],
            )
        )

    def base_version(
        self,
        uri: str,
        token: str,
        changed_at: int | None,
        changed_by: str | None,
        inactive: bool | None = None,
        shown: tuple[int, bool] | None = None,
    ) -> None:
        self.protocol.notify(
            BASE_VERSION,
            {
                "uri": uri,
                "token": token,
                "changedAt": changed_at,
                "changedBy": changed_by,
                "inactive": inactive,
                # the document's version then, and whether it held the base's text: a
                # document the server wrote for the editor (a rename, an agent's edit) is
                # clean, which an editor that marks it unsaved can follow at that version
                "version": shown[0] if shown else None,
                "clean": shown[1] if shown else None,
            },
        )

    def agent_edit_refused(self, uri: str, message: str) -> None:
        self.protocol.notify(AGENT_EDIT_REFUSED, {"uri": uri, "message": message})

    # --- the agent channel (MCP passthrough) -----------------------------------------------

    def agent_tools(self, policy: WritePolicy) -> AgentTools:
        """Agent tools running in this server: same ADT session, same documents."""
        tools = self._agent_tools.get(policy)
        if tools is None:
            from adt.agent import AgentTools

            tools = self._agent_tools[policy] = AgentTools(
                self.adt.connections, policy=policy, views=self.adt.agent_views
            )
        return tools

    async def start_agent_channel(self) -> None:
        if not self.adt.settings.agent_channel or self._channel is not None:
            return
        from adt.agent.channel import ChannelServer  # the channel only when it is wanted

        channel = ChannelServer(
            self.agent_tools,
            self._describe_for_agents,
            release=self._release_agent,
        )
        try:
            announced = await channel.start()
        except OSError as exc:
            self.notify(Severity.WARNING, f"Agents cannot work through this editor: {exc}")
            return
        self._channel = channel
        self.protocol.notify(AGENT_CHANNEL, {"pid": announced.pid, "systems": announced.systems})

    def _describe_for_agents(self) -> dict[str, Any]:
        systems = self.adt.connections.systems
        return {
            "systems": systems.names,
            "identities": {name: p.identity for name, p in systems.profiles.items()},
            "workspaces": self.workspace_uris,
        }

    async def _release_agent(self, owner: str) -> None:
        """An agent's channel closed: release every lock it took, in every system."""
        for service in self.adt.connections.open_services():
            await service.release_owner(owner)

    # --- lifecycle ------------------------------------------------------------------------

    def _handle(self, body: bytes) -> None:
        """One message from the editor: a ``didChange`` of one of our documents goes straight
        to the workspace; everything else through pygls."""
        change = parse_did_change(body)
        if change is not None:
            workspace = self._workspace  # none yet: no document is open
            if workspace is not None:
                try:
                    workspace.did_change(*change)
                except Exception as exc:  # as pygls would: log it, tell the client
                    log.exception("applying a change to %s failed", change[0])
                    self.report_server_error(exc, JsonRpcException)
            return
        try:
            message = json.loads(body, object_hook=self.protocol.structure_message)
            self.protocol.handle_message(message)
        except Exception as exc:
            log.exception("Unable to handle message")
            self.report_server_error(exc, JsonRpcException)

    async def release(self) -> None:
        """Close the agent channel, release every lock and connection. Idempotent, and every
        caller (shutdown, exit, a closed pipe) waits for the one release under way."""
        if self._releasing is None:
            self._releasing = asyncio.ensure_future(self._release())
        await asyncio.shield(self._releasing)

    async def _release(self) -> None:
        if self._channel is not None:
            await self._channel.close()
        if self._workspace is not None:  # never built: nothing was opened or locked
            await self._workspace.close()

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve on stdio: our own framing and the ``didChange`` fast path
        (:mod:`lsp_server.wire`), pygls for everything else. Releases our locks inside the
        event loop, also when the client just closes the pipe (Neovim sends ``shutdown`` but
        often no ``exit``)."""
        self._stop_event = Event()
        self.protocol.set_writer(_EditorPipe(stdout or sys.stdout.buffer))

        async def serve() -> None:
            freeze_when_settled(asyncio.get_running_loop())  # see adt.heap
            try:
                await serve_frames(stdin or sys.stdin.buffer, self._handle)
            finally:
                await self.release()

        try:
            asyncio.run(serve())
        except BrokenPipeError:
            log.error("the connection to the client is lost")
        except KeyboardInterrupt:
            pass
        except SystemExit as exc:  # pygls' ``exit`` handler
            self.exit_code = exc.code if isinstance(exc.code, int) else 1
        finally:
            self.shutdown()  # type: ignore[no-untyped-call]
