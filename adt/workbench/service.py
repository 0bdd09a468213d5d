"""One system's development loop beside its source operations: code assistance,
where-used, objects, transports, tests and ATC, history."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adt.workbench.code import CodeAssist
from adt.workbench.code_search import PackageSearch
from adt.workbench.dependencies import ActivationDependencies
from adt.workbench.dictionary import MetadataEdits
from adt.workbench.dumps import RuntimeErrors
from adt.workbench.extraction import Extraction
from adt.workbench.history import History
from adt.workbench.object_renaming import ObjectRenaming
from adt.workbench.objects import ObjectLifecycle
from adt.workbench.organizer import RequestOrganizer
from adt.workbench.quality import Quality
from adt.workbench.renaming import Renaming
from adt.workbench.transports import Transports
from adt.workbench.usages import WhereUsed

if TYPE_CHECKING:
    from adt.source import SourceService


class Workbench:
    """The development-loop operations of one system, one feature object per concern,
    sharing the source service's client (and so its sessions and locks)."""

    def __init__(self, source: SourceService) -> None:
        client = source.client
        self.source = source
        self.code = CodeAssist(client)
        self.usages = WhereUsed(client)
        self.search = PackageSearch(source)
        self.objects = ObjectLifecycle(client, forget=source.forget_object)
        self.metadata = MetadataEdits(client, forget=source.forget_object)
        self.transports = Transports(client)
        self.organizer = RequestOrganizer(client, source.locks)
        self.quality = Quality(client)
        self.history = History(client)
        self.dumps = RuntimeErrors(client)
        self.dependencies = ActivationDependencies(client, self.history)
        self.renaming = Renaming(source)
        self.object_renaming = ObjectRenaming(source, self.renaming, self.objects)
        self.extraction = Extraction(source, self.renaming)

    @property
    def system(self) -> str:
        return self.source.system


__all__ = ["Workbench"]
