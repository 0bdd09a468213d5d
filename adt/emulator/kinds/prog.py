"""Programs (``PROG/P``) and includes (``PROG/I``): ``<name>.prog.abap``; the ``.prog.xml``
says which (``SUBC`` ``I`` is an include) and holds the title."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .. import documents, skeletons
from ..model import INCL, PROG, RepoObject, encode_name
from .abap_source import AbapSourceKind
from .base import NewSpec, SeedFolder, abapgit_name, read_source_file, xml_text

if TYPE_CHECKING:
    from ..documents import ObjectView
    from .base import SystemState


class ProgramKind(AbapSourceKind):
    kinds = (PROG, INCL)
    main_files = ("prog.abap",)
    companion_files = ("prog.xml",)

    def seed(self, folder: SeedFolder, stem: str, suffix: str) -> list[RepoObject]:
        xml = folder.folder / f"{stem}.prog.xml"
        subc = xml_text(xml, "//PROGDIR/SUBC") or "1"
        title = xml_text(xml, "//TPOOL/item[ID='R']/ENTRY") or ""
        kind = INCL if subc.upper() == "I" else PROG
        obj = folder.new(kind, abapgit_name(stem), title)
        folder.unit(obj, "main", read_source_file(folder.folder / f"{stem}.{suffix}"))
        return [obj]

    def document(self, view: ObjectView, state: SystemState) -> str:
        if view.obj.kind is INCL:
            return documents.include_document(view, include_context(state, view.obj))
        return documents.program_document(view)

    def template(self, obj: RepoObject, spec: NewSpec) -> dict[str, str]:
        if obj.kind is INCL:
            return {"main": skeletons.include_source(obj.name)}
        return {"main": skeletons.program_source(obj.name)}


def include_context(state: SystemState, include: RepoObject) -> RepoObject | None:
    """The main program of an include: the one it was created for, else the first program
    whose source includes it."""
    if include.main_program is not None:
        return state.objects.get(f"{PROG.collection}/{encode_name(include.main_program)}")
    pattern = re.compile(
        rf"^\s*INCLUDE\s+{re.escape(include.name)}\s*\.", re.IGNORECASE | re.MULTILINE
    )
    for obj in state.objects.values():
        if obj.kind is PROG:
            picked = obj.parts["main"].pick(None)
            if picked is not None and pattern.search(picked[0].text):
                return obj
    return None


MODULE = ProgramKind()
