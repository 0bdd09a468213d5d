"""What the ABAP-source kinds (classes, interfaces, programs, function groups) share: the
statement checker of :mod:`adt.emulator.checker` and the metadata documents of
:mod:`adt.emulator.documents.objects`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt.abap.scanner import ScanIssue

from .. import documents
from ..checker import check
from ..model import RepoObject
from .base import KindModule

if TYPE_CHECKING:
    from ..documents import ObjectView
    from .base import SystemState


class AbapSourceKind(KindModule):
    """A kind whose sources are ABAP statements."""

    def document(self, view: ObjectView, state: SystemState) -> str:
        return documents.object_document(view, group=state.group_of(view.obj))

    def check(self, obj: RepoObject, part: str, text: str, state: SystemState) -> list[ScanIssue]:
        return check(text)
