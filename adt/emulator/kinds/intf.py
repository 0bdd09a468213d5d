"""Global interfaces (``INTF/OI``): ``<name>.intf.abap`` with ``.intf.xml``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import documents, skeletons
from ..model import INTF, RepoObject
from .abap_source import AbapSourceKind
from .base import NewSpec, SeedFolder, abapgit_name, read_source_file, xml_text

if TYPE_CHECKING:
    from ..documents import ObjectView
    from .base import SystemState


class InterfaceKind(AbapSourceKind):
    kinds = (INTF,)
    main_files = ("intf.abap",)
    companion_files = ("intf.xml",)

    def seed(self, folder: SeedFolder, stem: str, suffix: str) -> list[RepoObject]:
        description = xml_text(folder.folder / f"{stem}.intf.xml", "//DESCRIPT") or ""
        obj = folder.new(INTF, abapgit_name(stem), description)
        folder.unit(obj, "main", read_source_file(folder.folder / f"{stem}.{suffix}"))
        return [obj]

    def document(self, view: ObjectView, state: SystemState) -> str:
        return documents.interface_document(view)

    def template(self, obj: RepoObject, spec: NewSpec) -> dict[str, str]:
        return {"main": skeletons.interface_source(obj.name)}


MODULE = InterfaceKind()
