"""What one object kind contributes to the emulator, and the abapGit files it reads.

A kind module (``kinds/ddls.py``, ``kinds/clas.py`` …) holds one :class:`KindModule`: the
static facts (:class:`~adt.emulator.model.Kind`), the abapGit files that stand for one object
(``#dmo#i_travel_m.ddls.asddls`` with its ``.ddls.xml``), how to seed it, the metadata
document a real system sends, the source a real system generates on creation and the
checks it runs. The registry (``kinds/__init__.py``) lists the modules once; nothing else
dispatches on a kind.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from lxml import etree

from ..model import Kind, RepoObject, Repository, SourceUnit, Version
from .dependencies import NameUse

if TYPE_CHECKING:
    from adt.abap.scanner import ScanIssue

    from ..documents import ObjectView


class SystemState(Repository, Protocol):
    """What a kind module reads of the system: the repository tables and an object's
    function group (the state provides them; named here so the kinds, which the state
    uses, do not import the state)."""

    def group_of(self, obj: RepoObject) -> RepoObject | None: ...


def abapgit_name(stem: str) -> str:
    """``#dmo#i_travel_m`` → ``/DMO/I_TRAVEL_M``."""
    return stem.replace("#", "/").upper()


def abapgit_stem(name: str) -> str:
    """``/DMO/I_TRAVEL_M`` → ``#dmo#i_travel_m`` (abapGit's file-name form)."""
    return name.replace("/", "#").lower()


def read_source_file(path: Path) -> str:
    """An ABAP source file without the one newline abapGit ends every file with."""
    text = path.read_text(encoding="utf-8-sig")
    if text.endswith("\r\n"):
        return text[:-2]
    if text.endswith("\n"):
        return text[:-1]
    return text


def read_verbatim_file(path: Path) -> str:
    """A CDS-family source exactly as written (line ends, blanks, final newline kept)."""
    raw = path.read_bytes()
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    return raw.decode("utf-8")


_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, remove_blank_text=True)


def parse_xml(path: Path) -> etree._ElementTree | None:
    """The parsed file, or ``None`` if it is missing or not XML (one parser for all: its
    construction cost more than the parse of a small file)."""
    try:
        return etree.parse(str(path), _PARSER)
    except (OSError, etree.XMLSyntaxError):
        return None


def xml_text(path: Path, xpath: str) -> str | None:
    """The text of the first node ``xpath`` finds in an abapGit XML file."""
    tree = parse_xml(path)
    if tree is None:
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
class SeedFolder:
    """One abapGit folder being seeded: its files (by lower-case name) and its package."""

    folder: Path
    package: str
    names: dict[str, Path]
    responsible: str
    stamp: int

    def file(self, filename: str) -> Path | None:
        return self.names.get(filename.lower())

    def new(self, kind: Kind, name: str, description: str) -> RepoObject:
        return RepoObject(
            kind=kind,
            name=name,
            package=self.package,
            description=description,
            responsible=self.responsible,
            created_at=self.stamp,
        )

    def unit(self, obj: RepoObject, part: str, text: str) -> None:
        """Store ``text`` as the active version of ``part``."""
        obj.parts[part] = SourceUnit(
            part,
            active=Version(obj.stored(text), self.stamp, self.responsible),
            last_stamp=self.stamp,
        )


@dataclass(frozen=True)
class NewSpec:
    """What a create request asked for, as a kind's template needs it."""

    name: str
    description: str
    final: bool = True
    superclass: str | None = None
    test_classes: bool = False
    #: Kind-specific values read from the create body (a binding's service definition …).
    extra: dict[str, str] = field(default_factory=dict)


class KindModule:
    """One object kind in the emulator. Subclasses set the class attributes and override
    what differs; the defaults fit a source-based kind with one ``main`` source."""

    #: The kinds this module serves (one for most; TABL serves tables and structures).
    kinds: tuple[Kind, ...] = ()
    #: abapGit file endings that each stand for one object (``ddls.asddls``).
    main_files: tuple[str, ...] = ()
    #: Further abapGit file endings of the same objects (read with the main file).
    companion_files: tuple[str, ...] = ()
    #: Name validation endpoints below ``/sap/bc/adt/`` (the ABAP kinds have their own).
    validation_paths: tuple[str, ...] = ()
    #: Beginnings of further file endings (``fugr.`` for ``<group>.fugr.<member>.abap``).
    companion_prefixes: tuple[str, ...] = ()

    @property
    def kind(self) -> Kind:
        return self.kinds[0]

    def parts(self, obj: RepoObject) -> tuple[str, ...]:
        """Source parts a URL may name (``main`` for every source-based kind)."""
        return ("main",) if obj.kind.source_based else ()

    def seed(self, folder: SeedFolder, stem: str, suffix: str) -> list[RepoObject]:
        """The objects the main file ``<stem>.<suffix>`` stands for."""
        raise NotImplementedError

    def document(self, view: ObjectView, state: SystemState) -> str:
        """The metadata document (``GET`` on the object URI)."""
        raise NotImplementedError

    def template(self, obj: RepoObject, spec: NewSpec) -> dict[str, str]:
        """The sources (by part) a real system generates for a new object."""
        raise NotImplementedError

    def check(self, obj: RepoObject, part: str, text: str, state: SystemState) -> list[ScanIssue]:
        """Syntax findings for one part; kinds without a checker of their own find none."""
        return []

    def dependencies(self, obj: RepoObject, text: str) -> list[NameUse]:
        """Names of the objects ``text`` builds on (activation checks and orders by them);
        kinds without dependencies of interest name none."""
        return []

    def extra_create_fields(self, root: etree._Element) -> dict[str, str]:
        """Kind-specific values of a create body (see :attr:`NewSpec.extra`)."""
        return {}


__all__ = [
    "KindModule",
    "NewSpec",
    "SeedFolder",
    "SystemState",
    "abapgit_name",
    "abapgit_stem",
    "parse_xml",
    "read_source_file",
    "read_verbatim_file",
    "xml_text",
]
