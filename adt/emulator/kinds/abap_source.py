"""What the ABAP-source kinds (classes, interfaces, programs, function groups) share: the
statement checker of :mod:`adt.emulator.checker` and the metadata documents of
:mod:`adt.emulator.documents.objects`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt.abap.scanner import ScanIssue

from ..checker import check
from ..model import RepoObject
from .base import KindModule

if TYPE_CHECKING:
    from .base import SystemState


class AbapSourceKind(KindModule):
    """A kind whose sources are ABAP statements."""

    def check(self, obj: RepoObject, part: str, text: str, state: SystemState) -> list[ScanIssue]:
        return check(text)
