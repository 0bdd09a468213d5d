"""Load objects from abapGit-format folders.

Package rule: a folder that contains ``package.devc.xml`` is a package; a folder without
one belongs to its parent folder's package; the seed root without one is ``$TMP``. With
abapGit's "full" folder logic (the default) the package is named after the folder,
upper-cased (``$zdemo`` → ``$ZDEMO``, ``#abc#pkg`` → ``/ABC/PKG``); an ``.abapgit.xml``
with ``FOLDER_LOGIC`` ``PREFIX`` names a sub-package ``<PARENT>_<FOLDER>`` instead, as
abapGit does (the root keeps its folder's name; below a root without ``package.devc.xml``
the names stay unprefixed). ``STARTING_FOLDER`` moves the root.

Files: ``*.clas.abap`` (+ ``.clas.locals_def/locals_imp/macros/testclasses.abap``),
``*.intf.abap``, ``*.prog.abap`` (``.prog.xml`` SUBC ``I`` = include), function
groups ``*.fugr.xml`` with ``*.fugr.<name>.abap`` (modules listed in the XML;
``sapl<fg>`` is the group's main program, every other file an include).
Descriptions come from the ``.xml`` files.  abapGit ends every file with one
newline; that newline is not part of the stored source.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from .model import (
    CLAS,
    FINC,
    FUGR,
    FUNC,
    INCL,
    INTF,
    PROG,
    Kind,
    Package,
    RepoObject,
    SourceUnit,
    Version,
)
from .text import canonical

TMP_DESCRIPTION = "Temporary Objects (never transported!)"

CLASS_FILE_PARTS = {
    "abap": "main",
    "locals_def.abap": "definitions",
    "locals_imp.abap": "implementations",
    "macros.abap": "macros",
    "testclasses.abap": "testclasses",
}


def abapgit_name(stem: str) -> str:
    """``#abc#cl_x`` → ``/ABC/CL_X``."""
    return stem.replace("#", "/").upper()


def _read(path: Path) -> str:
    text = path.read_text(encoding="utf-8-sig")
    if text.endswith("\r\n"):
        return text[:-2]
    if text.endswith("\n"):
        return text[:-1]
    return text


def _xml_text(path: Path, xpath: str) -> str | None:
    if not path.is_file():
        return None
    try:
        tree = etree.parse(str(path))
    except etree.XMLSyntaxError:
        return None
    found = tree.xpath(xpath)
    if isinstance(found, list) and found:
        first = found[0]
        if isinstance(first, str):
            return first
        if isinstance(first, etree._Element) and first.text is not None:
            return first.text
    return None


@dataclass
class SeedResult:
    """What a folder contributed."""

    packages: list[Package] = field(default_factory=list)
    objects: list[RepoObject] = field(default_factory=list)


