"""The repository objects the emulator serves: kinds, source units and versions.

Names are stored upper case (``ZCL_DEMO_GREETER``, ``/ABC/CL_X``); URIs are the
lower-case ADT paths with ``/`` and ``$`` percent-encoded in lower case, the way
SAP writes its own hrefs (``/sap/bc/adt/oo/classes/%2fabc%2fcl_x``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol
from urllib.parse import quote

from .text import canonical, to_wire

ADT = "/sap/bc/adt"

#: Class parts in the order SAP lists them in ``class:include`` elements (§2.3).
CLASS_PARTS = ("definitions", "implementations", "macros", "testclasses", "main")

#: Internal include names of class parts (``ZCL_X=====...CCDEF``), used in messages.
CLASS_PART_SUFFIX = {
    "definitions": "CCDEF",
    "implementations": "CCIMP",
    "macros": "CCMAC",
    "testclasses": "CCAU",
    "main": "CP",
}


@dataclass(frozen=True)
class Kind:
    """Static facts about one object type."""

    code: str
    r3tr: str
    collection: str
    root: str
    namespace: str
    media_types: tuple[str, ...]
    text_limit: int
    keeps_trailing_newlines: bool
    label: str
    resource_word: str | None
    lock_word: str
    tree_node_id: int | None
    tree_label: str
    vit: str
    #: The repository tree's category of the kind's folder (``source_library``,
    #: ``core_data_services``, ``dictionary``, ``business_services``).
    tree_category: str = "source_library"
    #: The language an editor edits the source in (``abap``, ``abap-cds``, ``abap-bdef`` …).
    language: str = "abap"
    #: ``False`` for kinds served as ADT XML only (data elements, domains, message classes,
    #: service bindings): they have no ``/source/main``.
    source_based: bool = True
    #: Stored and served byte for byte (CDS-family sources keep their line ends, trailing
    #: blanks and final newline the way the author left them; abapGit writes them so).
    verbatim: bool = False

    @property
    def prefix(self) -> str:
        return self.root.split(":", 1)[0]


def mt(*names: str) -> tuple[str, ...]:
    return tuple(f"application/vnd.sap.adt.{n}+xml" for n in names)


CLAS = Kind(
    code="CLAS/OC",
    r3tr="CLAS",
    collection=f"{ADT}/oo/classes",
    root="class:abapClass",
    namespace="http://www.sap.com/adt/oo/classes",
    media_types=mt("oo.classes.v3", "oo.classes.v4", "oo.classes.v2", "oo.classes.v1"),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Class",
    resource_word="CLASS",
    lock_word="CLASS",
    tree_node_id=25,
    tree_label="Classes",
    vit="clasoc",
)
INTF = Kind(
    code="INTF/OI",
    r3tr="INTF",
    collection=f"{ADT}/oo/interfaces",
    root="intf:abapInterface",
    namespace="http://www.sap.com/adt/oo/interfaces",
    media_types=mt("oo.interfaces.v2", "oo.interfaces.v1", "oo.interfaces"),
    text_limit=60,
    keeps_trailing_newlines=True,
    label="Interface",
    resource_word="INTERFACE",
    lock_word="INTERFACE",
    tree_node_id=22,
    tree_label="Interfaces",
    vit="intfoi",
)
PROG = Kind(
    code="PROG/P",
    r3tr="PROG",
    collection=f"{ADT}/programs/programs",
    root="program:abapProgram",
    namespace="http://www.sap.com/adt/programs/programs",
    media_types=mt("programs.programs.v2", "programs.programs.v3", "programs.programs"),
    text_limit=70,
    keeps_trailing_newlines=False,
    label="Program",
    resource_word=None,
    lock_word="INCLUDE",
    tree_node_id=18,
    tree_label="Programs",
    vit="progpx",
)
INCL = Kind(
    code="PROG/I",
    r3tr="PROG",
    collection=f"{ADT}/programs/includes",
    root="include:abapInclude",
    namespace="http://www.sap.com/adt/programs/includes",
    media_types=mt("programs.includes.v2", "programs.includes"),
    text_limit=70,
    keeps_trailing_newlines=False,
    label="Include",
    resource_word=None,
    lock_word="INCLUDE",
    tree_node_id=20,
    tree_label="Includes",
    vit="progpx",
)
FUGR = Kind(
    code="FUGR/F",
    r3tr="FUGR",
    collection=f"{ADT}/functions/groups",
    root="group:abapFunctionGroup",
    namespace="http://www.sap.com/adt/functions/groups",
    media_types=mt("functions.groups.v2", "functions.groups.v3", "functions.groups"),
    text_limit=40,
    keeps_trailing_newlines=False,
    label="Function Group",
    resource_word="FUNCTION GROUP",
    lock_word="INCLUDE",
    tree_node_id=28,
    tree_label="Function Groups",
    vit="fugrf",
)
FUNC = Kind(
    code="FUGR/FF",
    r3tr="FUGR",
    collection=f"{ADT}/functions/groups",
    root="fmodule:abapFunctionModule",
    namespace="http://www.sap.com/adt/functions/fmodules",
    media_types=mt("functions.fmodules.v2", "functions.fmodules.v3", "functions.fmodules"),
    text_limit=74,
    keeps_trailing_newlines=False,
    label="Function Module",
    resource_word="FUNCTION MODULE",
    lock_word="INCLUDE",
    tree_node_id=None,
    tree_label="Function Modules",
    vit="fugrff",
)
FINC = Kind(
    code="FUGR/I",
    r3tr="FUGR",
    collection=f"{ADT}/functions/groups",
    root="finclude:abapFunctionGroupInclude",
    namespace="http://www.sap.com/adt/functions/fincludes",
    media_types=mt("functions.fincludes.v2", "functions.fincludes"),
    text_limit=70,
    keeps_trailing_newlines=False,
    label="Function Group Include",
    resource_word="INCLUDE",
    lock_word="INCLUDE",
    tree_node_id=None,
    tree_label="Includes",
    vit="fugri",
)

#: The ABAP-source kinds; every kind the emulator serves is in ``adt.emulator.kinds.REGISTRY``.
ABAP_KINDS = (CLAS, INTF, PROG, INCL, FUGR, FUNC, FINC)


@lru_cache(maxsize=8192)
def encode_name(name: str) -> str:
    """``/ABC/CL_X`` → ``%2fabc%2fcl_x`` (lower case, SAP's own spelling); remembered, as
    every object URI of a where-used answer is built from it."""
    encoded = quote(name.lower(), safe="")
    return encoded.replace("%2F", "%2f").replace("%24", "%24")


def package_uri(name: str) -> str:
    """``$TMP`` → ``/sap/bc/adt/packages/%24tmp``."""
    return f"{ADT}/packages/{encode_name(name)}"


@dataclass
class Version:
    """One stored text of a source unit (LF-joined canonical form)."""

    text: str
    changed_at: int
    changed_by: str


@dataclass
class SourceUnit:
    """A separately stored and versioned source: ``main`` or one class include."""

    part: str
    active: Version | None = None
    inactive: Version | None = None
    last_stamp: int = 0

    def pick(self, version: str | None) -> tuple[Version, bool] | None:
        """The version to serve and whether it is the active one.

        ``active`` → active only; anything else (absent, ``inactive``,
        ``workingArea``) → the inactive version if there is one, else the active.
        """
        if version == "active":
            return (self.active, True) if self.active is not None else None
        if self.inactive is not None:
            return self.inactive, False
        if self.active is not None:
            return self.active, True
        return None


@dataclass
class Package:
    """A development package (``$``-packages are local)."""

    name: str
    description: str = ""
    parent: str | None = None
    responsible: str = "DEVELOPER"
    created_at: int = 0

    @property
    def is_local(self) -> bool:
        return self.name.startswith("$")

    @property
    def uri(self) -> str:
        return package_uri(self.name)


class Repository(Protocol):
    """The repository tables the transport organizer and the version log read (the system
    state provides them; named here so those modules need not import the state)."""

    sid: str
    packages: dict[str, Package]
    objects: dict[str, RepoObject]


_IN_GROUP = frozenset({FUNC.code, FINC.code})


@dataclass
class RepoObject:
    """A repository object with its source units."""

    kind: Kind
    name: str
    package: str
    description: str
    responsible: str
    created_at: int
    group: str | None = None
    parts: dict[str, SourceUnit] = field(default_factory=dict)
    #: An include created with ``include:contextRef``: the main program it belongs to.
    main_program: str | None = None
    #: Kind-specific state outside the versioned sources (a binding's ``published``).
    facts: dict[str, str] = field(default_factory=dict)

    @property
    def uri(self) -> str:
        if self.kind.code in _IN_GROUP:  # not ``in (FUNC, FINC)``: Kind's __eq__ is costly
            assert self.group is not None
            sub = "fmodules" if self.kind is FUNC else "includes"
            return f"{FUGR.collection}/{encode_name(self.group)}/{sub}/{encode_name(self.name)}"
        return f"{self.kind.collection}/{encode_name(self.name)}"

    def stored(self, text: str) -> str:
        """The form the system keeps ``text`` in (verbatim kinds keep it as sent)."""
        if self.kind.verbatim:
            return text
        return canonical(text, keep_trailing_newlines=self.kind.keeps_trailing_newlines)

    def served(self, text: str) -> str:
        """The wire form of stored ``text`` (CRLF-joined, or as stored for verbatim kinds)."""
        return text if self.kind.verbatim else to_wire(text)

    def source_uri(self, part: str = "main") -> str:
        """``…/source/main`` or, for class includes, ``…/includes/<part>``."""
        if part == "main":
            return f"{self.uri}/source/main"
        return f"{self.uri}/includes/{part}"

    def source_href(self, part: str) -> str:
        """The relative href SAP writes in metadata (``source/main``, ``includes/x``)."""
        return "source/main" if part == "main" else f"includes/{part}"

    def ordered_parts(self) -> list[SourceUnit]:
        """Parts in SAP's listing order (class includes first, ``main`` last)."""
        if self.kind is CLAS:
            return [self.parts[p] for p in CLASS_PARTS if p in self.parts]
        return list(self.parts.values())

    def include_name(self, part: str) -> str:
        """SAP's internal include name, e.g. ``ZCL_X=========================CCAU``."""
        return self.name.ljust(30, "=") + CLASS_PART_SUFFIX.get(part, "")

    @property
    def is_inactive(self) -> bool:
        return any(unit.inactive is not None for unit in self.parts.values())
