"""A fake editor behind the workspace's :class:`~lsp_server.editor.Editor` port.

It keeps its own copy of each document's text, applies the server's edits to it (refusing an
edit computed for an older version, as VS Code does) and reports them back as ``didChange``,
like a real editor; it answers questions from a queue and records every message and
diagnostic. The workspace runs on an in-process emulator, so feature tests are fast and still
go through the real ADT protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field

from adt.emulator import Emulator
from adt.systems import Connections, EditorSettings, SystemsConfig
from lsp_server.buffer import UTF16, Edit, apply_edits
from lsp_server.editor import Diagnostic, Severity
from lsp_server.workspace import EditorWorkspace
from support.emulated import make_client

REPORT_URI = "adt://A4H/sap/bc/adt/programs/programs/zdemo_report/source/main"
GREETER_URI = "adt://A4H/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main"


@dataclass
class FakeEditor:
    texts: dict[str, str] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)
    messages: list[tuple[Severity, str]] = field(default_factory=list)
    published: dict[str, list[Diagnostic]] = field(default_factory=dict)
    answers: list[str | None] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)
    offered: list[list[str]] = field(default_factory=list)  # the choices of each question
    workspace: EditorWorkspace | None = None
    follow_edits: bool = True
    # adt/baseVersion: (uri, token, changedAt, changedBy), in the order they were sent
    base_versions: list[tuple[str, str, int | None, str | None]] = field(default_factory=list)
    # the last adt/baseVersion's "inactive" per document
    inactive: dict[str, bool | None] = field(default_factory=dict)
    # adt/agentEditRefused: (uri, message)
    refused_agent_edits: list[tuple[str, str]] = field(default_factory=list)

    async def apply_edits(
        self, uri: str, edits: Sequence[Edit], label: str, version: int | None
    ) -> bool:
        if not self.follow_edits or (version is not None and version != self.versions[uri]):
            return False
        text = apply_edits(self.texts[uri].split("\n"), edits)
        await asyncio.sleep(0)  # the answer and the didChange arrive separately
        self.replace(uri, text)
        return True

    async def ask(self, message: str, choices: Sequence[str]) -> str | None:
        self.questions.append(message)
        self.offered.append(list(choices))
        return self.answers.pop(0) if self.answers else None

    def notify(self, severity: Severity, message: str) -> None:
        self.messages.append((severity, message))

    def publish(self, uri: str, diagnostics: Sequence[Diagnostic]) -> None:
        self.published[uri] = list(diagnostics)

    def base_version(
        self,
        uri: str,
        token: str,
        changed_at: int | None,
        changed_by: str | None,
        inactive: bool | None = None,
        shown: tuple[int, bool] | None = None,
    ) -> None:
        self.base_versions.append((uri, token, changed_at, changed_by))
        self.inactive[uri] = inactive

    def agent_edit_refused(self, uri: str, message: str) -> None:
        self.refused_agent_edits.append((uri, message))

    # --- what the user does ---------------------------------------------------------------

    async def open(self, uri: str) -> None:
        assert self.workspace is not None
        read = await self.workspace.objects.read_document(uri)
        self.texts[uri], self.versions[uri] = read.text, 1
        self.workspace.did_open(uri, read.text, 1, UTF16)

    def replace(self, uri: str, text: str) -> None:
        """The whole text changes (one full-document change)."""
        assert self.workspace is not None
        self.texts[uri] = text
        self.versions[uri] += 1
        self.workspace.did_change(uri, self.versions[uri], [(None, None, text)])

    def insert_line(self, uri: str, index: int, line: str) -> None:
        lines = self.texts[uri].split("\n")
        lines.insert(index, line)
        self.replace(uri, "\n".join(lines))

    def said(self, severity: Severity) -> list[str]:
        return [text for level, text in self.messages if level == severity]

    async def until(self, condition: Callable[[], bool], within: float = 5.0) -> None:
        deadline = asyncio.get_running_loop().time() + within
        while not condition():
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError("condition not met in time")
            await asyncio.sleep(0.01)


@contextlib.asynccontextmanager
async def workspace_on(
    emulator: Emulator, settings: EditorSettings | None = None
) -> AsyncIterator[tuple[EditorWorkspace, FakeEditor]]:
    """A workspace with a fake editor on an in-process emulator; closed (locks released)
    at the end."""
    editor = FakeEditor()
    connections = Connections(
        SystemsConfig({"A4H": make_client(emulator).profile}),
        client_factory=lambda profile: make_client(emulator),
    )
    workspace = EditorWorkspace(connections, settings or EditorSettings(poll_interval=0), editor)
    editor.workspace = workspace
    try:
        yield workspace, editor
    finally:
        await workspace.wait_idle()
        await workspace.close()
