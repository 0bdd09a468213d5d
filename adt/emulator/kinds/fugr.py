"""Function groups (``FUGR/F``) with their function modules (``FUGR/FF``) and includes
(``FUGR/I``): ``<group>.fugr.xml`` lists the modules; ``<group>.fugr.<member>.abap`` holds
each member (``sapl<group>`` is the group's main program, every other file an include)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import documents, skeletons
from ..model import FINC, FUGR, FUNC, RepoObject
from .abap_source import AbapSourceKind
from .base import NewSpec, SeedFolder, abapgit_name, parse_xml, read_source_file, xml_text

if TYPE_CHECKING:
    from ..documents import ObjectView
    from .base import SystemState


class FunctionGroupKind(AbapSourceKind):
    kinds = (FUGR, FUNC, FINC)
    main_files = ("fugr.xml",)
    #: Member files are ``<group>.fugr.<member>.abap`` / ``.xml``.
    companion_prefixes = ("fugr.",)

    def seed(self, folder: SeedFolder, stem: str, suffix: str) -> list[RepoObject]:
        xml = folder.folder / f"{stem}.fugr.xml"
        group_name = abapgit_name(stem)
        group = folder.new(FUGR, group_name, xml_text(xml, "//AREAT") or "")
        modules: dict[str, str] = {}
        tree = parse_xml(xml)
        for item in tree.iter("item") if tree is not None else ():
            funcname = item.findtext("FUNCNAME")
            if funcname:
                modules[funcname.lower().replace("/", "#")] = item.findtext("SHORT_TEXT") or ""
        prefix = f"{stem}.fugr."
        found: list[RepoObject] = []
        for lower, path in sorted(folder.names.items()):
            if not lower.startswith(prefix) or not lower.endswith(".abap"):
                continue
            member = lower[len(prefix) : -len(".abap")]
            text = read_source_file(path)
            if member == f"sapl{stem}":
                folder.unit(group, "main", text)
                continue
            kind = FUNC if member in modules else FINC
            obj = folder.new(kind, abapgit_name(member), modules.get(member, ""))
            obj.group = group_name
            folder.unit(obj, "main", text)
            found.append(obj)
        if "main" not in group.parts:
            folder.unit(group, "main", f"FUNCTION-POOL {group_name.lower()}.")
        return [*found, group]

    def document(self, view: ObjectView, state: SystemState) -> str:
        group = state.group_of(view.obj)
        if group is None:  # the group itself
            return documents.group_document(view)
        return documents.group_member_document(view, group)

    def template(self, obj: RepoObject, spec: NewSpec) -> dict[str, str]:
        builders = {
            FUGR: skeletons.group_main_source,
            FUNC: skeletons.module_source,
            FINC: skeletons.group_include_source,
        }
        return {"main": builders[obj.kind](obj.name)}


MODULE = FunctionGroupKind()

__all__ = ["FINC", "FUGR", "FUNC", "MODULE", "FunctionGroupKind"]
