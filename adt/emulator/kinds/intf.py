"""Global interfaces (``INTF/OI``): ``<name>.intf.abap`` with ``.intf.xml``."""

from __future__ import annotations

from .. import skeletons
from ..model import INTF, RepoObject
from .abap_source import AbapSourceKind
from .base import NewSpec, SeedFolder, abapgit_name, read_source_file, xml_text


class InterfaceKind(AbapSourceKind):
    kinds = (INTF,)
    main_files = ("intf.abap",)
    companion_files = ("intf.xml",)

    def seed(self, folder: SeedFolder, stem: str, suffix: str) -> list[RepoObject]:
        description = xml_text(folder.folder / f"{stem}.intf.xml", "//DESCRIPT") or ""
        obj = folder.new(INTF, abapgit_name(stem), description)
        folder.unit(obj, "main", read_source_file(folder.folder / f"{stem}.{suffix}"))
        return [obj]

    def template(self, obj: RepoObject, spec: NewSpec) -> dict[str, str]:
        return {"main": skeletons.interface_source(obj.name)}


MODULE = InterfaceKind()
