"""What the ABAP-source kinds (classes, interfaces, programs, function groups) share: the
statement checker of :mod:`adt.emulator.checker` and the metadata documents of
:mod:`adt.emulator.documents.objects`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt.abap.scanner import ScanIssue

from ..checker import check
from ..model import RepoObject
from ..syntax.objects import semantic_findings
from .base import KindModule

if TYPE_CHECKING:
    from .base import SystemState


class AbapSourceKind(KindModule):
    """A kind whose sources are ABAP statements."""

    def check(self, obj: RepoObject, part: str, text: str, state: SystemState) -> list[ScanIssue]:
        return check(text)

    def check_object(
        self, obj: RepoObject, texts: dict[str, str], state: SystemState, version: str
    ) -> list[tuple[str, ScanIssue]]:
        """Block structure first; the semantic checks of :mod:`..syntax` (names, methods,
        parameters) only when the structure is sound, as the real checker stops early."""
        findings = super().check_object(obj, texts, state, version)
        return findings or semantic_findings(state, obj, texts, version)
