"""The editor as the workspace sees it: a six-method port (the language server implements it;
tests use a fake), message severities and diagnostics in the buffer's own coordinates."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from lsp_server.buffer import Edit


class Severity(enum.IntEnum):
    """How serious a message or diagnostic is; 1–3 are LSP's ``MessageType`` and 1–4
    ``DiagnosticSeverity`` values, so the server passes them on unchanged."""

    ERROR = 1
    WARNING = 2
    INFO = 3
    HINT = 4


@dataclass(frozen=True)
class Diagnostic:
    """A message placed in a document: 0-based lines, ``str`` indices (the server converts
    them to the negotiated position encoding)."""

    start: tuple[int, int]
    end: tuple[int, int]
    severity: Severity
    message: str
    code: str = ""
    source: str = "abap-adt"


class Editor(Protocol):
    """What the workspace needs from the editor connection."""

    async def apply_edits(
        self, uri: str, edits: Sequence[Edit], label: str, version: int | None
    ) -> bool: ...

    async def ask(self, message: str, choices: Sequence[str]) -> str | None: ...

    def notify(self, severity: Severity, message: str) -> None: ...

    def publish(self, uri: str, diagnostics: Sequence[Diagnostic]) -> None: ...

    def base_version(
        self,
        uri: str,
        token: str,
        changed_at: int | None,
        changed_by: str | None,
        inactive: bool | None = None,
        shown: tuple[int, bool] | None = None,
    ) -> None: ...

    def agent_edit_refused(self, uri: str, message: str) -> None: ...