class SeedLoader:
    """Builds packages and objects from one abapGit folder."""

    def __init__(self, responsible: str, stamp: int) -> None:
        self.responsible = responsible
        self.stamp = stamp
        self.result = SeedResult()
        self.prefix_logic = False

    def load(self, root: Path) -> SeedResult:
        root = Path(root)
        if not root.is_dir():
            raise FileNotFoundError(f"seed folder not found: {root}")
        start = _xml_text(root / ".abapgit.xml", "//STARTING_FOLDER")
        logic = _xml_text(root / ".abapgit.xml", "//FOLDER_LOGIC") or ""
        self.prefix_logic = logic.strip().upper() == "PREFIX"
        if start and start.strip("/"):
            root = root / start.strip("/")
        self._walk(root, None, is_root=True)
        return self.result

    def _walk(self, folder: Path, parent_package: str | None, *, is_root: bool) -> None:
        devc = folder / "package.devc.xml"
        if devc.is_file():
            name = self._package_name(folder, parent_package, is_root=is_root)
            description = _xml_text(devc, "//CTEXT") or ""
            self.result.packages.append(
                Package(name, description, parent_package, self.responsible, self.stamp)
            )
            package = name
        elif is_root or parent_package is None:
            package = "$TMP"
            if is_root:
                self.result.packages.append(
                    Package(
                        "$TMP", "Temporary Objects (never transported!)", None, "SAP", self.stamp
                    )
                )
        else:
            package = parent_package
        self._load_files(folder, package)
        for sub in sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")):
            self._walk(sub, package, is_root=False)

    def _package_name(self, folder: Path, parent: str | None, *, is_root: bool) -> str:
        """The package a folder with ``package.devc.xml`` stands for."""
        own = abapgit_name(folder.name)
        if self.prefix_logic and not is_root and parent not in (None, "$TMP"):
            return f"{parent}_{own}"
        return own

    def _new(self, kind: Kind, name: str, package: str, description: str) -> RepoObject:
        return RepoObject(
            kind=kind,
            name=name,
            package=package,
            description=description,
            responsible=self.responsible,
            created_at=self.stamp,
        )

    def _unit(self, obj: RepoObject, part: str, text: str) -> None:
        stored = canonical(text, keep_trailing_newlines=obj.kind.keeps_trailing_newlines)
        obj.parts[part] = SourceUnit(
            part, active=Version(stored, self.stamp, self.responsible), last_stamp=self.stamp
        )

    def _load_files(self, folder: Path, package: str) -> None:
        files = sorted(p for p in folder.iterdir() if p.is_file())
        names = {p.name.lower(): p for p in files}
        for path in files:
            lower = path.name.lower()
            stem, _, rest = lower.partition(".")
            if rest == "clas.abap":
                self._load_class(folder, stem, package, names)
            elif rest == "intf.abap":
                obj = self._new(
                    INTF,
                    abapgit_name(stem),
                    package,
                    _xml_text(folder / f"{stem}.intf.xml", "//DESCRIPT") or "",
                )
                self._unit(obj, "main", _read(path))
                self.result.objects.append(obj)
            elif rest == "prog.abap":
                xml = folder / f"{stem}.prog.xml"
                subc = _xml_text(xml, "//PROGDIR/SUBC") or "1"
                title = _xml_text(xml, "//TPOOL/item[ID='R']/ENTRY") or ""
                kind = INCL if subc.upper() == "I" else PROG
                obj = self._new(kind, abapgit_name(stem), package, title)
                self._unit(obj, "main", _read(path))
                self.result.objects.append(obj)
            elif rest == "fugr.xml":
                self._load_group(folder, stem, package, names)

    def _load_class(self, folder: Path, stem: str, package: str, names: dict[str, Path]) -> None:
        description = _xml_text(folder / f"{stem}.clas.xml", "//DESCRIPT") or ""
        obj = self._new(CLAS, abapgit_name(stem), package, description)
        for suffix, part in CLASS_FILE_PARTS.items():
            path = names.get(f"{stem}.clas.{suffix}")
            if path is not None:
                self._unit(obj, part, _read(path))
        self.result.objects.append(obj)

    def _load_group(self, folder: Path, stem: str, package: str, names: dict[str, Path]) -> None:
        xml = folder / f"{stem}.fugr.xml"
        group_name = abapgit_name(stem)
        group = self._new(FUGR, group_name, package, _xml_text(xml, "//AREAT") or "")
        tree = etree.parse(str(xml))
        modules: dict[str, str] = {}
        for item in tree.iter("item"):
            funcname = item.findtext("FUNCNAME")
            if funcname:
                modules[funcname.lower().replace("/", "#")] = item.findtext("SHORT_TEXT") or ""
        prefix = f"{stem}.fugr."
        main_name = f"sapl{stem}"
        for lower, path in sorted(names.items()):
            if not lower.startswith(prefix) or not lower.endswith(".abap"):
                continue
            member = lower[len(prefix) : -len(".abap")]
            text = _read(path)
            if member == main_name:
                self._unit(group, "main", text)
            elif member in modules:
                fm = self._new(FUNC, abapgit_name(member), package, modules[member])
                fm.group = group_name
                self._unit(fm, "main", text)
                self.result.objects.append(fm)
            else:
                inc = self._new(FINC, abapgit_name(member), package, "")
                inc.group = group_name
                self._unit(inc, "main", text)
                self.result.objects.append(inc)
        if "main" not in group.parts:
            self._unit(group, "main", f"FUNCTION-POOL {group_name.lower()}.")
        self.result.objects.append(group)


def load_folder(root: Path, *, responsible: str, stamp: int) -> SeedResult:
    """Load one abapGit folder."""
    return SeedLoader(responsible, stamp).load(root)
