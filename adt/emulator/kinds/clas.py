"""Global classes (``CLAS/OC``): ``<name>.clas.abap`` plus the local includes
``.clas.locals_def/locals_imp/macros/testclasses.abap``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import documents, skeletons
from ..model import CLAS, CLASS_PARTS, RepoObject
from .abap_source import AbapSourceKind
from .base import NewSpec, SeedFolder, abapgit_name, read_source_file, xml_text

if TYPE_CHECKING:
    from ..documents import ObjectView
    from .base import SystemState

CLASS_FILE_PARTS = {
    "abap": "main",
    "locals_def.abap": "definitions",
    "locals_imp.abap": "implementations",
    "macros.abap": "macros",
    "testclasses.abap": "testclasses",
}


class ClassKind(AbapSourceKind):
    kinds = (CLAS,)
    main_files = ("clas.abap",)
    companion_files = (
        "clas.xml",
        *(f"clas.{suffix}" for suffix in CLASS_FILE_PARTS if suffix != "abap"),
    )

    def parts(self, obj: RepoObject) -> tuple[str, ...]:
        return CLASS_PARTS

    def seed(self, folder: SeedFolder, stem: str, suffix: str) -> list[RepoObject]:
        description = xml_text(folder.folder / f"{stem}.clas.xml", "//DESCRIPT") or ""
        obj = folder.new(CLAS, abapgit_name(stem), description)
        for file_suffix, part in CLASS_FILE_PARTS.items():
            path = folder.file(f"{stem}.clas.{file_suffix}")
            if path is not None:
                folder.unit(obj, part, read_source_file(path))
        return [obj]

    def document(self, view: ObjectView, state: SystemState) -> str:
        return documents.class_document(view)

    def template(self, obj: RepoObject, spec: NewSpec) -> dict[str, str]:
        sources = {
            "main": skeletons.class_source(obj.name, final=spec.final, superclass=spec.superclass)
        }
        sources.update(skeletons.CLASS_LOCALS)
        if spec.test_classes:
            sources["testclasses"] = skeletons.TEST_CLASSES
        return sources


MODULE = ClassKind()
