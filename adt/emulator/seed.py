"""Load objects from abapGit-format folders.

Package rule: a folder that contains ``package.devc.xml`` is a package; a folder without
one belongs to its parent folder's package; the seed root without one is ``$TMP``. With
abapGit's "full" folder logic (the default) the package is named after the folder,
upper-cased (``$zdemo`` → ``$ZDEMO``, ``#abc#pkg`` → ``/ABC/PKG``); an ``.abapgit.xml``
with ``FOLDER_LOGIC`` ``PREFIX`` names a sub-package ``<PARENT>_<FOLDER>`` instead, as
abapGit does (the root keeps its folder's name; below a root without ``package.devc.xml``
the names stay unprefixed). ``STARTING_FOLDER`` moves the root.

Files: each kind module of :mod:`adt.emulator.kinds` names the abapGit files that stand for
its objects (``*.clas.abap``, ``*.ddls.asddls``, ``*.tabl.xml`` …) and reads them. A file
no module reads is not dropped in silence: it is listed in :attr:`SeedResult.unserved`
(by abapGit type), and the emulator reports those at start.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from .kinds import REGISTRY
from .kinds.base import SeedFolder, abapgit_name, xml_text
from .model import Package, RepoObject

TMP_DESCRIPTION = "Temporary Objects (never transported!)"

#: Files of a folder that describe the repository, not an object.
_REPOSITORY_FILES = {"package.devc.xml"}


@dataclass
class SeedResult:
    """What a folder contributed, and what it held that no kind serves."""

    packages: list[Package] = field(default_factory=list)
    objects: list[RepoObject] = field(default_factory=list)
    #: abapGit type (``ENHO``) → object names whose files no kind module reads.
    unserved: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def unserved_summary(self) -> str:
        """``"3 objects of kinds the emulator does not serve: ENHO (2: …), SUSO (1: …)"``."""
        if not self.unserved:
            return ""
        total = sum(len(names) for names in self.unserved.values())
        groups = ", ".join(
            f"{kind} ({len(names)}: {', '.join(sorted(names))})"
            for kind, names in sorted(self.unserved.items())
        )
        return f"{total} objects of kinds the emulator does not serve: {groups}"


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
        start = xml_text(root / ".abapgit.xml", "//STARTING_FOLDER")
        logic = xml_text(root / ".abapgit.xml", "//FOLDER_LOGIC") or ""
        self.prefix_logic = logic.strip().upper() == "PREFIX"
        if start and start.strip("/"):
            root = root / start.strip("/")
        self._walk(root, None, is_root=True)
        return self.result

    def _walk(self, folder: Path, parent_package: str | None, *, is_root: bool) -> None:
        devc = folder / "package.devc.xml"
        if devc.is_file():
            name = self._package_name(folder, parent_package, is_root=is_root)
            description = xml_text(devc, "//CTEXT") or ""
            self.result.packages.append(
                Package(name, description, parent_package, self.responsible, self.stamp)
            )
            package = name
        elif is_root or parent_package is None:
            package = "$TMP"
            if is_root:
                self.result.packages.append(
                    Package("$TMP", TMP_DESCRIPTION, None, "SAP", self.stamp)
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

    def _load_files(self, folder: Path, package: str) -> None:
        files = sorted(p for p in folder.iterdir() if p.is_file())
        names = {p.name.lower(): p for p in files}
        context = SeedFolder(folder, package, names, self.responsible, self.stamp)
        for lower in names:
            if lower.startswith(".") or lower in _REPOSITORY_FILES:
                continue
            stem, _, rest = lower.partition(".")
            module = REGISTRY.main_file(rest)
            if module is not None:
                self.result.objects += module.seed(context, stem, rest)
            elif not REGISTRY.claims(rest):
                self._unserved(stem, rest)

    def _unserved(self, stem: str, rest: str) -> None:
        kind = rest.split(".", 1)[0].upper() or "?"
        name = abapgit_name(stem)
        if name not in self.result.unserved[kind]:
            self.result.unserved[kind].append(name)


def load_folder(root: Path, *, responsible: str, stamp: int) -> SeedResult:
    """Load one abapGit folder."""
    return SeedLoader(responsible, stamp).load(root)
